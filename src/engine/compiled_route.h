// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compiled form of a route: flat arrays of steps (Blocks), owned by the Route, and the
// Processor that consumers call to feed it.

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <mutex>
#include <string>
#include <vector>

#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

#include "engine/route_model.h"
#include "engine/statistics.h"
#include "engine/step.h"
#include "engine/striped_counter.h"

namespace dromedary {
namespace detail {

struct Route;

struct TryData;

/// What a block is to error handling.
enum class BlockKind : uint8_t {
  Plain,
  TryBody,       // a doTry's steps: failures go to its doCatch clauses (`tryData`)
  Catch,         // a doCatch's steps
  Finally,       // a doFinally's steps
  FailureBlock,  // an onException clause's steps or the dead letter endpoint
};

/// A flat array of steps; child blocks (a filter's body, a choice's branches) are separate.
struct Block {
  std::vector<Step*> steps;
  const Route* route = nullptr;  // the route it belongs to (a route frame's block: that route)
  BlockKind kind = BlockKind::Plain;
  const TryData* tryData = nullptr;  // TryBody and Catch blocks: their doTry
  const Step* parent = nullptr;      // the step that owns it (null: a route's top, a clause)
};

/// The entry point consumers call: runs the route, or (when a `to` step of a running
/// exchange called it) pushes the route onto the exchange's frame stack.
class RouteProcessor final : public Processor {
 public:
  explicit RouteProcessor(Route& route) noexcept : route_(route) {}
  Status process(Exchange& exchange) noexcept override;
  bool mayBlock() const noexcept override;

 private:
  Status processNested(Exchange& exchange) noexcept;
  Route& route_;
};

struct CompiledErrorHandler;
struct CompiledOnCompletion;
class FlightRecorder;

struct Route {
  explicit Route(Context& context_ref);
  ~Route();

  Context& context;
  std::string id;
  std::string fromUri;
  bool autoStartup = true;
  ShutdownRoute shutdownRoute = ShutdownRoute::Default;
  ShutdownRunningTask shutdownRunningTask = ShutdownRunningTask::CompleteAllTasks;
  bool kamelet = false;  // made from a Kamelet (RouteModel::kamelet)
  // Beside the bytes above rather than each in a word of its own (a context may hold many
  // thousand routes).
  RouteStatus status = RouteStatus::Stopped;
  bool compiled = false;
  /// Some step, error handler or onCompletion of it may wait (Processor::mayBlock); set when
  /// it compiles.
  bool mayBlock = true;
  /// What it was built from: held until it compiles, then let go (what the running route and
  /// management still read of it is kept below and in each step's `origin`).
  std::unique_ptr<RouteModel> model;
  SourcePlace where;     // the route's `from` in its file

