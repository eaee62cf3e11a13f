// SPDX-License-Identifier: Apache-2.0
#include "eip/fan_out.h"

#include <atomic>
#include <mutex>
#include <utility>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "eip/aggregation.h"
#include "eip/models.h"

#include "engine/failure_path.h"
#include "engine/executor.h"

namespace dromedary::detail {

FanOutState::~FanOutState() {
  // Plain deletes, not the pool: this may run while a thread's pool is being torn down.
  delete work.release();
  delete result.release();
  delete spare.release();
}

void FanOutStateDeleter::operator()(FanOutState* state) const noexcept { delete state; }

FanOutState& fanOutState(Exchange& ex) {
  auto& slot = detail::exec(ex).fanOut;
  if (!slot) slot.reset(new FanOutState());
  return *slot;
}

}  // namespace dromedary::detail

namespace dromedary::eip {

using detail::FanOutState;

namespace {

// A sub-exchange for the next item: the spare one kept from earlier items, or the pool's.
ExchangePtr takeExchange(FanOutState& s, Context* context) noexcept {
  if (s.spare) {
    ExchangePtr e = std::move(s.spare);
    e->resetForReuse(context);
    return e;
  }
  return acquireExchange(context);
}

void keepSpare(FanOutState& s, ExchangePtr& e) noexcept {
  if (!e) return;
  if (!s.spare) {
    s.spare = std::move(e);
  } else {
    e.reset();
  }
}

// Moves `from`'s failure onto `to`, which passes it on as already handled: the sub-exchange's
// error handler (the route's) has dealt with it, so the input's does not redeliver it again.
void takeFailure(Exchange& to, Exchange& from) noexcept {
  to.mutableErrorForEngine() = std::move(from.mutableErrorForEngine());
  from.clearError();
  detail::exec(to).failureHandled = true;
}

}  // namespace

std::vector<const detail::Block*> stepBranches(RouteCompiler& compiler, const detail::Block& all) {
  std::vector<const detail::Block*> branches;
  detail::Route& route = compiler.route();
  // A branch is a step of the model with the steps the engine put before it (an intercept's):
  // those have no model of their own.
  detail::Block* open = nullptr;
  for (Step* step : all.steps) {
    if (!open) {
      auto branch = std::make_unique<detail::Block>();
      branch->route = &route;
      open = branch.get();
      branches.push_back(open);
      route.blocks.push_back(std::move(branch));
    }
    open->steps.push_back(step);
    if (step->origin.known()) open = nullptr;
  }
  return branches;
}

void copyForSub(Exchange& sub, const Exchange& input, bool with_body) noexcept {
  try {
    sub.resetAsCopyOf(input, with_body);
  } catch (...) {
    sub.setException(std::current_exception());
  }
}

FanOutStep::FanOutStep(FanOutOptions options, bool sets_body)
    : options_(std::move(options)), setsBody_(sets_body) {
  bool propagate = true;
  if (isUseOriginal(options_.strategy.get(), &propagate)) {
    options_.useOriginal = true;
    options_.propagateException = propagate;
    options_.strategy = nullptr;
  }
  if (!options_.strategy && !options_.useOriginal) {
    options_.strategy = AggregationStrategies::useLatest();
  }
}

Status FanOutStep::run(Exchange& input) noexcept {
  FanOutState* sp;
  try {
    sp = &detail::fanOutState(input);
  } catch (...) {
    input.setException(std::current_exception());
    return Status::Fail;
  }
  FanOutState& s = *sp;
  s.step = this;
  s.index = 0;
  s.cursor = 0;
  s.size = 0;
  s.sized = false;
  s.stopped = false;
  s.producing = true;
  s.hasPending = false;
  s.source = nullptr;
  if (s.stream) s.stream.reset();  // a run that ended early: its file is closed
  s.ranInPlace = false;
  s.copiedTo = nullptr;  // each run starts from a fresh copy (another step may have set
  s.ownSlots[0] = nullptr;  // properties of its own in the sub-exchange)
  keepSpare(s, s.result);
  if (begin(input, s) == Status::Fail) return Status::Fail;
  if (options_.parallelProcessing) return runParallel(input, s);
  return proceed(input, s);
}

[[gnu::always_inline]] inline void FanOutStep::prepareSub(Exchange& input, FanOutState& s,
                                                          Exchange& sub,
                                                          detail::ExecState& st) noexcept {
  s.copyCurrent = s.copiedTo == &sub && s.copiedFrom == &input &&
                  s.copiedVersions[0] == std::as_const(input).message().headers().version() &&
                  s.copiedVersions[1] == input.properties().version() &&
                  s.copiedVersions[2] == std::as_const(sub).message().headers().version() &&
                  s.copiedVersions[3] == sub.properties().version();  // and the variables
  try {
    if (s.copyCurrent && s.ranInPlace) {
      // Nothing outside the message can have moved but what this resets.
      sub.resetAfterRunInPlace(input);
      st.toEndpoint = nullptr;
      if (!setsBody_) sub.messageForEngine().setBody(std::as_const(input).message().body());
    } else {
      sub.resetAsCopyOf(input, !setsBody_, !s.copyCurrent);
    }
  } catch (...) {
    sub.setException(std::current_exception());
  }
  s.ranInPlace = false;
}

Status FanOutStep::proceed(Exchange& input, FanOutState& s) noexcept {
  Context* context = input.context();
  const detail::StepCounting counting = detail::stepCounting(input);
  const detail::Route* const from = detail::exec(input).fromRoute;
  while (!s.stopped) {
    if (!s.work) s.work = takeExchange(s, context);
    Exchange& sub = *s.work;
    detail::ExecState& st = detail::exec(sub);
    prepareSub(input, s, sub, st);
    FanOutWork w = next(input, s, sub);
    if (!w.block) {
      if (input.failed()) {
        keepSpare(s, s.result);
        return Status::Fail;
      }
      break;
    }
    // Only a step that keeps the original runs every item in the same sub-exchange (other
    // strategies keep it as the result): only there can the next item reuse the copy.
    if (options_.useOriginal && !sub.failed()) {
      s.copiedTo = &sub;
      s.copiedFrom = &input;
      s.copiedVersions[0] = std::as_const(input).message().headers().version();
      s.copiedVersions[1] = input.properties().version();
      s.copiedVersions[2] = std::as_const(sub).message().headers().version();
      s.copiedVersions[3] = sub.properties().version();
    }
    if (!sub.failed() && beginUnit(sub, st, from, *w.block, options_.subErrorHandling)) {
      st.onDone = &FanOutStep::subDone;
      st.onDoneArg = &input;
      // Suspended: the sub-exchange's completion continues with the next item (subDone).
      if (detail::runUnit(sub, counting, s.ranInPlace) == Status::Suspend) return Status::Suspend;
    }
    // Kept the original, and the item did not fail: nothing to aggregate.
    if (options_.useOriginal && !sub.failed()) continue;
    if (!aggregateOne(input, s, s.work)) break;
  }
  return finish(input, s);
}

void FanOutStep::subDone(Exchange&, void* arg) noexcept {
  Exchange& input = *static_cast<Exchange*>(arg);
  FanOutState& s = *detail::exec(input).fanOut;
  auto* self = static_cast<FanOutStep*>(s.step);
  Status r = self->aggregateOne(input, s, s.work) ? self->proceed(input, s) : self->finish(input, s);
  if (r == Status::Suspend) return;
  input.resume();  // a failed input resumes failed: its route's error handling takes over
}

bool FanOutStep::aggregateOne(Exchange& input, FanOutState& s, ExchangePtr& sub_ptr) noexcept {
  Exchange& sub = *sub_ptr;
  const bool failed = sub.failed();
  if (failed && options_.stopOnException) {
    // Camel's stopOnException: the failing sub-exchange's failure ends the whole step.
    s.pending = std::move(sub.mutableErrorForEngine());
    sub.clearError();
    s.hasPending = true;
    s.stopped = true;
    return false;
  }
  if (options_.useOriginal) {
    if (failed && options_.propagateException) {
      s.pending = std::move(sub.mutableErrorForEngine());  // the latest failure wins
      sub.clearError();
      s.hasPending = true;
    }
    return true;
  }
  Exchange* old = s.result.get();
  Exchange* got;
  try {
    got = options_.strategy->aggregate(old, sub);
  } catch (...) {
    input.setException(std::current_exception());
    s.stopped = true;
    return false;
  }
  if (got == &sub) {
    s.result.swap(sub_ptr);  // the old result (if any) becomes the next item's exchange
  } else if (got == nullptr) {
    keepSpare(s, s.result);
  } else if (got != old) {
    input.fail(ErrorCode::InvalidRoute,
               "The aggregation strategy returned an exchange other than the two it was given");
    s.stopped = true;
    return false;
  }
  return true;
}

Status FanOutStep::finish(Exchange& input, FanOutState& s) noexcept {
  s.step = nullptr;
  if (input.failed()) {  // the strategy itself failed
    keepSpare(s, s.result);
    return Status::Fail;
  }
  if (s.hasPending) {
    s.hasPending = false;
    keepSpare(s, s.result);
    input.mutableErrorForEngine() = std::move(s.pending);
    detail::exec(input).failureHandled = true;
    return Status::Fail;
  }
  if (!s.result) return Status::Continue;
  Exchange& r = *s.result;
  try {
    options_.strategy->onCompletion(r);
    // Camel's copyResults: the result's message and properties become the input's.
    std::swap(input.message(), r.messageForEngine());
    for (const Headers::Entry& p : r.properties()) input.properties().set(p);
    if (const Headers* vars = r.variablesIfAny()) {
      for (const Headers::Entry& v : *vars) input.variables().set(v);
    }
  } catch (...) {
    input.setException(std::current_exception());
  }
  if (r.failed()) {
    takeFailure(input, r);
    if (!options_.subErrorHandling) detail::exec(input).failureHandled = false;
  }
  keepSpare(s, s.result);
  return input.failed() ? Status::Fail : Status::Continue;
}

// --- parallelProcessing ---------------------------------------------------------------------

// Every item's sub-exchange runs on the context's workers; the run is shared by them and
// freed by the last one to let go of it.
struct ParallelRun {
  FanOutStep* step;
  Exchange* input;
  std::mutex mutex;
  std::vector<ExchangePtr> subs;
  std::vector<uint8_t> done;
  size_t finished = 0;
  bool producing = true;
  bool closed = false;  // aggregated (all done, or timed out): late finishers only let go
  Scheduler::TimerId timer = 0;
  std::atomic<int> refs{1};

  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Aggregates the sub-exchanges marked in `which` (those finished when the run closed) in
  // item order onto the input.
  Status complete(const std::vector<uint8_t>& which) noexcept {
    if (timer != 0 && input->context()->scheduler().cancel(timer)) release();  // its ref
    FanOutState& s = *detail::exec(*input).fanOut;
    for (size_t i = 0; i < subs.size(); ++i) {
      if (!which[i]) continue;
      if (!s.stopped) step->aggregateOne(*input, s, subs[i]);
      subs[i].reset();
    }
    return step->finish(*input, s);
  }

