// SPDX-License-Identifier: Apache-2.0
#pragma once

// A route's error handling as compiled when the route starts (from engine/
// error_handler_model.h, by compile_error_handler.cc): redelivery policies, onException
// clauses with their resolved exception types, doTry data and onCompletion blocks. What
// runs with them when a step fails is engine/failure_path.h.

#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/core/logging.h>
#include <dromedary/spi/processor.h>

#include "engine/error_handler_model.h"
#include "engine/exception_registry.h"
#include "engine/compiled_route.h"

namespace dromedary {
class RouteCompiler;
}

namespace dromedary::detail {

struct RedeliveryPolicy {
  int maximumRedeliveries = 0;
  int64_t redeliveryDelayMs = 1000;
  double backOffMultiplier = 2.0;
  bool useExponentialBackOff = false;
  int64_t maximumRedeliveryDelayMs = 60000;
  bool useCollisionAvoidance = false;
  double collisionAvoidanceFactor = 0.15;
  std::vector<std::pair<int, int64_t>> delayPattern;  // (from attempt, delay ms), ascending
  LoggingLevel retryAttemptedLogLevel = LoggingLevel::Debug;
  LoggingLevel retriesExhaustedLogLevel = LoggingLevel::Error;
  bool logStackTrace = true;
  bool logRetryAttempted = true;
  bool logExhausted = true;
  bool logHandled = false;
  bool logContinued = false;
  bool logExhaustedMessageHistory = true;
};

/// Applies the options set in `model` over `policy`; fails on a bad delayPattern.
Result<void> applyPolicy(RedeliveryPolicy& policy, const RedeliveryPolicyModel& model);

/// The delay before redelivery number `counter` (1-based), given the previous delay for the
/// same step (0 for the first), as Camel's RedeliveryPolicy computes it. `random01` is a
/// uniform number in [0, 1) and `coin` a fair bit, used only with collision avoidance.
int64_t redeliveryDelay(const RedeliveryPolicy& policy, int64_t previous_ms, int counter,
                        double random01 = 0.5, bool coin = true) noexcept;

struct CompiledClause {
  std::vector<const ExceptionType*> types;  // empty = any failure
  std::unique_ptr<Predicate> onWhen;
  std::unique_ptr<Predicate> handled;
  std::unique_ptr<Predicate> continued;
  std::unique_ptr<Predicate> retryWhile;
  std::shared_ptr<Processor> onRedelivery;
  RedeliveryPolicy policy;
  bool useOriginalMessage = false;
  bool useOriginalBody = false;
  const Block* block = nullptr;  // the clause's steps then the epilogue
};

struct CompiledErrorHandler {
  ErrorHandlerDefinition::Kind kind = ErrorHandlerDefinition::Kind::Default;
  RedeliveryPolicy policy;
  std::unique_ptr<Predicate> retryWhile;
  std::shared_ptr<Processor> onRedelivery;
  bool useOriginalMessage = false;
  bool useOriginalBody = false;
  bool deadLetterHandleNewException = true;
  std::string deadLetterUri;
  const Block* deadLetterBlock = nullptr;  // to(deadLetterUri) then the epilogue
  std::vector<CompiledClause> clauses;     // route-scoped first, then the builder's
  Logger logger = Logger::get("dromedary.errorhandler");
  bool mayRedeliver = false;  // some policy redelivers: steps save the message first
  bool needsOriginal = false;
};

/// A doTry's clauses, owned by its step; the try body and catch blocks point here.
struct TryData {
  struct Catch {
    std::vector<const ExceptionType*> types;  // empty = any failure
    std::unique_ptr<Predicate> onWhen;
    const Block* block = nullptr;
  };
  std::vector<Catch> catches;
  const Block* finallyBlock = nullptr;
};

struct CompiledOnCompletion {
  bool onCompleteOnly = false;
  bool onFailureOnly = false;
  std::unique_ptr<Predicate> onWhen;
  const Block* block = nullptr;
  const Route* route = nullptr;
};

/// Whether the handler's own work may wait: its onRedelivery processors and predicates (the
/// steps of its blocks are the route's and answer for themselves).
bool mayBlock(const CompiledErrorHandler& handler) noexcept;

/// Resolves exception type names for `what` ("onException", "doCatch"); unknown names fail
/// with a suggestion.
Result<std::vector<const ExceptionType*>> resolveExceptionTypes(
    Context& context, const std::vector<std::string>& names, std::string_view what);

/// The step that ends an onException block or dead letter delivery: handled, continued or
/// passed on (see FailureContext).
std::unique_ptr<Step> makeFailureEpilogue();

/// Compiles `route.model`'s error handler and clauses into `route.errorHandler`, and marks
/// the route's steps for checkpoints / message history. Called after the route's body.
Result<void> compileErrorHandling(RouteCompiler& compiler, Route& route);

}  // namespace dromedary::detail
