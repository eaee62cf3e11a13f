// SPDX-License-Identifier: Apache-2.0
#pragma once

// Step: one compiled node of a route. Built-in steps never throw and never allocate in
// steady state; they return a Status and record failures on the exchange. run() is not
// noexcept only so that a step calling user code (process()) can be a plain tail call: the
// executor catches what user code throws, at no cost on the path that does not throw.

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <dromedary/core/exchange.h>

namespace dromedary {

namespace detail {
struct StepModel;
class RouteStatistics;
struct TimingCell;
}

/// Step::flags: work the executor does before the step (error handling, history).
inline constexpr uint8_t kStepCheckpoint = 1;  // set the exchange's checkpoint to `checkpoint`
inline constexpr uint8_t kStepHistory = 2;     // record it in the message history
inline constexpr uint8_t kStepTrace = 4;       // tell the tracer (tracer.h)

class Step {
 public:
  virtual ~Step() = default;
  virtual Status run(Exchange& exchange) = 0;
  /// Whether run() may wait before it returns (see Processor::mayBlock). Its child blocks'
  /// steps answer for themselves; a step only answers for its own work.
  virtual bool mayBlock() const noexcept { return true; }
  /// The route's consumer started (steps with timers of their own start them here).
  virtual void routeStarted() noexcept {}
  /// The route stopped taking new exchanges and its in-flight ones are done (aggregate
  /// completes or drops what it holds here and stops its timers).
  virtual void routeStopping() noexcept {}
  /// What the step shows about its own state in its statistics (a circuit breaker's state and
  /// counts), as names and values; most steps have none.
  virtual void describeState(std::vector<std::pair<std::string, std::string>>& /*out*/) const {}

  std::string id;  // the node id: user-given, or <kind><n>
  uint8_t flags = 0;
  // Armed: a redelivery may re-run it and it may change the message before failing, so the
  // message is saved on its first change; None: nothing to restore (it changes nothing
  // before it can fail).
  detail::Checkpoint checkpoint = detail::Checkpoint::None;
  const detail::StepModel* model = nullptr;  // what it was compiled from (describe, where)
  detail::RouteStatistics* stats = nullptr;  // its route's statistics; its cells at `statsIndex`
  uint32_t statsIndex = 0;
  size_t countStride = 0;          // counters between two stripes
  uint64_t* statsCount = nullptr;  // its run counter in stripe 0 (striped_counter.h)
};

}  // namespace dromedary
