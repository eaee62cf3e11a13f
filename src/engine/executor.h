// SPDX-License-Identifier: Apache-2.0
#pragma once

// The executor: an interpreter over compiled routes (DESIGN §3).
//
// An exchange carries its position as a fixed stack of (block, index) frames. `run` takes
// the next step of the top frame, runs it, and moves on; a frame whose block is done is
// popped (a route's top frame counts the route as finished). Steps enter child blocks by
// pushing frames; a `to` step reaching another route pushes that route's top block, so a
// chain of direct routes runs in one flat loop. A step that returns Suspend leaves the
// exchange parked at the next step; `Exchange::resume()` continues the loop there.

#include <dromedary/core/exchange.h>

#include "engine/exec_state.h"
#include "engine/compiled_route.h"

namespace dromedary::detail {

/// run()'s loop over the frames, from the top frame's next step.
Status runFrames(Exchange& exchange) noexcept;
/// run() of an exchange resumed failed: the step that suspended it failed.
Status runFailed(Exchange& exchange) noexcept;

/// Runs until the frame stack is back at its base, a step suspends, or one fails.
inline Status run(Exchange& exchange) noexcept {
  if (exchange.failed()) [[unlikely]] return runFailed(exchange);
  return runFrames(exchange);
}

/// A suspended exchange goes on: the step it suspended in counts it resumed (it was counted
/// suspended there when the step returned Suspend). A wait for a redelivery's delay is in no
/// step (ExecRun::redeliveryWait) and counts nothing.
void countResumed(Exchange& exchange) noexcept;

/// Pops frames down to `depth` (route frames count their route as finished).
void unwindTo(Exchange& exchange, uint32_t depth, bool failed) noexcept;

/// The step the top frame ran last (the one that failed or suspended), or null.
const Step* lastStep(const ExecState& state) noexcept;

/// The route of the innermost route frame, or null.
const Route* currentRoute(const ExecState& state) noexcept;

/// Fails the exchange with LimitExceeded (the frame stack is full), naming the route of
/// `block`; returns false.
[[gnu::cold]] bool failTooDeep(Exchange& exchange, const Block& block) noexcept;

/// Pushes a child block; fails the exchange (LimitExceeded) when the stack is full. Inline:
/// every split item, filter and choice pushes one.
inline bool pushBlock(Exchange& exchange, const Block& block) noexcept {
  ExecState& st = detail::exec(exchange);
  if (st.depth == kMaxFrames) [[unlikely]] return failTooDeep(exchange, block);
  st.frames[st.depth++] = Frame{&block, 0, false, false};
  return true;
}

/// Pushes a route's top block and counts the route as started.
bool enterRoute(Exchange& exchange, const Route& route) noexcept;

/// How a `to`/`toD` step calls a producer: as a tail call, so a direct route it reaches
/// continues in the running loop instead of nesting one. A throwing producer fails the
/// exchange.
inline Status callProducer(Exchange& exchange, Producer& producer) noexcept {
  ExecState& st = detail::exec(exchange);
  st.tailCall = true;
  Status s;
  try {
    s = producer.process(exchange);
  } catch (...) {
    exchange.setException(std::current_exception());
    s = Status::Fail;
  }
  // Suspended, the exchange may already run on another thread: it is not touched here again
  // (its resume clears the flag).
  if (s != Status::Suspend) [[likely]] st.tailCall = false;
  return s;
}

/// Runs one step. What user code (a process() step) throws fails the exchange; catching it
/// here costs nothing on the path that does not throw.
inline Status runStep(Exchange& exchange, Step& step) noexcept {
  try {
    return step.run(exchange);
  } catch (...) {
    exchange.setException(std::current_exception());
    return Status::Fail;
  }
}

/// Whether run() counts each step it runs (statistics at the Default level), and in which
/// stripe: read once by a step that runs many sub-exchanges on this thread.
struct StepCounting {
  bool on = false;
  uint32_t stripe = 0;
};
StepCounting stepCounting(const Exchange& exchange) noexcept;

/// What run() does after `step` returned `s`, when that was not "continue with the next
/// step of the same frame": fail, suspend, stop, or a block or route entered. Then it goes
/// on as run() does.
Status continueAfterStep(Exchange& exchange, const Step* step, Status s) noexcept;

/// Runs the exchange's completion hooks (it has left its last route or unit), newest first.
void runCompletionHooks(Exchange& exchange) noexcept;

/// run() for a sub-exchange whose one frame is the block its fan-out step just pushed (a
/// split item, a multicast branch). Inline in that step's loop over its items: while each
/// step continues in place, the steps run here, with no call into the executor. Whatever
/// else happens (a step fails, suspends, enters a block, stops the exchange, or needs work
/// before it runs: a checkpoint, history) is handed to run() exactly where this stopped.
/// `inPlace` is set when every step ran in place and the frame is popped: the sub-exchange's
/// execution state is then as beginUnit left it (Exchange::resetAfterRunInPlace).
inline Status runUnit(Exchange& exchange, StepCounting counting, bool& inPlace) noexcept {
  ExecState& st = detail::exec(exchange);
  inPlace = false;
  const uint32_t depth = st.depth;
  if (depth != st.base + 1 || st.timed) [[unlikely]] return run(exchange);
  Frame& f = st.frames[depth - 1];
  if (f.routeEntry) [[unlikely]] return run(exchange);
  const Block* const block = f.block;
  Step* const* const steps = block->steps.data();
  const size_t count = block->steps.size();
  while (f.index < count) {
    Step* step = steps[f.index];
    if (step->flags) [[unlikely]] return run(exchange);
    ++f.index;
    if (counting.on && step->statsCount) {
      addTo(step->statsCount[counting.stripe * step->countStride], 1, counting.stripe);
    }
    const Status s = runStep(exchange, *step);
    if (s != Status::Continue || st.stop || st.depth != depth || f.block != block) [[unlikely]] {
      return continueAfterStep(exchange, step, s);
    }
  }
  // The block is done: its frame (a unit's, not a route's) pops.
  st.depth = depth - 1;
  if (exchange.completionHookCount() > 0) [[unlikely]] {
    if (f.unitEntry && st.depth == 0) runCompletionHooks(exchange);
    return Status::Continue;
  }
  inPlace = !exchange.failed();
  return Status::Continue;
}

/// Calls `send(exchange)` and, if it suspends, waits on this thread until the exchange
/// completes. For callers outside any route (templates, nested synchronous calls).
Status runAndWait(Exchange& exchange, Processor& processor) noexcept;

}  // namespace dromedary::detail
