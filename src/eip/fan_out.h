// SPDX-License-Identifier: Apache-2.0
#pragma once

// The engine of split, multicast, recipientList and loop(copy): a step that runs a series
// of sub-exchanges (each a copy of the input with its own message, a unit of work of its
// own) and folds them together with an AggregationStrategy.
//
// Sequential runs keep two sub-exchanges at most (the one running and the result so far),
// reused from item to item: no lock, no allocation per item once the pooled buffers have
// grown. A sub-exchange that suspends (a delay, a seda request) suspends the input exchange
// too, holding no thread; the sub-exchange's completion continues with the next item on
// whatever thread completed it, and the last one resumes the input exchange.
// Parallel runs (parallelProcessing) give every item its own sub-exchange on the context's
// workers and aggregate in item order once all are done (or the timeout fires).

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/aggregation_strategy.h>

#include "engine/failure_path.h"
#include "engine/executor.h"
#include "engine/compiled_route.h"
#include "engine/route_model.h"
#include "engine/step.h"

namespace dromedary::detail {

/// Items a fan-out step reads as it goes (split of a file body), kept in FanOutState.
struct FanOutSource {
  virtual ~FanOutSource() = default;
};

/// What a fan-out step keeps on the exchange while it works (kept with the pooled exchange,
/// so its buffers are reused).
struct FanOutState {
  void* step = nullptr;        // the FanOutStep (or circuit breaker) at work
  ExchangePtr work;            // the sub-exchange being run (sequential)
  ExchangePtr result;          // the aggregate so far
  ExchangePtr spare;           // a sub-exchange kept for the next item
  ExchangeError pending;       // useOriginal / stopOnException: the failure to pass on
  bool hasPending = false;
  Value items;                 // split: the evaluated value when it is not the input's own
  const Value* source = nullptr;  // split: what is split (into the input exchange or `items`)
  size_t index = 0;               // sub-exchanges begun
  size_t cursor = 0;              // split: position in a list or a text
  size_t size = 0;                // items in total, when known
  bool sized = false;
  bool stopped = false;   // stopOnException saw a failure
  bool ownPropertiesAbsent = false;  // the input has none of the step's own properties: they
                                     // are appended to each sub-exchange without a lookup
  bool producing = true;  // parallel: items are still being begun
  std::vector<Producer*> producers;  // recipientList: the resolved recipients
  std::vector<std::string> uris;     // recipientList: their URIs (capacity kept)
  std::string token;                 // split: scratch for a group of tokens
  std::unique_ptr<FanOutSource> stream;  // split: the file being cut, while it is
  Producer* sendTarget = nullptr;    // on a sub-exchange: the recipient it sends to
  const std::string* sendUri = nullptr;
  size_t parallelIndex = 0;          // on a sub-exchange of a parallel run: its item number
  // The sub-exchange last made a copy of the input, and the versions of both exchanges'
  // headers and properties once the step had set its own: while none has moved, the next item
  // in that sub-exchange needs no copy (copyCurrent), only the step's properties updated.
  const Exchange* copiedTo = nullptr;
  const Exchange* copiedFrom = nullptr;
  uint32_t copiedVersions[4] = {};
  bool copyCurrent = false;
  bool ranInPlace = false;  // the last item ran every step in place in `copiedTo` (runUnit)
  Value* ownSlots[3] = {};  // split: its three properties in `copiedTo` (null: look them up)
  std::chrono::steady_clock::time_point started;  // circuitBreaker: when its call began

  ~FanOutState();
};

FanOutState& fanOutState(Exchange& exchange);

}  // namespace dromedary::detail

