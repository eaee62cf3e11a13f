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
#include <dromedary/core/result.h>

namespace dromedary {

namespace detail {
class RouteStatistics;
struct TimingCell;

/// Where a route or step was written: its file, line and column (line 0: not from a file).
using SourcePlace = dromedary::SourcePlace;

/// What a step keeps of the model it was compiled from once the route has let its model go
/// (compileRoute): how it reads in statistics, message history and traces, and where it was
/// written. Models are several times the size of what runs; a context with many routes keeps
/// only this of them (32 bytes a step).
struct StepOrigin {
  /// Its route's `labels`, one string for all its steps' labels and ids rather than one
  /// each; null for a step its route neither described nor named (most steps the engine puts
  /// in itself: a doTry's doFinally entry, which name themselves by engineId()).
  const std::string* labels = nullptr;
  SourcePlace where;
  uint32_t labelAt = 0;            // where its label starts in `labels`
  uint32_t labelSize : 30 = 0;     // labels are far shorter than 1 GB
  uint32_t fromModel : 1 = 0;      // compiled from a model (its label is in `labels`)
  uint32_t failureAtomic : 1 = 0;  // StepModel::failureAtomic()

  /// Compiled from a model.
  bool known() const noexcept { return fromModel != 0; }
  /// The model's describe(), e.g. `to[direct:a]`; empty when not `known`.
  std::string_view label() const noexcept {
    return labels ? std::string_view(labels->data() + labelAt, labelSize) : std::string_view();
  }
};
}  // namespace detail

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
  /// The id of a step the engine puts in itself ("doFinallyEnd"), when its route did not name
  /// it: a literal of its class rather than text kept per step.
  virtual std::string_view engineId() const noexcept { return {}; }

  // What the executor reads on every run first, then what management reads (a step's size
  // counts: a context may hold many thousand routes).
  uint8_t flags = 0;
  // Armed: a redelivery may re-run it and it may change the message before failing, so the
  // message is saved on its first change; None: nothing to restore (it changes nothing
  // before it can fail).
  detail::Checkpoint checkpoint = detail::Checkpoint::None;
  uint16_t idSize = 0;             // its id's length, at `idAt` in origin.labels
  uint32_t statsIndex = 0;         // its cells in `stats`
  uint32_t countStride = 0;        // counters between two stripes
  uint32_t idAt = 0;
  detail::RouteStatistics* stats = nullptr;  // its route's statistics
  uint64_t* statsCount = nullptr;  // its run counter in stripe 0 (striped_counter.h)
  /// What it was compiled from (its label, where it was written); not `known` for a step the
  /// engine put in itself. Runs never read it.
  detail::StepOrigin origin;
  /// The node id: user-given, or <kind><n>; until its route names it (detail::nameStep), its
  /// engineId(). Kept in its route's labels, not a string of its own (a context may hold
  /// many thousand routes); stable for the route's life (a failure's nodeId views it).
  std::string_view id() const noexcept {
    return idSize != 0 ? std::string_view(origin.labels->data() + idAt, idSize) : engineId();
  }
  /// How it reads: its model's describe(), or its id when it has none.
  std::string_view label() const noexcept { return origin.known() ? origin.label() : id(); }
};

}  // namespace dromedary