  std::vector<std::unique_ptr<Step>> steps;    // every step of every block
  std::vector<std::unique_ptr<Block>> blocks;  // every block; `top` is the route's own
  std::string labels;  // its steps' labels, end to end (StepOrigin::label views them)
  /// `step`'s label for its `branch`th block (a choice's `when[...]`); empty when it has none.
  std::string_view branchLabel(const Step& step, size_t branch) const noexcept {
    if (!rare) return {};
    for (const auto& [s, labels] : rare->branchLabels) {
      if (s == &step) return branch < labels.size() ? labels[branch] : std::string_view();
    }
    return {};
  }
  const Block* top = nullptr;
  Endpoint* from = nullptr;
  std::unique_ptr<Consumer> consumer;
  RouteProcessor entry;
  /// Null: noErrorHandler. Shared by the routes whose handler has nothing of their own.
  std::shared_ptr<const CompiledErrorHandler> errorHandler;
  bool captureOriginal = false;  // some route of the context uses useOriginalMessage
  std::optional<bool> trace;     // the route's own `trace` (Camel's): on or off whatever else
  bool traced = false;           // the tracer hooks its entry and exit (set when it compiles)
  /// Work on entering it beyond pushing its frame (kEntryOnCompletions, kEntryTrace): one byte
  /// that the entry tests, so that a route with neither pays one branch.
  uint8_t entryHooks = 0;
  static constexpr uint8_t kEntryOnCompletions = 1;
  static constexpr uint8_t kEntryTrace = 2;
  mutable RouteCounters counters;
  std::unique_ptr<RouteStatistics> statistics;  // per processor; made when it compiles
  std::unique_ptr<FlightRecorder> recorder;     // its recent exchanges; made when it compiles
  struct Baseline {  // the route counters at the last resetStatistics
    uint64_t started = 0, completed = 0, failed = 0, handled = 0, redeliveries = 0;
    uint64_t externalRedeliveries = 0;
  };
  /// What few routes have, kept apart: a context may hold many thousand routes, and these
  /// would be a fifth of each. (A route's description stays in its model: nothing that runs or
  /// reports reads it.)
  struct Rare {
    Rare();
    ~Rare();  // where CompiledOnCompletion is complete (context.cc)
    /// The labels of a step's blocks, as a diagram shows them, for the few steps that label
    /// them (a choice's `when[...]`).
    std::vector<std::pair<const Step*, std::vector<std::string>>> branchLabels;
    Baseline baseline;
    std::vector<std::unique_ptr<CompiledOnCompletion>> onCompletions;  // the route's own
  };
  std::unique_ptr<Rare> rare;
  Rare& rareParts() {
    if (!rare) rare = std::make_unique<Rare>();
    return *rare;
  }
  const Baseline& baseline() const noexcept {
    static const Baseline none;
    return rare ? rare->baseline : none;
  }
  /// Its onCompletions (entering it runs them when kEntryOnCompletions is set).
  std::span<const std::unique_ptr<CompiledOnCompletion>> onCompletions() const noexcept {
    if (!rare) return {};
    return rare->onCompletions;
  }
  std::chrono::steady_clock::time_point startedAt;

  // The consumer and whether it is started, as the health check reads them from its own
  // thread: set through these, under consumerMutex() (one lock for every route: it is taken
  // when a route starts or stops and when its health is read, and a lock of its own would be
  // a tenth of a route's size).
  /// The route is started: with `started` its new consumer, or (null) its resumed one.
  void consumerStarted(std::unique_ptr<Consumer> started) {
    std::lock_guard lock(consumerMutex());
    if (started) consumer = std::move(started);
    status = RouteStatus::Started;
  }
  /// Stopped or suspended, its consumer kept for now.
  void setStatus(RouteStatus now) noexcept {
    std::lock_guard lock(consumerMutex());
    status = now;
  }
  /// The route is stopped: its consumer is destroyed.
  void consumerGone() noexcept {
    std::unique_ptr<Consumer> gone;
    {
      std::lock_guard lock(consumerMutex());
      gone = std::move(consumer);
      status = RouteStatus::Stopped;
    }
  }
  /// Why the started route's consumer cannot take messages (Consumer::healthProblem); empty
  /// when it can or the route is not started.
  std::string consumerHealthProblem() const {
    std::lock_guard lock(consumerMutex());
    if (status != RouteStatus::Started || !consumer) return {};
    return consumer->healthProblem();
  }
  /// The started route's consumer's details (Consumer::details); empty otherwise.
  std::vector<std::pair<std::string, std::string>> consumerDetails() const {
    std::lock_guard lock(consumerMutex());
    if (status != RouteStatus::Started || !consumer) return {};
    return consumer->details();
  }
  static std::mutex& consumerMutex() noexcept {
    static std::mutex mutex;
    return mutex;
  }
};

/// Names `step` `id` (Step::id): the text is kept in the route's `labels`. An id of more than
/// 65,535 characters is refused.
Result<void> nameStep(Route& route, Step& step, std::string_view id);

}  // namespace detail
}  // namespace dromedary