namespace dromedary::eip {

/// How a fan-out step aggregates and runs, as Camel's options name it.
struct FanOutOptions {
  std::shared_ptr<AggregationStrategy> strategy;  // null: the step's default
  bool useOriginal = false;        // keep the input's message (split's default)
  bool propagateException = true;  // with useOriginal: a failed item fails the input
  bool parallelProcessing = false;
  bool stopOnException = false;
  int64_t timeoutMillis = 0;  // parallel only: 0 = none
  bool shareUnitOfWork = false;  // accepted; every sub-exchange is its own unit of work here
  // False (failover): failures inside a sub-exchange skip the route's error handler, and the
  // one passed on to the input exchange is handled there as its own.
  bool subErrorHandling = true;
};

/// One piece of work: a block run as the sub-exchange's unit of work.
struct FanOutWork {
  const detail::Block* block = nullptr;  // null: no more work
};

class FanOutStep : public Step {
 public:
  /// `sets_body`: next() gives each sub-exchange its own body (split), so the input's body
  /// is not copied into it first.
  explicit FanOutStep(FanOutOptions options, bool sets_body = false);
  Status run(Exchange& input) noexcept final;

  /// Called when the sub-exchange `sub` of `input` is done (the sub's completion callback).
  static void subDone(Exchange& sub, void* input) noexcept;

 protected:
  /// Evaluates what to fan out into `state` (Fail with the input's error slot set).
  virtual Status begin(Exchange& input, detail::FanOutState& state) noexcept = 0;
  /// Prepares `sub` (a copy of the input) for the next item and says what it runs; a null
  /// block when there is none (Fail-style: the input's error slot set if it failed).
  virtual FanOutWork next(Exchange& input, detail::FanOutState& state, Exchange& sub) noexcept = 0;
  const FanOutOptions& options() const noexcept { return options_; }

 private:
  friend struct ParallelRun;
  Status proceed(Exchange& input, detail::FanOutState& state) noexcept;
  void prepareSub(Exchange& input, detail::FanOutState& state, Exchange& sub,
                  detail::ExecState& sub_state) noexcept;
  bool aggregateOne(Exchange& input, detail::FanOutState& state, ExchangePtr& sub) noexcept;
  Status finish(Exchange& input, detail::FanOutState& state) noexcept;
  Status runParallel(Exchange& input, detail::FanOutState& state) noexcept;

  FanOutOptions options_;
  bool setsBody_;
};

/// `strategy`, or the one `ref` names (bound in the context, or a Camel class name); null
/// when neither is given. An unknown name fails with the names that are known.
Result<std::shared_ptr<AggregationStrategy>> resolveStrategy(
    RouteCompiler& compiler, const detail::StepModel& step,
    std::shared_ptr<AggregationStrategy> strategy, const std::string& ref);

/// One block per step of `all` (owned by the route): the branches of a multicast or a load
/// balancer, each step a branch.
std::vector<const detail::Block*> stepBranches(RouteCompiler& compiler, const detail::Block& all);

/// Prepares `sub` as a fresh copy of `input` (pattern, headers, properties, and the body
/// unless `with_body` is false).
void copyForSub(Exchange& sub, const Exchange& input, bool with_body = true) noexcept;

/// Pushes `block` as `sub`'s unit of work: failures inside go to the block's route's error
/// handler. `sub` then runs with detail::run.
/// Inline: every split item and multicast branch begins one.
/// `st` is sub's state and `from` the input's first route, for a caller that holds them.
inline bool beginUnit(Exchange& sub, detail::ExecState& st, const detail::Route* from,
                      const detail::Block& block, bool error_handling = true) noexcept {
  st.fromRoute = from;
  if (st.depth == detail::kMaxFrames) [[unlikely]] return detail::failTooDeep(sub, block);
  st.frames[st.depth++] = detail::Frame{&block, 0, false, false, error_handling};
  if (block.route && block.route->captureOriginal) detail::captureOriginal(sub);
  return true;
}
inline bool beginUnit(Exchange& sub, const Exchange& input, const detail::Block& block,
                      bool error_handling = true) noexcept {
  return beginUnit(sub, detail::exec(sub), detail::exec(input).fromRoute, block, error_handling);
}

}  // namespace dromedary::eip
