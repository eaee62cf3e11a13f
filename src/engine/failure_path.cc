// SPDX-License-Identifier: Apache-2.0
#include "engine/failure_path.h"
#include "engine/message_history.h"

#include <fmt/format.h>

#include <chrono>
#include <random>

#include "engine/context_impl.h"
#include "engine/executor.h"
#include "engine/failure_state.h"
#include "engine/statistics.h"

namespace dromedary {

namespace detail {

namespace {

// Camel's header and property names.
const HeaderKey kRedelivered{"CamelRedelivered"};
const HeaderKey kRedeliveryCounter{"CamelRedeliveryCounter"};
const HeaderKey kRedeliveryMaxCounter{"CamelRedeliveryMaxCounter"};
const HeaderKey kExceptionCaught{"CamelExceptionCaught"};
const HeaderKey kFailureEndpoint{"CamelFailureEndpoint"};
const HeaderKey kFailureRouteId{"CamelFailureRouteId"};
const HeaderKey kErrorHandlerHandled{"CamelErrorHandlerHandled"};

ExceptionRegistry& registry(Exchange& ex) { return ex.context()->implForEngine().exceptions; }

void removeRedeliveryHeaders(Exchange& ex) noexcept {
  Headers& h = ex.message().headers();
  h.remove(kRedelivered);
  h.remove(kRedeliveryCounter);
  h.remove(kRedeliveryMaxCounter);
}

void setRedeliveryHeaders(Exchange& ex, int counter, const RedeliveryPolicy& policy) {
  Headers& h = ex.message().headers();
  h.slot(kRedeliveryCounter) = counter;
  h.slot(kRedelivered) = counter > 0;
  if (policy.maximumRedeliveries > 0) h.slot(kRedeliveryMaxCounter) = policy.maximumRedeliveries;
}

std::string logIds(Exchange& ex) {
  return fmt::format("(MessageId: {} on ExchangeId: {})", ex.exchangeId(), ex.exchangeId());
}

// The scheduler's thread hands a delayed redelivery to a worker, which resumes it.
void resumeExchange(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }
void wakeForRedelivery(void* arg) noexcept {
  auto* ex = static_cast<Exchange*>(arg);
  ex->context()->submit({&resumeExchange, ex});
}


// --- clause selection ----------------------------------------------------------------------

// Camel's closest match: the clause whose type is fewest levels above the failure's type;
// among equals the first declared (route-scoped clauses come first); onWhen must hold.
const CompiledClause* selectClause(Exchange& ex, const CompiledErrorHandler& h,
                                   const ExceptionType* type) noexcept {
  const CompiledClause* best = nullptr;
  int best_distance = 1 << 30;
  for (const CompiledClause& c : h.clauses) {
    int d = -1;
    if (c.types.empty()) d = ExceptionRegistry::distance(type, registry(ex).root());
    for (const ExceptionType* t : c.types) {
      int dt = ExceptionRegistry::distance(type, t);
      if (dt >= 0 && (d < 0 || dt < d)) d = dt;
    }
    if (d < 0 || d >= best_distance) continue;
    if (c.onWhen && !matchesOnFailure(ex, *c.onWhen)) continue;
    best = &c;
    best_distance = d;
  }
  return best;
}

// --- logging -------------------------------------------------------------------------------

void logFailure(Exchange& ex, const CompiledErrorHandler& h, LoggingLevel level,
                const std::string& line, const ExchangeError* error, bool history,
                bool stack_trace) {
  if (!h.logger.enabled(level)) return;
  std::string text = line;
  if (history) {
    text += "\n";
    text += messageHistory(ex, nullptr);
  }
  if (stack_trace && error) {
    text += "\nStacktrace\n";
    text += std::string(80, '-');
    text += "\n";
    text += error->message();
    if (!error->nodeId.empty()) {
      text += fmt::format("\n\tat {}/{}", error->routeId, error->nodeId);
    }
  }
  h.logger.log(level, text);
}

// --- after the handler gave up (or handled) --------------------------------------------------

enum class Outcome { Continue, Propagate };

// Applies handled / continued / not handled once the failure processor (if any) is done.
// `new_error` is a failure of the failure processor itself.
Outcome finishFailure(Exchange& ex, FailureContext& ctx, ExchangeError* new_error) {
  ExecState& st = detail::exec(ex);
  const CompiledErrorHandler& h = *ctx.handler;
  const RedeliveryPolicy& policy = ctx.clause ? ctx.clause->policy : h.policy;
  auto exhausted_line = [&](std::string_view tail) {
    return fmt::format("Failed delivery for {}. Exhausted after delivery attempt: {} caught: {}{}",
                       logIds(ex), ctx.attempts, ctx.caught.message(), tail);
  };
  const bool dead_letter_only = ctx.deadLetter && !ctx.clause;
  if (!new_error && ctx.continued) {
    ex.clearError();
    removeRedeliveryHeaders(ex);
    st.failureHandled = false;
    if (policy.logContinued) {
      logFailure(ex, h, policy.retriesExhaustedLogLevel,
                 exhausted_line(". Handled and continue routing."), &ctx.caught, false, false);
    }
    return Outcome::Continue;
  }
  bool handled = !new_error && (ctx.handled || ctx.deadLetter);
  if (new_error && dead_letter_only) {
    // Camel's deadLetterHandleNewException: the dead letter endpoint failing is logged and
    // counted; by default the exchange still counts as handled, so a poison message cannot
    // fail forever.
    handled = h.deadLetterHandleNewException;
    ctx.route->counters.deadLetterFailed();
    if (h.logger.enabled(LoggingLevel::Warn)) {
      h.logger.log(LoggingLevel::Warn,
                   fmt::format("New exception occurred during processing by the "
                               "DeadLetterChannel[{}] due {}. The new exception is {}being handled "
                               "as deadLetterHandleNewException={}. The original failure: {}",
                               h.deadLetterUri, new_error->message(), handled ? "" : "not ",
                               handled ? "true" : "false", ctx.caught.message()));
    }
  } else if (new_error && h.logger.enabled(LoggingLevel::Error)) {
    h.logger.log(LoggingLevel::Error,
                 fmt::format("Exception occurred while trying to handle previously thrown "
                             "exception on exchangeId: {} using onException. The previous "
                             "exception: {}. The new exception: {}",
                             ex.exchangeId(), ctx.caught.message(), new_error->message()));
  }
  if (handled) {
    ex.clearError();
    st.stop |= kStopHandled;
    ex.properties().slot(kErrorHandlerHandled) = true;
    ctx.route->counters.failureHandled();
    if (policy.logHandled && !new_error) {
      std::string tail = ctx.deadLetter && !ctx.clause
                             ? fmt::format(". Handled by DeadLetterChannel: [{}]", h.deadLetterUri)
                             : std::string(". Handled.");
      logFailure(ex, h, policy.retriesExhaustedLogLevel, exhausted_line(tail), &ctx.caught,
                 policy.logExhaustedMessageHistory, false);
    }
    return Outcome::Continue;
  }
  // Not handled: the failure goes back on the exchange and on to the route's caller.
  const bool log_exhausted = !new_error && policy.logExhausted &&
                             h.logger.enabled(policy.retriesExhaustedLogLevel);
  std::string line = log_exhausted ? exhausted_line("") : std::string();
  ExchangeError& slot = ex.mutableErrorForEngine();
  slot = new_error ? std::move(*new_error) : std::move(ctx.caught);
  st.failureHandled = true;
  ex.properties().slot(kErrorHandlerHandled) = false;
  if (log_exhausted) {
    logFailure(ex, h, policy.retriesExhaustedLogLevel, line, &slot,
               policy.logExhaustedMessageHistory, policy.logStackTrace);
  }
  return Outcome::Propagate;
}

class FailureEpilogue final : public Step {
 public:
  std::string_view engineId() const noexcept override { return "onExceptionEnd"; }
  // It decides in memory; what an onException block runs are steps of their own.
  bool mayBlock() const noexcept override { return false; }
  Status run(Exchange& ex) noexcept override {
    ExecState& st = detail::exec(ex);
    FailureState& fs = failureState(ex);
    FailureContext ctx = std::move(fs.contexts.back());
    fs.contexts.pop_back();
    unwindTo(ex, st.depth - 1, false);  // this block's frame: back to the failing step's
    Outcome o;
    try {
      o = finishFailure(ex, ctx, nullptr);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return o == Outcome::Continue ? Status::Continue : Status::Fail;
  }
};

// --- redelivery ----------------------------------------------------------------------------

enum class HandlerResult { Continue, Suspend, Propagate, Retry };

HandlerResult redeliver(Exchange& ex, const Route& route, const RedeliveryPolicy& policy,
                        const CompiledErrorHandler& h, Processor* on_redelivery, int counter) {
  ExecState& st = detail::exec(ex);
  FailureState& fs = failureState(ex);
  thread_local std::minstd_rand rng(std::random_device{}());
  double r01 = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  int64_t delay = redeliveryDelay(policy, fs.lastDelayMs, counter, r01, (rng() & 1) != 0);
  fs.lastDelayMs = delay;
  if (policy.logRetryAttempted && h.logger.enabled(policy.retryAttemptedLogLevel)) {
    logFailure(ex, h, policy.retryAttemptedLogLevel,
               fmt::format("Failed delivery for {}. On delivery attempt: {} caught: {}",
                           logIds(ex), counter - 1, ex.error().message()),
               &ex.error(), false, false);
  }
  route.counters.redelivered();
  // The failing step runs again with the message it had before it began.
  if (ex.checkpoint() == Checkpoint::Taken) std::swap(ex.messageForEngine(), fs.snapshot);
  ex.setCheckpoint(Checkpoint::None);
  ex.clearError();
  setRedeliveryHeaders(ex, counter, policy);
  if (on_redelivery) {
    // A failing onRedelivery counts as another failed attempt of the step.
    if (runAndWait(ex, *on_redelivery) == Status::Fail) return HandlerResult::Retry;
    if (ex.isRouteStop()) return HandlerResult::Continue;
  }
  Frame& failing = st.frames[st.depth - 1];
  if (const Step* step = failing.index > 0 ? failing.block->steps[failing.index - 1] : nullptr;
      step && step->stats && ex.context() &&
      ex.context()->statisticsLevel() == StatisticsLevel::Default) {
    step->stats->countStep(threadStripe(), step->statsIndex, kStepRedelivered);
  }
  failing.index -= 1;
  if (delay <= 0) return HandlerResult::Continue;
  Scheduler& scheduler = ex.context()->scheduler();
  st.redeliveryWait = true;  // before the hand-off: the scheduler may resume it at once
  if (scheduler.scheduleAfterMillis(delay, {&wakeForRedelivery, &ex}) == 0) {
    st.redeliveryWait = false;
    return HandlerResult::Continue;  // no scheduler (shutting down): redeliver at once
  }
  return HandlerResult::Suspend;
}

// The route's error handler takes a failure of a step in the exchange's top frame.
HandlerResult routeErrorHandler(Exchange& ex, const Route& route, const CompiledErrorHandler& h) {
  ExecState& st = detail::exec(ex);
  FailureState& fs = failureState(ex);
  const ExceptionType* type = registry(ex).typeOf(ex.error());
  const CompiledClause* clause = selectClause(ex, h, type);
  const RedeliveryPolicy& policy = clause ? clause->policy : h.policy;
  const Predicate* retry_while = clause ? clause->retryWhile.get() : h.retryWhile.get();
  Processor* on_redelivery =
      clause && clause->onRedelivery ? clause->onRedelivery.get() : h.onRedelivery.get();
  const bool redelivery = policy.maximumRedeliveries != 0 || retry_while;

  // Back-off restarts for each step; the counter is per exchange, as Camel's header.
  const Frame& top = st.frames[st.depth - 1];
  if (fs.lastFailingBlock != top.block || fs.lastFailingIndex != top.index) {
    fs.lastFailingBlock = top.block;
    fs.lastFailingIndex = top.index;
    fs.lastDelayMs = 0;
  }
  int counter = fs.redeliveryCounter + 1;
  if (redelivery) {
    fs.redeliveryCounter = counter;
    setRedeliveryHeaders(ex, counter, policy);  // retryWhile sees them, as in Camel
    bool again = retry_while ? matchesOnFailure(ex, *retry_while)
                             : policy.maximumRedeliveries < 0 ||
                                   counter <= policy.maximumRedeliveries;
    if (again) return redeliver(ex, route, policy, h, on_redelivery, counter);
  }

  // Exhausted: the clause's steps or the dead letter endpoint, then handled / continued.
  FailureContext ctx;
  ctx.route = &route;
  ctx.handler = &h;
  ctx.clause = clause;
  ctx.deadLetter = h.kind == ErrorHandlerDefinition::Kind::DeadLetterChannel;
  ctx.attempts = counter;
  if (clause && clause->handled) ctx.handled = matchesOnFailure(ex, *clause->handled);
  if (clause && clause->continued) ctx.continued = matchesOnFailure(ex, *clause->continued);
  ctx.caught = std::move(ex.mutableErrorForEngine());
  ex.clearError();
  fs.caught = ctx.caught;
  fs.hasCaught = true;

  if (redelivery) {
    if (ctx.deadLetter || ctx.handled || ctx.continued) {
      removeRedeliveryHeaders(ex);
      fs.redeliveryCounter = 0;
    } else {
      fs.redeliveryCounter = counter - 1;  // Camel's decrementRedeliveryCounter
      setRedeliveryHeaders(ex, counter - 1, policy);
    }
  }
  Headers& props = ex.properties();
  props.slot(kExceptionCaught) = ctx.caught.message();
  props.slot(kFailureRouteId) = std::string_view(route.id);
  if (st.toEndpoint) props.slot(kFailureEndpoint) = std::string_view(*st.toEndpoint);

  const Block* block = clause ? clause->block : (ctx.deadLetter ? h.deadLetterBlock : nullptr);
  if (block && (!ctx.continued || !ctx.deadLetter)) {
    bool original = clause ? clause->useOriginalMessage : h.useOriginalMessage;
    bool original_body = clause ? clause->useOriginalBody : h.useOriginalBody;
    if ((original || original_body) && fs.hasOriginal) {
      Message& m = ex.messageForEngine();
      if (original) m.headers() = fs.original.headers();
      m.body() = fs.original.body();
    }
    ex.setCheckpoint(Checkpoint::None);
    fs.contexts.push_back(std::move(ctx));
    if (!pushBlock(ex, *block)) {
      FailureContext back = std::move(fs.contexts.back());
      fs.contexts.pop_back();
      ex.clearError();
      ex.mutableErrorForEngine() = std::move(back.caught);
      st.failureHandled = true;
      return HandlerResult::Propagate;
    }
    return HandlerResult::Continue;
  }
  return finishFailure(ex, ctx, nullptr) == Outcome::Continue ? HandlerResult::Continue
                                                                : HandlerResult::Propagate;
}

// A doCatch clause that takes the failure, or null. The failure is in caughtError() while
// onWhen runs.
const TryData::Catch* findCatch(Exchange& ex, const TryData& t) noexcept {
  const ExceptionType* type = registry(ex).typeOf(ex.error());
  for (const TryData::Catch& c : t.catches) {
    bool typed = c.types.empty();
    for (const ExceptionType* ct : c.types) typed = typed || ExceptionRegistry::distance(type, ct) >= 0;
    if (!typed) continue;
    if (c.onWhen && !matchesOnFailure(ex, *c.onWhen)) continue;
    return &c;
  }
  return nullptr;
}

// Replaces frame `i - 1` (a try body or catch block) with the doFinally block, which passes
// the failure on when it ends.
void finallyThenRethrow(Exchange& ex, uint32_t i, const Block& finally_block) {
  ExecState& st = detail::exec(ex);
  failureState(ex).pending.push_back(std::move(ex.mutableErrorForEngine()));
  ex.clearError();
  st.frames[i - 1] = Frame{&finally_block, 0, false, true};
}

}  // namespace

bool matchesOnFailure(Exchange& ex, const Predicate& predicate) noexcept {
  FailureState& fs = failureState(ex);
  ExchangeError saved_caught;
  bool had_caught = fs.hasCaught;
  const bool failed = ex.failed();
  if (failed) {
    if (had_caught) saved_caught = std::move(fs.caught);
    fs.caught = std::move(ex.mutableErrorForEngine());
    fs.hasCaught = true;
    ex.clearError();
  }
  bool result = predicate.matches(ex);
  if (ex.failed()) {  // the predicate itself failed: it does not match
    result = false;
    ex.clearError();
  }
  if (failed) {
    ex.mutableErrorForEngine() = std::move(fs.caught);
    if (had_caught) fs.caught = std::move(saved_caught);
    fs.hasCaught = had_caught;
  }
  return result;
}

Status handleFailure(Exchange& ex, uint32_t base) noexcept try {
  ExecState& st = detail::exec(ex);
  uint32_t i = st.depth;
  while (i > base) {
    Frame& f = st.frames[i - 1];
    switch (f.block->kind) {
      case BlockKind::TryBody: {
        unwindTo(ex, i, true);
        const TryData& t = *f.block->tryData;
        if (const TryData::Catch* c = findCatch(ex, t)) {
          FailureState& fs = failureState(ex);
          fs.caught = std::move(ex.mutableErrorForEngine());
          fs.hasCaught = true;
          ex.clearError();
          ex.properties().slot(kExceptionCaught) = fs.caught.message();
          ex.setCheckpoint(Checkpoint::None);
          f = Frame{c->block, 0, false, false};
          return Status::Continue;
        }
        // Leaving the doTry failed: the message saved is an inner step's, not the doTry's,
        // so a redelivery of the doTry runs on the message as it is.
        ex.setCheckpoint(Checkpoint::None);
        if (t.finallyBlock) {
          finallyThenRethrow(ex, i, *t.finallyBlock);
          return Status::Continue;
        }
        unwindTo(ex, --i, true);
        continue;
      }
      case BlockKind::Catch: {
        unwindTo(ex, i, true);
        ex.setCheckpoint(Checkpoint::None);
        if (const Block* fin = f.block->tryData->finallyBlock) {
          finallyThenRethrow(ex, i, *fin);
          return Status::Continue;
        }
        unwindTo(ex, --i, true);
        continue;
      }
      case BlockKind::Finally: {
        // A failure inside doFinally replaces the one it was about to pass on.
        if (f.rethrow) failureState(ex).pending.pop_back();
        unwindTo(ex, --i, true);
        continue;
      }
      case BlockKind::FailureBlock: {
        // The onException steps or the dead letter endpoint failed: Camel's fatal fallback.
        FailureState& fs = failureState(ex);
        ExchangeError new_error = std::move(ex.mutableErrorForEngine());
        ex.clearError();
        unwindTo(ex, i - 1, true);
        FailureContext ctx = std::move(fs.contexts.back());
        fs.contexts.pop_back();
        if (finishFailure(ex, ctx, &new_error) == Outcome::Continue) return Status::Continue;
        i = st.depth;
        continue;
      }
      case BlockKind::Plain:
        break;
    }
    if (!f.routeEntry && !f.unitEntry) {
      --i;
      continue;
    }
    const Route& route = *f.block->route;
    const CompiledErrorHandler* h = route.errorHandler.get();
    if (!h || st.failureHandled) {
      // No handler here, or one already gave up: the step that called this route failed.
      unwindTo(ex, --i, true);
      continue;
    }
    // The frames above are this route's own blocks: the failing step is in the top one.
    HandlerResult r;
    do {
      r = routeErrorHandler(ex, route, *h);
    } while (r == HandlerResult::Retry);
    if (r == HandlerResult::Continue) return Status::Continue;
    if (r == HandlerResult::Suspend) return Status::Suspend;
    i = st.depth;  // propagate: the route's frames go, then its caller's steps
  }
  unwindTo(ex, base, true);
  return Status::Fail;
} catch (...) {
  // Error handling itself failed (out of memory building a log line): fail plainly.
  if (!ex.failed()) ex.setException(std::current_exception());
  unwindTo(ex, detail::exec(ex).base, true);
  return Status::Fail;
}

void captureOriginal(Exchange& ex) noexcept {
  FailureState& fs = failureState(ex);
  const Message& m = ex.messageForEngine();
  fs.original.headers() = m.headers();
  fs.original.body() = m.body();
  fs.hasOriginal = true;
}

std::unique_ptr<Step> makeFailureEpilogue() { return std::make_unique<FailureEpilogue>(); }

}  // namespace detail
}  // namespace dromedary
