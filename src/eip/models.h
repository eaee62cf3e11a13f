// SPDX-License-Identifier: Apache-2.0
#pragma once

// The step models of the built-in EIPs. Each is compiled by its own file in src/eip/
// (to.cc, filter.cc, choice.cc ...), which also holds the step it compiles into.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dromedary/core/logging.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/spi/processor.h>

#include "engine/route_model.h"

namespace dromedary::eip {

using detail::BlockModel;
using detail::StepModel;

struct ToModel final : StepModel {
  std::string uri;
  std::string_view kind() const override { return "to"; }
  std::string describe() const override { return "to[" + uri + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ToDynamicModel final : StepModel {
  explicit ToDynamicModel(ExpressionDefinition e) : uri(std::move(e)) {}
  ExpressionDefinition uri;
  std::string_view kind() const override { return "toD"; }
  std::string describe() const override { return "toD[" + uri.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ProcessModel final : StepModel {
  std::shared_ptr<Processor> processor;  // owned or shared
  Processor* borrowed = nullptr;         // owned elsewhere
  std::string ref;                       // bound in the context by name (route files)
  std::string_view kind() const override { return "process"; }
  std::string describe() const override {
    return ref.empty() ? std::string("process") : "process[ref=" + ref + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// setBody and transform (Camel's transform sets the body too).
struct SetBodyModel final : StepModel {
  bool failureAtomic() const override { return true; }
  SetBodyModel(std::string_view k, ExpressionDefinition e) : kind_(k), value(std::move(e)) {}
  std::string_view kind_;
  ExpressionDefinition value;
  std::string_view kind() const override { return kind_; }
  std::string describe() const override {
    return std::string(kind_) + "[" + value.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// setHeader and setProperty.
struct SetHeaderModel final : StepModel {
  bool failureAtomic() const override { return true; }
  SetHeaderModel(bool p, std::string n, ExpressionDefinition e)
      : property(p), name(std::move(n)), value(std::move(e)) {}
  bool property;
  std::string name;
  ExpressionDefinition value;
  std::string_view kind() const override { return property ? "setProperty" : "setHeader"; }
  std::string describe() const override {
    return std::string(kind()) + "[" + name + "=" + value.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// removeHeader(s) and removeProperty/ies.
struct RemoveHeadersModel final : StepModel {
  bool failureAtomic() const override { return true; }
  bool property = false;
  bool single = false;  // removeHeader(name): an exact name, no pattern
  std::string pattern;
  std::vector<std::string> excludes;
  std::string_view kind() const override {
    if (property) return single ? "removeProperty" : "removeProperties";
    return single ? "removeHeader" : "removeHeaders";
  }
  std::string describe() const override { return std::string(kind()) + "[" + pattern + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ConvertBodyModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string type;
  std::string_view kind() const override { return "convertBodyTo"; }
  std::string describe() const override { return "convertBodyTo[" + type + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct FilterModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit FilterModel(PredicateDefinition p) : predicate(std::move(p)) {}
  PredicateDefinition predicate;
  BlockModel body;
  std::string_view kind() const override { return "filter"; }
  std::string describe() const override { return "filter[" + predicate.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// doTry / doCatch / doFinally (do_try.cc).
struct TryModel final : StepModel {
  struct CatchModel {
    std::vector<std::string> exceptions;  // empty: every failure
    std::optional<PredicateDefinition> onWhen;
    BlockModel body;
    SourceRef where;
  };
  BlockModel body;
  std::vector<std::unique_ptr<CatchModel>> catches;
  std::unique_ptr<BlockModel> finallyBody;
  std::string_view kind() const override { return "doTry"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ChoiceModel final : StepModel {
  bool failureAtomic() const override { return true; }
  struct When {
    PredicateDefinition predicate;
    BlockModel body;
  };
  std::vector<When> whens;
  std::unique_ptr<BlockModel> otherwise;
  std::string_view kind() const override { return "choice"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// delay(expr): waits the expression's milliseconds without holding a thread.
struct DelayModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit DelayModel(ExpressionDefinition e) : millis(std::move(e)) {}
  ExpressionDefinition millis;
  std::string_view kind() const override { return "delay"; }
  std::string describe() const override { return "delay[" + millis.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// threads(poolSize, maxPoolSize): the rest of the route runs on this step's own pool.
struct ThreadsModel final : StepModel {
  int pool_size = 10;
  int max_pool_size = 20;
  int max_queue_size = 1000;
  std::string_view kind() const override { return "threads"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// throttle(maximumRequests, timePeriod): at most N exchanges pass per period; the others
/// wait (without a thread) in arrival order, or are rejected with rejectExecution.
struct ThrottleModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit ThrottleModel(ExpressionDefinition m) : maximum(std::move(m)) {}
  ExpressionDefinition maximum;
  std::chrono::milliseconds period{1000};
  bool reject = false;
  bool concurrent = false;  ///< ConcurrentRequests mode: at most N exchanges in flight
  std::string_view kind() const override { return "throttle"; }
  std::string describe() const override { return "throttle[" + maximum.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct StopModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string_view kind() const override { return "stop"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct LogModel final : StepModel {
  bool failureAtomic() const override { return true; }
  LogModel(LoggingLevel l, std::string n, ExpressionDefinition m)
      : level(l), log_name(std::move(n)), message(std::move(m)) {}
  LoggingLevel level;
  std::string log_name;  // empty: the route id
  ExpressionDefinition message;
  std::string_view kind() const override { return "log"; }
  std::string describe() const override { return "log[" + message.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

}  // namespace dromedary::eip
