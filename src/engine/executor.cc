// SPDX-License-Identifier: Apache-2.0
#include "engine/executor.h"

#include "engine/context_impl.h"
#include "engine/flight_recorder.h"
#include "engine/failure_path.h"
#include "engine/message_history.h"
#include "engine/one_shot_event.h"
#include "engine/statistics.h"

#include <algorithm>
#include <atomic>
#include <chrono>

namespace dromedary {
namespace detail {

// A hook may add another (it runs too).
void runCompletionHooks(Exchange& ex) noexcept {
  while (ex.completionHookCount() > 0) {
    CompletionHook hook = ex.popCompletionHook();
    hook.fn(ex, hook.arg);
  }
}

namespace {

// The statistics level of the exchange's context (Off without one).
StatisticsLevel levelOf(const Exchange& ex) noexcept {
  Context* c = ex.context();
  return c ? static_cast<StatisticsLevel>(
                 c->implForEngine().statisticsLevel.load(std::memory_order_relaxed))
           : StatisticsLevel::Off;
}

int64_t epochMillis() noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A timed exchange: the running step's time ends at `now`; the step completed (or, `failed`,
// failed) the exchange.
void closeTimedStep(Exchange& ex, int64_t now, uint32_t stripe, bool failed = false) noexcept {
  ExecState& st = detail::exec(ex);
  if (!st.timedStep) return;
  const Step* step = static_cast<const Step*>(st.timedStep);
  st.timedStep = nullptr;
  if (!step->stats) return;
  step->stats->step(stripe, step->statsIndex)
      .time(static_cast<uint64_t>(std::max<int64_t>(0, now - st.timedStart)), 0);
  if (!failed) step->stats->stampStep(stripe, step->statsIndex, false, ex.createdMillis());
}

// `step` suspended its exchange; Exchange::resume counts it resumed (countResumed), so the
// step's in-flight count is the difference. Counted at every level, so that the two always
// pair, and in the statistics' cells only: once a step has returned Suspend, the exchange is
// whoever resumes it's, and may already be running elsewhere.
void countSuspended(const Step& step) noexcept {
  if (step.stats) step.stats->countStep(threadStripe(), step.statsIndex, kStepSuspended);
}

// A route's frame popped: the route's exit. Out of line, so that popping a plain block's
// frame (every split item, every filter) costs a few instructions and no call frame.
[[gnu::noinline]] void exitRoute(Exchange& ex, const Frame& f, bool failed, bool stamped) noexcept {
  ExecState& st = detail::exec(ex);
  const Route& route = *f.block->route;
  route.counters.finished(failed);
  if (!stamped && route.statistics && levelOf(ex) != StatisticsLevel::Off) {
    route.statistics->stamp(threadStripe(), failed, ex.createdMillis());
  }
  if (st.timed) [[unlikely]] {
    int64_t now = statisticsNanos();
    uint32_t stripe = threadStripe();
    closeTimedStep(ex, now, stripe);
    const auto elapsed = static_cast<uint64_t>(std::max<int64_t>(0, now - st.routeStart[st.depth]));
    const int64_t now_ms = epochMillis();
    if (route.statistics) {
      route.statistics->record(stripe, elapsed, now_ms);
      if (failed) addTo(route.statistics->route(stripe).failed, 1, stripe);
    }
    if (route.recorder) route.recorder->record(ex, failed, elapsed, now_ms);
  } else if (failed && route.recorder && levelOf(ex) != StatisticsLevel::Off) {
    route.recorder->record(ex, true, 0, epochMillis());
  }
  if (route.traced) [[unlikely]] {
    route.context.implForEngine().tracer->routeOut(ex, route, failed);
  }
  if (st.depth == 0 && ex.completionHookCount() > 0) runCompletionHooks(ex);
}

// `stamped`: the caller already recorded the route's first/last exchange stamps, or knows
// that none are kept (statistics off).
inline void popFrame(Exchange& ex, bool failed, bool stamped = false) noexcept {
  ExecState& st = detail::exec(ex);
  const Frame& f = st.frames[--st.depth];
  if (f.routeEntry) {
    if (stamped && !st.timed && !f.block->route->traced &&
        (st.depth != 0 || ex.completionHookCount() == 0)) {
      f.block->route->counters.finished(failed);  // all there is to a route's exit here
    } else {
      exitRoute(ex, f, failed, stamped);
    }
  } else if (f.unitEntry && st.depth == 0 && ex.completionHookCount() > 0) [[unlikely]] {
    runCompletionHooks(ex);  // a sub-exchange's unit of work is done
  }
}



// Lets a thread wait for an exchange that suspended to complete elsewhere. A synchronous
// send that did not suspend pays one relaxed store to arm it. No notifier can run before
// that, because the exchange is handed to one only after the send has begun.
struct Waiter {
  OneShotEvent event;

