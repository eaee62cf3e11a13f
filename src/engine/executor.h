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

#include "engine/route.h"

namespace dromedary::detail {

/// Runs until the frame stack is back at its base, a step suspends, or one fails.
Status run(Exchange& exchange) noexcept;

/// Pops frames down to `depth` (route frames count their route as finished).
void unwindTo(Exchange& exchange, uint32_t depth, bool failed) noexcept;

/// The route of the innermost route frame, or null.
const Route* currentRoute(const ExecState& state) noexcept;

/// Fails the exchange with LimitExceeded (the frame stack is full), naming the route of
/// `block`; returns false.
[[gnu::cold]] bool failTooDeep(Exchange& exchange, const Block& block) noexcept;

/// Pushes a child block; fails the exchange (LimitExceeded) when the stack is full. Inline:
/// every split item, filter and choice pushes one.
inline bool pushBlock(Exchange& exchange, const Block& block) noexcept {
  ExecState& st = exchange.execForEngine();
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
  ExecState& st = exchange.execForEngine();
  st.tailCall = true;
  Status s;
  try {
    s = producer.process(exchange);
  } catch (...) {
    exchange.setException(std::current_exception());
    s = Status::Fail;
  }
  st.tailCall = false;
  return s;
}

/// Calls `send(exchange)` and, if it suspends, waits on this thread until the exchange
/// completes. For callers outside any route (templates, nested synchronous calls).
Status runAndWait(Exchange& exchange, Processor& processor) noexcept;

}  // namespace dromedary::detail
