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

#include <string>

#include <dromedary/core/exchange.h>

#include "engine/compiled_error_handler.h"

namespace dromedary::detail {

/// The executor's failure path: the exchange's error slot is set and its top frame's last
/// step failed. Returns Continue when the exchange goes on (redelivered, caught, a failure
/// block pushed), Suspend when a delayed redelivery was scheduled, Fail when the failure
/// leaves the loop's frames (they are unwound).
Status handleFailure(Exchange& exchange, uint32_t base) noexcept;

/// Evaluates a predicate on a failed exchange: the failure moves to caughtError() while it
/// runs, so `${exception.message}` sees it; a predicate that fails counts as false.
bool matchesOnFailure(Exchange& exchange, const Predicate& predicate) noexcept;

/// Registers the route's onCompletion blocks on the exchange (once each).
void registerOnCompletions(Exchange& exchange, const Route& route) noexcept;

/// At the first route entry: saves the original message when some route needs it.
void captureOriginal(Exchange& exchange) noexcept;

}  // namespace dromedary::detail