  void reset() noexcept { event.reset(); }
  void wait() noexcept { event.wait(); }
  static void notify(Exchange&, void* self) noexcept { static_cast<Waiter*>(self)->event.signal(); }
};
// This thread's waiter, made on its first synchronous send. Reached through a plain
// thread-local pointer: a thread_local with a constructor costs an init check per use.
constinit thread_local Waiter* t_waiter = nullptr;

[[gnu::noinline]] Waiter& makeThreadWaiter() noexcept {
  thread_local Waiter waiter;
  t_waiter = &waiter;
  return waiter;
}

inline Waiter& threadWaiter() noexcept {
  Waiter* w = t_waiter;
  if (w) [[likely]] return *w;
  return makeThreadWaiter();
}

// The exchange suspended: wait (out of line, so that a send that did not suspend keeps a
// small frame) until it completes elsewhere.
[[gnu::noinline]] Status waitForCompletion(const Exchange& ex, Waiter& waiter) noexcept {
  waiter.wait();
  return ex.failed() ? Status::Fail : Status::Continue;
}

// Runs `fn` with the exchange's completion callback pointing at this thread's waiter, and
// waits when it suspends; the previous callback is restored afterwards.
template <class Fn>
Status callAndWait(Exchange& ex, Fn&& fn) noexcept {
  ExecState& st = detail::exec(ex);
  auto saved_done = st.onDone;
  void* saved_arg = st.onDoneArg;
  Waiter& waiter = threadWaiter();
  waiter.reset();
  st.onDone = &Waiter::notify;
  st.onDoneArg = &waiter;
  Status s = fn();
  if (s == Status::Suspend) [[unlikely]] s = waitForCompletion(ex, waiter);
  st.onDone = saved_done;
  st.onDoneArg = saved_arg;
  return s;
}

// A step failed (or the exchange was resumed failed): record where, then let the frames'
// error handling decide. Continue means the loop goes on (redelivered, caught, handled).
Status stepFailed(Exchange& ex, const Step* step, uint32_t base) noexcept {
  ExecState& st = detail::exec(ex);
  if (step && step->stats && levelOf(ex) == StatisticsLevel::Default) {
    uint32_t stripe = threadStripe();
    addTo(step->stats->step(stripe, step->statsIndex).failed, 1, stripe);
    step->stats->stampStep(stripe, step->statsIndex, true, ex.createdMillis());
    // Its time ends here: what the error handling does next is not the step's work.
    if (st.timedStep == step) closeTimedStep(ex, statisticsNanos(), stripe, true);
  }
  ExchangeError& e = ex.mutableErrorForEngine();
  if (!e.failed()) {
    e.code = ErrorCode::Internal;
    e.reason = "Step failed without recording an error";
  }
  if (e.nodeId.empty() && step) e.nodeId = step->id();
  if (e.routeId.empty()) {
    if (const Route* r = currentRoute(st)) e.routeId = r->id;
  }
  Status s = handleFailure(ex, base);
  if (s == Status::Continue && st.stop) {
    unwindTo(ex, base, false);  // handled: the exchange ends here, successfully
  }
  return s;
}

}  // namespace

void unwindTo(Exchange& ex, uint32_t base, bool failed) noexcept {
  while (detail::exec(ex).depth > base) popFrame(ex, failed);
}

const Route* currentRoute(const ExecState& st) noexcept {
  for (uint32_t i = st.depth; i > 0; --i) {
    const Frame& f = st.frames[i - 1];
    if (f.routeEntry || f.unitEntry) return f.block->route;
  }
  return nullptr;
}

namespace {

// A step marked kStepTrace is about to run.
[[gnu::noinline]] void traceNode(Exchange& ex, const Step& step) noexcept {
  if (const Route* route = currentRoute(detail::exec(ex))) {
    route->context.implForEngine().tracer->node(ex, route, step);
  }
}

// How the loop counts each step's runs (statistics at the Default level).
enum class StepCounts : uint8_t {
  None,     // a level below Default: no per-step counts
  Plain,    // this thread's own stripe, untimed: a plain increment
  General,  // timed steps, or the shared stripe (atomic adds): the full bookkeeping
};

// The executor's loop, made once per way of counting so that the per-step work is decided
// once per run, not per step: at Default level an untimed exchange on its own stripe (almost
// all of them) pays a load, an add and a store per step and no further branch.
template <StepCounts kCounts>
Status runFramesCounting(Exchange& ex, bool stamp_routes, uint32_t stripe) noexcept {
  ExecState& st = detail::exec(ex);
  const uint32_t base = st.base;
  Status result = Status::Continue;
  while (st.depth > base) {
    const uint32_t depth = st.depth;
    Frame& f = st.frames[depth - 1];
    const Block* const block = f.block;
    Step* const* const steps = block->steps.data();
    const size_t count = block->steps.size();
    // The top frame's steps one after the other, while none enters, leaves or replaces a
    // block: the frame and its block stay in registers from node to node.
    while (f.index < count) {
      Step* step = steps[f.index++];
      if (step->flags) [[unlikely]] {
        // Under a redelivering error handler: save the message on its first change.
        if (step->flags & kStepCheckpoint) ex.setCheckpoint(step->checkpoint);
        if (step->flags & kStepHistory) recordHistory(ex, *step);
        if (step->flags & kStepTrace) traceNode(ex, *step);
      }
      if constexpr (kCounts == StepCounts::Plain) {
        if (uint64_t* const cells = step->statsCount) {
          std::atomic_ref<uint64_t> c(cells[stripe * step->countStride]);
          c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        }
      } else if constexpr (kCounts == StepCounts::General) {
        if (step->statsCount) {
          addTo(step->statsCount[stripe * step->countStride], 1, stripe);
          if (ex.isExternalRedelivered()) {
            step->stats->countStep(stripe, step->statsIndex, kStepExternallyRedelivered);
          }
          if (st.timed == 2) {
            // One clock read per node boundary: this step's start is the previous one's end.
            int64_t now = statisticsNanos();
            closeTimedStep(ex, now, stripe);
            st.timedStep = step;
            st.timedStart = now;
          }
        }
      }
      Status s = runStep(ex, *step);
      if (s == Status::Continue) [[likely]] {
        if (st.stop) [[unlikely]] {
          unwindTo(ex, base, false);
          goto done;
        }
        // It entered a block or a route, or went on in another block (doFinally's entry).
        if (st.depth != depth || f.block != block) [[unlikely]] goto next_frame;
        continue;
      }
      // Suspended: the wait counts as the step's time (its end is read when it resumes).
      if (s == Status::Suspend) {
        countSuspended(*step);
        return Status::Suspend;
      }
      s = stepFailed(ex, step, base);
      if (s != Status::Continue) {
        result = s;
        goto done;
      }
      goto next_frame;  // handled or redelivered: the frames may have moved
    }
    if (f.routeEntry && stamp_routes && f.block->route->statistics) {
      f.block->route->statistics->stamp(stripe, false, ex.createdMillis());
      popFrame(ex, false, true);
    } else {
      popFrame(ex, false, !stamp_routes);  // statistics off: no stamps to record
    }
  next_frame:;
  }
done:
  // A step timed before the exchange suspended (or before the level changed) ends here.
  if (st.timedStep) [[unlikely]] {
    if (result != Status::Suspend) closeTimedStep(ex, statisticsNanos(), threadStripe());
  }
  return result;
}

}  // namespace

Status runFrames(Exchange& ex) noexcept {
  const StatisticsLevel level = levelOf(ex);
  if (level != StatisticsLevel::Default) {
    const bool stamp_routes = level != StatisticsLevel::Off;
    return runFramesCounting<StepCounts::None>(ex, stamp_routes,
                                               stamp_routes ? threadStripe() : 0);
  }
  const uint32_t stripe = threadStripe();
  // Whether the exchange is timed was decided when it entered its first route. (A split
  // item, which decides on entering a route from inside its run, has its steps timed from its
  // next run on: a sample's detail, the counts are exact either way.)
  const ExecState& st = detail::exec(ex);
  if (st.timed == 2 || ex.isExternalRedelivered() || stripe == kSharedStripe) [[unlikely]] {
    return runFramesCounting<StepCounts::General>(ex, true, stripe);
  }
  return runFramesCounting<StepCounts::Plain>(ex, true, stripe);
}

void countResumed(Exchange& ex) noexcept {
  ExecState& st = detail::exec(ex);
  if (st.redeliveryWait) {
    st.redeliveryWait = false;  // waited for a redelivery's delay, in no step
    return;
  }
  if (st.depth <= st.base) return;
  const Frame& f = st.frames[st.depth - 1];
  if (f.index == 0) return;
  const Step* step = f.block->steps[f.index - 1];  // the step that suspended it
  if (step->stats) step->stats->countStep(threadStripe(), step->statsIndex, kStepResumed);
}

Status runFailed(Exchange& ex) noexcept {
  // Resumed failed (a reply timed out...): the step that suspended it failed.
  const ExecState& st = detail::exec(ex);
  const Step* step = nullptr;
  if (st.depth > st.base) {
    const Frame& f = st.frames[st.depth - 1];
    if (f.index > 0) step = f.block->steps[f.index - 1];
  }
  return continueAfterStep(ex, step, Status::Fail);
}

StepCounting stepCounting(const Exchange& ex) noexcept {
  if (levelOf(ex) != StatisticsLevel::Default) return {};
  return {true, threadStripe()};
}

Status continueAfterStep(Exchange& ex, const Step* step, Status s) noexcept {
  ExecState& st = detail::exec(ex);
  if (s == Status::Continue) {
    if (!st.stop) return runFrames(ex);  // it entered a block or a route
    unwindTo(ex, st.base, false);
    return Status::Continue;
  }
  if (s == Status::Suspend) {
    if (step) countSuspended(*step);
    return s;
  }
  s = stepFailed(ex, step, st.base);
  if (s != Status::Continue || st.depth <= st.base) return s;
  return runFrames(ex);
}

const Step* lastStep(const ExecState& st) noexcept {
  if (st.depth == 0) return nullptr;
  const Frame& f = st.frames[st.depth - 1];
  return f.index > 0 ? f.block->steps[f.index - 1] : nullptr;
}

bool failTooDeep(Exchange& ex, const Block& block) noexcept {
  ex.fail(ErrorCode::LimitExceeded, "Blocks and routes nested deeper than 32 levels",
          block.route ? std::string_view(block.route->id) : std::string_view());
  return false;
}

namespace {
// What entering `route` does beyond pushing its frame: its onCompletions, the tracer.
[[gnu::noinline]] void routeEntryHooks(Exchange& ex, const Route& route) noexcept {
  if (route.entryHooks & Route::kEntryOnCompletions) registerOnCompletions(ex, route);
  if (route.entryHooks & Route::kEntryTrace) {
    route.context.implForEngine().tracer->routeIn(ex, route);
  }
}

// enterRoute, inline in the route's own processor (every exchange enters a route there).
[[gnu::always_inline]] inline bool enterRouteInline(Exchange& ex, ExecState& st,
                                                    const Route& route) noexcept {
  if (st.depth == kMaxFrames) [[unlikely]] {
    ex.fail(ErrorCode::LimitExceeded, "Blocks and routes nested deeper than 32 levels",
            route.id);
    return false;
  }
  if (!st.fromRoute) {
    st.fromRoute = &route;
    if (route.captureOriginal) [[unlikely]] captureOriginal(ex);
    // The exchange's first route decides whether it is one of the timed sample.
    const ContextImpl& impl = route.context.implForEngine();
    auto level = static_cast<StatisticsLevel>(impl.statisticsLevel.load(std::memory_order_relaxed));
    if (level != StatisticsLevel::Off &&
        timeThisExchange(impl.timingSample.load(std::memory_order_relaxed), ex.createdMillis())) {
      st.timed = level == StatisticsLevel::Default ? 2 : 1;
    }
  }
  if (st.timed) [[unlikely]] st.routeStart[st.depth] = statisticsNanos();
  st.frames[st.depth++] = Frame{route.top, 0, true, false};
  route.counters.started();
  if (route.entryHooks) [[unlikely]] routeEntryHooks(ex, route);
  return true;
}
}  // namespace

bool enterRoute(Exchange& ex, const Route& route) noexcept {
  return enterRouteInline(ex, detail::exec(ex), route);
}

Status runAndWait(Exchange& ex, Processor& processor) noexcept {
  return callAndWait(ex, [&]() noexcept {
    try {
      return processor.process(ex);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
  });
}

Status RouteProcessor::process(Exchange& ex) noexcept {
  ExecState& st = detail::exec(ex);
  if (st.tailCall) {
    // Called by a `to` step of the running loop: continue in the same loop.
    st.tailCall = false;
    return enterRouteInline(ex, st, route_) ? Status::Continue : Status::Fail;
  }
  if (st.depth == 0) {
    // A consumer feeding its route: a broker's redelivery is counted once, here.
    if (ex.isExternalRedelivered()) [[unlikely]] route_.counters.externallyRedelivered();
    if (!enterRouteInline(ex, st, route_)) return Status::Fail;
    return run(ex);
  }
  return processNested(ex);
}

// Out of line, so that the paths above keep no frame of their own (they end in tail calls).
[[gnu::noinline]] Status RouteProcessor::processNested(Exchange& ex) noexcept {
  // A synchronous call from user code while the exchange is inside a route: run this
  // route to completion (waiting if it suspends) before returning to the caller.
  ExecState& st = detail::exec(ex);
  uint32_t saved_base = st.base;
  st.base = st.depth;
  Status s = callAndWait(ex, [&]() noexcept {
    if (!enterRoute(ex, route_)) return Status::Fail;
    return run(ex);
  });
  st.base = saved_base;
  return s;
}

bool RouteProcessor::mayBlock() const noexcept { return route_.mayBlock; }

}  // namespace detail

bool resumeMayBlock(const Exchange& exchange) noexcept {
  const detail::ExecState& st = detail::exec(exchange);
  if (exchange.completionHookCount() > 0) return true;
  // A thread waiting in a ProducerTemplate, or a callback its caller said returns promptly.
  const bool prompt_done = st.onDone == &detail::Waiter::notify ||
                           (st.onDone != nullptr && st.onDone == st.nonBlockingDone);
  if (!prompt_done) return true;
  const bool failed = exchange.failed();  // its error handling runs first
  for (uint32_t i = st.base; i < st.depth; ++i) {
    const detail::Frame& f = st.frames[i];
    if (f.unitEntry) return true;  // a sub-exchange: its end continues its parent's work
    const bool steps_left = failed || f.index != f.block->steps.size();
    if (steps_left && f.block->route->mayBlock) return true;
  }
  return false;
}

bool callerWaits(const Exchange& exchange) noexcept {
  const detail::ExecState& st = detail::exec(exchange);
  // The waiter is this thread's own: the exchange was not handed to another thread since.
  if (st.onDone != &detail::Waiter::notify || st.onDoneArg == nullptr ||
      st.onDoneArg != detail::t_waiter) {
    return false;
  }
  for (uint32_t i = st.base; i < st.depth; ++i) {
    if (st.frames[i].unitEntry) return false;  // its end continues its parent's work
  }
  return true;
}

Status processAndWait(Exchange& exchange, Processor& processor) noexcept {
  return detail::runAndWait(exchange, processor);
}

void processAsync(Exchange& exchange, Processor& processor,
                  void (*done)(Exchange& exchange, void* arg), void* arg,
                  bool done_may_block) noexcept {
  detail::ExecState& st = detail::exec(exchange);
  st.onDone = done;
  st.onDoneArg = arg;
  st.nonBlockingDone = done_may_block ? nullptr : done;
  Status s;
  try {
    s = processor.process(exchange);
  } catch (...) {
    exchange.setException(std::current_exception());
    s = Status::Fail;
  }
  // Suspended: the exchange belongs to whoever resumes it, and its last resume calls done.
  if (s != Status::Suspend) done(exchange, arg);
}

}  // namespace dromedary
