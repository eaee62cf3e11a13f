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
enum class BlockKind : uint8_t;
struct ErrorHandlerModel;
struct OnExceptionModel;
struct OnCompletionModel;
struct InterceptModel;
struct Interception;
class DynamicSendInterception;

struct StepModel {
  virtual ~StepModel() = default;
  /// Camel's name for the step kind ("to", "filter", "setHeader" ...): auto node ids use it.
  virtual std::string_view kind() const = 0;
  /// How the step reads in errors, e.g. `to[direct:a]`.
  virtual std::string describe() const { return std::string(kind()); }
  /// True when the step never changes the message before failing, so a redelivery has
  /// nothing to restore (the built-in steps that evaluate first and set last).
  virtual bool failureAtomic() const { return false; }
  virtual Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const = 0;
  /// The name of the `index`th block its compile makes, as a diagram labels it (a choice's
  /// `when[...]` and `otherwise`); empty for a step's one body.
  virtual std::string branchLabel(size_t /*index*/) const { return {}; }

  std::string id;  // user-given node id (empty: assigned at compile)
  SourcePlace where;  // set by file loaders (no snippet: a big file has many models)
};

struct BlockModel {
  std::vector<std::unique_ptr<StepModel>> steps;
};

struct RouteModel {
  std::string id;
  std::string from;
  bool autoStartup = true;
  ShutdownRoute shutdownRoute = ShutdownRoute::Default;
  ShutdownRunningTask shutdownRunningTask = ShutdownRunningTask::CompleteAllTasks;
  std::optional<bool> trace;  // Camel's route `trace`: unset follows the context's tracing
  /// Made from a Kamelet: its RouteBuilder's (its file's) error handling does not apply, so a
  /// failure goes back to the route that uses the Kamelet (Camel's noErrorHandler default).
  bool kamelet = false;
  BlockModel body;
  SourcePlace where;  // no snippet: a context may hold many thousand routes

  /// What most routes leave unset, kept apart (a big file's models are all held at once
  /// before they compile: these would be two thirds of each).
  struct Extras {
    std::string description;
    std::string nodePrefixId;  // Camel's: put before every generated node id (not given ones)
    std::string variableReceive;  // Camel 4's from variableReceive: the body into this variable
    std::vector<std::string> misuse;  // DSL chain mistakes, reported by addRoutes

    // Error handling: the route's own, then what its RouteBuilder (or file) configures.
    std::shared_ptr<const ErrorHandlerModel> errorHandler;
    std::vector<std::shared_ptr<OnExceptionModel>> onExceptions;
    std::vector<std::shared_ptr<OnCompletionModel>> onCompletions;
    std::shared_ptr<const ErrorHandlerModel> builderErrorHandler;
    std::vector<std::shared_ptr<OnExceptionModel>> builderOnExceptions;
    std::vector<std::shared_ptr<OnCompletionModel>> builderOnCompletions;
    /// intercept / interceptFrom / interceptSendToEndpoint (intercept.h): the route's own,
    /// then its RouteBuilder's (or file's routeConfigurations').
    std::vector<std::shared_ptr<InterceptModel>> intercepts;
    std::vector<std::shared_ptr<InterceptModel>> builderIntercepts;
  };
  /// The extras, made on first write.
  Extras& more() {
    if (!extras_) extras_ = std::make_unique<Extras>();
    return *extras_;
  }
  /// The extras to read: empty ones when none were written.
  const Extras& extras() const noexcept {
    static const Extras none;
    return extras_ ? *extras_ : none;
  }

 private:
  std::unique_ptr<Extras> extras_;
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
  /// The same, with steps appended after the block's own (e.g. a doTry's doFinally entry).
  Result<detail::Block*> compileBlock(const detail::BlockModel& block, detail::BlockKind kind,
                                      std::vector<std::unique_ptr<Step>> trailing);
  /// A started, shared producer for `uri`.
  Result<Producer*> producer(const std::string& uri);
  /// `send` (a step sending to `uri`), wrapped in the route's interceptSendToEndpoint clauses
  /// that match `uri`; `send` itself when none does.
  Result<std::unique_ptr<Step>> interceptSend(const std::string& uri, std::unique_ptr<Step> send);
  /// For a send whose URI is computed per exchange (toD): the route's interceptSendToEndpoint
  /// clauses, or null when it has none (intercept.h).
  Result<std::unique_ptr<detail::DynamicSendInterception>> dynamicSendInterception();

  /// The route's interceptors while it compiles (set by compileRoute once their own steps are
  /// compiled); `intercept` goes before each step of the blocks compiled while interceptSteps.
  std::shared_ptr<detail::Interception> interception;
  bool interceptSteps = false;
  /// An error about `step`, prefixed with the route and step, keeping its source position.
  Error error(const detail::StepModel& step, const Error& cause) const;

 private:
  Context& context_;
  detail::Route& route_;
};

}  // namespace dromedary
