// SPDX-License-Identifier: Apache-2.0
#pragma once

// Error handling at run time (DESIGN §6): what the executor does when a step fails.
//
// A failure is offered to the frames on the exchange's stack, innermost first: a doTry
// body tries its doCatch clauses, a doCatch or doFinally passes it on after running the
// doFinally, an onException block or dead letter endpoint that fails ends the handling
// (Camel's fatal fallback), and a route's top frame hands it to the route's error handler.
// A route without one (noErrorHandler) passes it to the step that called the route.
//
// The error handler picks the closest onException clause, then redelivers (restoring the
// message saved before the failing step; see Checkpoint in exchange.h), or, once
// exhausted, runs the clause's steps or the dead letter endpoint as a block on top of the
// failing frames. That block ends with a FailureEpilogue step that applies handled /
// continued / not handled. Everything is resolved when the route starts.

#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/core/logging.h>
#include <dromedary/spi/processor.h>

#include "engine/error_handler_model.h"
#include "engine/exception_registry.h"
#include "engine/route.h"

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

/// Registers the route's onCompletion blocks on the exchange (once each).
void registerOnCompletions(Exchange& exchange, const Route& route) noexcept;

/// Evaluates a predicate on a failed exchange: the failure moves to caughtError() while it
/// runs, so `${exception.message}` sees it; a predicate that fails counts as false.
bool matchesOnFailure(Exchange& exchange, const Predicate& predicate) noexcept;

/// Compiles `route.model`'s error handler and clauses into `route.errorHandler`, and marks
/// the route's steps for checkpoints / message history. Called after the route's body.
Result<void> compileErrorHandling(RouteCompiler& compiler, Route& route);

/// The executor's failure path: the exchange's error slot is set and its top frame's last
/// step failed. Returns Continue when the exchange goes on (redelivered, caught, a failure
/// block pushed), Suspend when a delayed redelivery was scheduled, Fail when the failure
/// leaves the loop's frames (they are unwound).
Status handleFailure(Exchange& exchange, uint32_t base) noexcept;

/// Before a step marked kStepHistory: records it in the message history.
void recordHistory(Exchange& exchange, const Step& step) noexcept;

/// At the first route entry: saves the original message when some route needs it.
void captureOriginal(Exchange& exchange) noexcept;

/// The message history block of a failure log (Camel's "Message History").
std::string messageHistory(Exchange& exchange, const Step* failing);

}  // namespace dromedary::detail
