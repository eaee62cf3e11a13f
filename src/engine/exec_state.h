// SPDX-License-Identifier: Apache-2.0
#pragma once

// The engine's per-exchange state: where the exchange is in its routes (a fixed stack of
// frames), how it stops, its statistics timing, and the error handling and fan-out state made
// on first need. Core's Exchange holds it as an opaque detail::EngineBlock; the engine makes
// it the first time it runs an exchange (exec()) and a pooled exchange keeps it, so the
// per-message path allocates nothing. Plain fields, no map: a step reads them directly.

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include <dromedary/core/exchange.h>

namespace dromedary::detail {

struct Block;
struct Route;

/// One level of the exchange's position: a block of nodes and the next index in it.
struct Frame {
  const Block* block;
  uint32_t index;
  bool routeEntry;  ///< this frame is a route's top block (route exit runs when it pops)
  bool rethrow = false;  ///< a doFinally block run for a failure it passes on when done
  /// The base of a sub-exchange's own unit of work (a split item, a multicast branch): the
  /// route of its block handles failures inside it, as a route frame does.
  bool unitEntry = false;
  uint32_t counter = 0;  ///< loop(): iterations done, and how many to do
  uint32_t limit = 0;
};
inline constexpr uint32_t kMaxFrames = 32;
/// Why the exchange stops running steps, successfully (bits of ExecRun::stop).
inline constexpr uint8_t kStopRoute = 1;    ///< a stop() step ran
inline constexpr uint8_t kStopHandled = 2;  ///< an error handler handled a failure

/// Error handling state (engine/failure_state.h), made on an exchange's first failure or
/// checkpoint and kept with the pooled exchange.
struct FailureState;
struct FailureStateDeleter {
  void operator()(FailureState* state) const noexcept;
};
/// The state of a split, multicast or recipient list at work on this exchange (at most one
/// at a time), made on first use and kept with the pooled exchange; defined by src/eip.
struct FanOutState;
struct FanOutStateDeleter {
  void operator()(FanOutState* state) const noexcept;
};

/// The part of the execution state that starts at zero on every use of an exchange: kept
/// together so that resetting it is a few wide stores (ExecState::reset).
struct ExecRun {
  uint32_t depth = 0;
  uint32_t base = 0;         ///< depth at which the running loop returns
  bool tailCall = false;     ///< a `to` step is calling a producer: routes may push a frame
  uint8_t stop = 0;          ///< kStopRoute | kStopHandled: the exchange ends, successfully
  bool failureHandled = false;  ///< an error handler gave up on the failure: pass it on
  /// It waits for a redelivery's delay (set before it is handed to the scheduler): the
  /// resume is not a step's (Exchange::resume counts a step's resumptions).
  bool redeliveryWait = false;
  // Statistics: a timed exchange (1: its routes, 2: its routes and steps) reads the clock at
  // node boundaries; the others only count.
  uint8_t timed = 0;
  const std::string* toEndpoint = nullptr;  ///< the URI of the last to(): CamelToEndpoint
  const Route* fromRoute = nullptr;
  void (*onDone)(Exchange&, void*) = nullptr;  ///< called when an async run completes
  void* onDoneArg = nullptr;
  /// The onDone its caller said cannot block (processAsync): while onDone is this one, an
  /// I/O thread may resume the exchange (resumeMayBlock).
  void (*nonBlockingDone)(Exchange&, void*) = nullptr;
  const void* timedStep = nullptr;  ///< the step whose time runs (a Step)
};

struct ExecState final : EngineBlock, ExecRun {
  std::array<Frame, kMaxFrames> frames;
  std::unique_ptr<FailureState, FailureStateDeleter> failure;
  std::unique_ptr<FanOutState, FanOutStateDeleter> fanOut;
  int64_t timedStart = 0;
  std::array<int64_t, kMaxFrames> routeStart;  ///< per frame depth, for timed exchanges

  void reset() noexcept;
  void resume(Exchange& exchange) noexcept override;
  void takeCheckpoint(Exchange& exchange) noexcept override;
  std::string_view fromRouteId() const noexcept override;
  std::string_view routeId() const noexcept override;
  bool isRouteStop() const noexcept override { return (stop & kStopRoute) != 0; }
  const ExchangeError* caughtError() const noexcept override;
};

/// The exchange's engine state (every exchange has one: detail::newEngineBlock).
inline ExecState& exec(Exchange& exchange) noexcept {
  return static_cast<ExecState&>(exchange.engineBlock());
}
inline const ExecState& exec(const Exchange& exchange) noexcept {
  return static_cast<const ExecState&>(exchange.engineBlock());
}

}  // namespace dromedary::detail