  static void subFinished(Exchange& sub, void* arg) noexcept {
    auto* run = static_cast<ParallelRun*>(arg);
    size_t i = detail::exec(sub).fanOut->parallelIndex;
    bool complete_now = false;
    {
      std::lock_guard lock(run->mutex);
      run->done[i] = 1;
      ++run->finished;
      if (run->closed) {
        run->subs[i].reset();  // too late: the run timed out without it
      } else if (!run->producing && run->finished == run->subs.size()) {
        run->closed = true;
        complete_now = true;
      }
    }
    // All have finished: nobody writes `done` any more.
    if (complete_now && run->complete(run->done) != Status::Suspend) run->input->resume();
    run->release();
  }

  static void runSub(void* arg) noexcept {
    auto* sub = static_cast<Exchange*>(arg);
    void* run = detail::exec(*sub).onDoneArg;
    if (detail::run(*sub) != Status::Suspend) subFinished(*sub, run);
  }

  static void timedOut(void* arg) noexcept {
    auto* run = static_cast<ParallelRun*>(arg);
    // Camel's timeout: what has finished is aggregated; the rest is let go when it ends.
    std::vector<uint8_t> finished;
    bool complete_now = false;
    try {
      std::lock_guard lock(run->mutex);
      if (!run->closed) {
        run->closed = true;
        complete_now = true;
        finished = run->done;
        run->timer = 0;
      }
    } catch (...) {
      complete_now = false;  // out of memory: the run completes when its items do
    }
    if (complete_now && run->complete(finished) != Status::Suspend) run->input->resume();
    run->release();
  }
};

Status FanOutStep::runParallel(Exchange& input, FanOutState& s) noexcept {
  Context* context = input.context();
  auto* run = new (std::nothrow) ParallelRun{};
  if (!run) {
    input.fail(ErrorCode::Internal, "Out of memory starting a parallel split");
    return Status::Fail;
  }
  run->step = this;
  run->input = &input;
  try {
    for (;;) {
      ExchangePtr sub = acquireExchange(context);
      copyForSub(*sub, input, !setsBody_);
      FanOutWork w = next(input, s, *sub);
      if (!w.block) break;
      detail::fanOutState(*sub).parallelIndex = run->subs.size();
      if (!sub->failed()) beginUnit(*sub, input, *w.block, options_.subErrorHandling);
      run->subs.push_back(std::move(sub));
    }
  } catch (...) {
    input.setException(std::current_exception());
  }
  if (input.failed()) {
    delete run;
    return Status::Fail;
  }
  run->done.assign(run->subs.size(), 0);
  run->refs.fetch_add(static_cast<int>(run->subs.size()), std::memory_order_relaxed);
  for (ExchangePtr& sub : run->subs) {
    detail::ExecState& st = detail::exec(*sub);
    st.onDone = &ParallelRun::subFinished;
    st.onDoneArg = run;
    if (sub->failed()) {
      ParallelRun::subFinished(*sub, run);  // it could not begin: it counts as failed
    } else {
      context->submit({&ParallelRun::runSub, sub.get()});
    }
  }
  bool complete_now = false;
  {
    std::lock_guard lock(run->mutex);
    run->producing = false;
    if (run->finished == run->subs.size()) {
      run->closed = true;
      complete_now = true;
    }
  }
  if (complete_now) {
    Status r = run->complete(run->done);
    run->release();
    return r;
  }
  if (options_.timeoutMillis > 0) {
    // Scheduled under the lock, so a completion cannot miss the timer it must cancel.
    std::lock_guard lock(run->mutex);
    if (!run->closed) {
      run->refs.fetch_add(1, std::memory_order_relaxed);
      run->timer = context->scheduler().scheduleAfter(
          std::chrono::milliseconds(options_.timeoutMillis), {&ParallelRun::timedOut, run});
      if (run->timer == 0) run->release();
    }
  }
  run->release();
  return Status::Suspend;
}

Result<std::shared_ptr<AggregationStrategy>> resolveStrategy(
    RouteCompiler& compiler, const detail::StepModel& step,
    std::shared_ptr<AggregationStrategy> strategy, const std::string& ref) {
  if (ref.empty()) return strategy;
  auto named = compiler.context().aggregationStrategyByName(ref);
  if (!named) named = AggregationStrategies::byClassName(ref);
  if (named) return named;
  std::string known;
  for (std::string_view n : AggregationStrategies::classNames()) {
    known += known.empty() ? "" : ", ";
    known += n;
  }
  return compiler.error(step, makeError(ErrorCode::InvalidRoute,
                                        fmt::format("no aggregation strategy bound as '{}' (bind "
                                                    "one with Context::bindAggregationStrategy, "
                                                    "or name one of: {})",
                                                    ref, known)));
}

Result<FanOutOptions> AggregationOptionsModel::compile(RouteCompiler& compiler,
                                                       const StepModel& step,
                                                       bool useOriginalByDefault) const {
  FanOutOptions o;
  auto resolved = resolveStrategy(compiler, step, strategy, strategyRef);
  if (!resolved) return resolved.error();
  o.strategy = *resolved;
  if (!o.strategy && useOriginalByDefault) o.useOriginal = true;
  if (timeoutMillis < 0) {
    return compiler.error(step, makeError(ErrorCode::InvalidRoute,
                                          fmt::format("timeout must not be negative, not {}",
                                                      timeoutMillis)));
  }
  o.parallelProcessing = parallelProcessing;
  o.stopOnException = stopOnException;
  o.timeoutMillis = timeoutMillis;
  o.shareUnitOfWork = shareUnitOfWork;
  return o;
}

}  // namespace dromedary::eip
