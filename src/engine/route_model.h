// SPDX-License-Identifier: Apache-2.0
#pragma once

// The route model: what the C++ DSL (and later the YAML/XML loaders) build, and what the
// route compiler turns into Steps when the route starts. One model, several front ends.

#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/engine/context.h>

#include "engine/step.h"

namespace dromedary {

class RouteCompiler;

namespace detail {

struct Route;
struct Block;

struct StepModel {
  virtual ~StepModel() = default;
  /// Camel's name for the step kind ("to", "filter", "setHeader" ...): auto node ids use it.
  virtual std::string_view kind() const = 0;
  /// How the step reads in errors, e.g. `to[direct:a]`.
  virtual std::string describe() const { return std::string(kind()); }
  virtual Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const = 0;

  std::string id;  // user-given node id (empty: assigned at compile)
  SourceRef where;  // set by file loaders
};

struct BlockModel {
  std::vector<std::unique_ptr<StepModel>> steps;
};

struct RouteModel {
  std::string id;
  std::string from;
  std::string description;
  bool auto_startup = true;
  BlockModel body;
  std::vector<std::string> misuse;  // DSL chain mistakes, reported by addRoutes
  SourceRef where;
};

}  // namespace detail

/// What a step model may use while compiling.
class RouteCompiler {
 public:
  RouteCompiler(Context& context, detail::Route& route) : context_(context), route_(route) {}

  Context& context() noexcept { return context_; }
  detail::Route& route() noexcept { return route_; }

  /// Compiles a child block; the Block and its steps are owned by the route.
  Result<const detail::Block*> compileBlock(const detail::BlockModel& block);
  /// A started, shared producer for `uri`.
  Result<Producer*> producer(const std::string& uri);
  /// An error about `step`, prefixed with the route and step, keeping its source position.
  Error error(const detail::StepModel& step, const Error& cause) const;

 private:
  Context& context_;
  detail::Route& route_;
};

}  // namespace dromedary
