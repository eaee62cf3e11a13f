// SPDX-License-Identifier: Apache-2.0
// circuitBreaker / onFallback: Camel's circuit breaker EIP with Resilience4j's semantics
// (circuit_breaker_state.h). The steps run on a copy of the exchange, as Camel's, without the
// route's error handler (unless inheritErrorHandler): a call that succeeds gives the exchange
// its result; one that fails, times out or is refused leaves the exchange as it came in, and
// onFallback runs on it with the failure as CamelExceptionCaught. Without onFallback a failed
// call fails the exchange (for the route's error handler), and a refused one goes on untouched
// unless throwExceptionWhenHalfOpenOrOpenState. Every outcome is told in Camel's
// CamelCircuitBreaker* exchange properties.
#include <dromedary/engine/context.h>
#include <dromedary/engine/exception_types.h>
#include <fmt/format.h>

#include <stdexcept>

#include "eip/circuit_breaker_state.h"
#include "eip/eip_schema.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/compiled_error_handler.h"
#include "engine/context_impl.h"
#include "engine/exception_registry.h"
#include "engine/executor.h"
#include "engine/failure_state.h"

namespace dromedary::eip {

namespace {

using State = CircuitBreakerState;
using Clock = Scheduler::TimePoint;

const HeaderKey kState{"CamelCircuitBreakerState"};
const HeaderKey kSuccessful{"CamelCircuitBreakerResponseSuccessfulExecution"};
const HeaderKey kFromFallback{"CamelCircuitBreakerResponseFromFallback"};
const HeaderKey kShortCircuited{"CamelCircuitBreakerResponseShortCircuited"};
const HeaderKey kTimedOut{"CamelCircuitBreakerResponseTimedOut"};
const HeaderKey kRejected{"CamelCircuitBreakerResponseRejected"};
const HeaderKey kIgnored{"CamelCircuitBreakerResponseIgnored"};
const HeaderKey kExceptionCaught{"CamelExceptionCaught"};

// The failures the breaker makes, under the registered types the exception registry names
// (Resilience4j's and Java's names are aliases of them).
class BreakerError final : public std::runtime_error, public NamedTypeException {
 public:
  BreakerError(std::string_view type, const std::string& message)
      : std::runtime_error(message), type_(type) {}
  std::string_view exceptionType() const noexcept override { return type_; }

 private:
  std::string_view type_;
};

class CircuitBreakerStep;

// A call with a timeout: the steps' copy and a timer race, and the first decides. Made per call
// (only with timeoutEnabled): a copy that is late is let go when it ends, so it cannot live in
// the exchange's own state. Freed by the last of the run, the copy and the timer to let go.
struct TimedCall {
  CircuitBreakerStep* step = nullptr;
  Exchange* input = nullptr;
  ExchangePtr sub;
  Clock started;
  std::mutex mutex;
  Scheduler::TimerId timer = 0;
  bool decided = false;
  std::atomic<int> refs{2};  // the run and the copy

  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  bool decide() noexcept {
    std::lock_guard lock(mutex);
    const bool first = !decided;
    decided = true;
    return first;
  }
  static void subFinished(Exchange& sub, void* arg) noexcept;
  static void timedOut(void* arg) noexcept;
  static void timedOutOnWorker(void* arg) noexcept;
};

class CircuitBreakerStep final : public Step {
 public:
  CircuitBreakerStep(Context& context, const CircuitBreakerConfig& config,
                     const detail::Block& body, const detail::Block* fallback,
                     std::vector<const detail::ExceptionType*> record,
                     std::vector<const detail::ExceptionType*> ignore, bool inherit_error_handler)
      : context_(context),
        config_(config),
        breaker_(config),
        body_(body),
        fallback_(fallback),
        record_(std::move(record)),
        ignore_(std::move(ignore)),
        inheritErrorHandler_(inherit_error_handler) {}

  Status run(Exchange& input) noexcept override {
    Scheduler& clock = input.context()->scheduler();
    const Clock now = clock.now();
    const State::Permit permit = breaker_.acquire(now);
    if (permit != State::Permit::Allowed) return refused(input, permit, now);
    if (config_.timeoutEnabled) return runTimed(input, now);
    detail::FanOutState* s;
    try {
      s = &detail::fanOutState(input);
    } catch (...) {
      breaker_.record(State::Outcome::Ignored, {}, now);
      input.setException(std::current_exception());
      return Status::Fail;
    }
    if (!s->work) s->work = acquireExchange(input.context());
    Exchange& sub = *s->work;
    s->step = this;
    s->started = now;
    if (!begin(input, sub)) return settle(input, &sub, false, {});
    detail::ExecState& st = detail::exec(sub);
    st.onDone = &CircuitBreakerStep::subDone;
    st.onDoneArg = &input;
    bool in_place = false;
    // Suspended: the copy's completion settles the call and resumes the exchange (subDone).
    if (detail::runUnit(sub, detail::stepCounting(input), in_place) == Status::Suspend) {
      return Status::Suspend;
    }
    return settle(input, &sub, false, clock.now() - now);
  }

  bool mayBlock() const noexcept override { return false; }

  void describeState(std::vector<std::pair<std::string, std::string>>& out) const override {
    const State::Snapshot s = breaker_.snapshot(context_.scheduler().now());
    out.emplace_back("circuitBreakerState", std::string(State::name(s.state)));
    out.emplace_back("bufferedCalls", std::to_string(s.bufferedCalls));
    out.emplace_back("failedCalls", std::to_string(s.failedCalls));
    out.emplace_back("successfulCalls", std::to_string(s.successfulCalls));
    out.emplace_back("slowCalls", std::to_string(s.slowCalls));
    out.emplace_back("notPermittedCalls", std::to_string(s.notPermittedCalls));
    out.emplace_back("failureRate", fmt::format("{:g}", s.failureRate));
    out.emplace_back("slowCallRate", fmt::format("{:g}", s.slowCallRate));
  }

  std::chrono::nanoseconds timeout() const noexcept { return config_.timeoutDuration; }

  // The call is over (or never began: `sub` failed): the breaker counts it and the exchange
  // goes on with its result, to onFallback, or failed. `sub` is not read when it timed out.
  Status settle(Exchange& input, Exchange* sub, bool timed_out,
                std::chrono::nanoseconds elapsed) noexcept {
    Scheduler& clock = input.context()->scheduler();
    State::Outcome outcome = State::Outcome::Success;
    bool keep_result = true;  // the copy's message becomes the exchange's
    if (timed_out) {
      outcome = State::Outcome::Failure;
      keep_result = false;
    } else if (sub->failed()) {
      keep_result = false;
      outcome = classify(input, sub->error());
      if (outcome != State::Outcome::Failure) sub->clearError();
    }
    const State::State state = breaker_.record(outcome, elapsed, clock.now());
    try {
      Headers& p = input.properties();
      p.slot(kState).setString(State::name(state));
      if (outcome == State::Outcome::Ignored) {
        setFlags(p, false, false, false);
        p.slot(kIgnored) = true;
        return Status::Continue;
      }
      if (outcome == State::Outcome::Success) {
        if (keep_result) {
          // Camel's copyResults: the copy's message and properties become the exchange's.
          std::swap(input.message(), sub->messageForEngine());
          for (const Headers::Entry& e : sub->properties()) p.set(e);
          if (const Headers* vars = sub->variablesIfAny()) {
            for (const Headers::Entry& v : *vars) input.variables().set(v);
          }
          p.slot(kState).setString(State::name(state));
        }
        setFlags(p, true, false, false);
        return Status::Continue;
      }
      if (timed_out) {
        input.setException(std::make_exception_ptr(
            BreakerError("dromedary.TimeoutException",
                         fmt::format("TimeLimiter '{}' recorded a timeout exception after {} ms",
                                     id(), config_.timeoutDuration.count()))));
      } else {
        input.mutableErrorForEngine() = std::move(sub->mutableErrorForEngine());
        sub->clearError();
      }
      if (fallback_) {
        setFlags(p, false, true, true);
        return toFallback(input, true);
      }
      if (timed_out) {
        setFlags(p, false, false, false);
        p.slot(kTimedOut) = true;
      } else {
        setFlags(p, false, false, true);
        p.slot(kRejected) = true;
      }
    } catch (...) {
      input.setException(std::current_exception());
    }
    return Status::Fail;  // the route's error handler takes it from here
  }

 private:
  static void setFlags(Headers& p, bool successful, bool from_fallback, bool short_circuited) {
    p.slot(kSuccessful) = successful;
    p.slot(kFromFallback) = from_fallback;
    p.slot(kShortCircuited) = short_circuited;
  }

  // A copy of the exchange to run the steps on, and its unit of work; false when it could not
  // be made (the copy holds the failure).
  bool begin(Exchange& input, Exchange& sub) noexcept {
    copyForSub(sub, input);
    if (sub.failed()) return false;
    return beginUnit(sub, input, body_, inheritErrorHandler_);
  }

  State::Outcome classify(Exchange& input, const ExchangeError& error) const noexcept {
    if (ignore_.empty() && record_.empty()) return State::Outcome::Failure;
    const detail::ExceptionType* type = input.context()->implForEngine().exceptions.typeOf(error);
    auto matches = [&](const std::vector<const detail::ExceptionType*>& types) {
      for (const detail::ExceptionType* t : types) {
        if (detail::ExceptionRegistry::distance(type, t) >= 0) return true;
      }
      return false;
    };
    if (matches(ignore_)) return State::Outcome::Ignored;
    if (!record_.empty() && !matches(record_)) return State::Outcome::Success;
    return State::Outcome::Failure;
  }

  // onFallback takes the failure now on the exchange (if `caught`) as doCatch does.
  Status toFallback(Exchange& input, bool caught) noexcept {
    try {
      if (caught) {
        detail::FailureState& fs = detail::failureState(input);
        fs.caught = std::move(input.mutableErrorForEngine());
        fs.hasCaught = true;
        input.clearError();
        input.properties().slot(kExceptionCaught) = fs.caught.message();
      }
    } catch (...) {
      input.setException(std::current_exception());
      return Status::Fail;
    }
    return detail::pushBlock(input, *fallback_) ? Status::Continue : Status::Fail;
  }

  Status refused(Exchange& input, State::Permit permit, Clock now) noexcept {
    try {
      Headers& p = input.properties();
      p.slot(kState) = std::string(State::name(breaker_.state(now)));
      setFlags(p, false, fallback_ != nullptr, true);
      p.slot(kRejected) = true;
      if (fallback_) return toFallback(input, false);
      if (permit == State::Permit::BulkheadFull) {
        input.setException(std::make_exception_ptr(BreakerError(
            "dromedary.BulkheadFullException",
            fmt::format("Bulkhead '{}' is full and does not permit further calls", id()))));
        return Status::Fail;
      }
      if (!config_.throwExceptionWhenHalfOpenOrOpenState) return Status::Continue;
      input.setException(std::make_exception_ptr(
          BreakerError("dromedary.CallNotPermittedException",
                       fmt::format("CircuitBreaker '{}' is {} and does not permit further calls",
                                   id(), State::name(breaker_.state(now))))));
    } catch (...) {
      input.setException(std::current_exception());
    }
    return Status::Fail;
  }

  Status runTimed(Exchange& input, Clock now) noexcept {
    auto* call = new (std::nothrow) TimedCall{};
    if (!call) {
      breaker_.record(State::Outcome::Ignored, {}, now);
      input.fail(ErrorCode::Internal, "Out of memory starting a circuit breaker call");
      return Status::Fail;
    }
    call->step = this;
    call->input = &input;
    call->sub = acquireExchange(input.context());
    call->started = now;
    Exchange& sub = *call->sub;
    Scheduler& clock = input.context()->scheduler();
    Status r = Status::Continue;
    if (begin(input, sub)) {
      detail::ExecState& st = detail::exec(sub);
      st.onDone = &TimedCall::subFinished;
      st.onDoneArg = call;
      bool in_place = false;
      r = detail::runUnit(sub, detail::stepCounting(input), in_place);
    }
    if (r != Status::Suspend) {  // done here: nothing raced it
      const auto elapsed = clock.now() - now;
      Status out = settle(input, &sub, elapsed > config_.timeoutDuration, elapsed);
      delete call;
      return out;
    }
    {
      // Under the lock, so that a copy finishing now cannot miss the timer it must cancel.
      std::lock_guard lock(call->mutex);
      if (!call->decided) {
        call->refs.fetch_add(1, std::memory_order_relaxed);
        call->timer = clock.scheduleAfter(config_.timeoutDuration, {&TimedCall::timedOut, call});
        if (call->timer == 0) call->refs.fetch_sub(1, std::memory_order_relaxed);
      }
    }
    call->release();
    return Status::Suspend;
  }

  static void subDone(Exchange& sub, void* arg) noexcept {
    Exchange& input = *static_cast<Exchange*>(arg);
    detail::FanOutState& s = *detail::exec(input).fanOut;
    auto* self = static_cast<CircuitBreakerStep*>(s.step);
    const auto elapsed = input.context()->scheduler().now() - s.started;
    self->settle(input, &sub, false, elapsed);
    input.resume();  // failed, it goes to its route's error handling
  }

  Context& context_;
  const CircuitBreakerConfig config_;
  mutable CircuitBreakerState breaker_;  // read by describeState
  const detail::Block& body_;
  const detail::Block* fallback_;
  std::vector<const detail::ExceptionType*> record_, ignore_;
  bool inheritErrorHandler_;
};

void TimedCall::subFinished(Exchange& sub, void* arg) noexcept {
  auto* call = static_cast<TimedCall*>(arg);
  if (call->decide()) {
    Scheduler& clock = call->input->context()->scheduler();
    Scheduler::TimerId timer;
    {
      std::lock_guard lock(call->mutex);
      timer = call->timer;
      call->timer = 0;
    }
    if (timer != 0 && clock.cancel(timer)) call->release();  // the timer's ref
    call->step->settle(*call->input, &sub, false, clock.now() - call->started);
    call->input->resume();
  }
  call->release();  // late: the exchange went on without it
}

// On the scheduler's thread: the decision is taken here, the exchange goes on on a worker.
void TimedCall::timedOut(void* arg) noexcept {
  auto* call = static_cast<TimedCall*>(arg);
  if (!call->decide()) {
    call->release();
    return;
  }
  call->input->context()->submit({&TimedCall::timedOutOnWorker, call});
}

void TimedCall::timedOutOnWorker(void* arg) noexcept {
  auto* call = static_cast<TimedCall*>(arg);
  call->step->settle(*call->input, nullptr, true, call->step->timeout());
  call->input->resume();
  call->release();
}

}  // namespace

Result<std::unique_ptr<Step>> CircuitBreakerModel::compile(RouteCompiler& compiler) const {
  auto fail = [&](std::string message) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
  };
  const CircuitBreakerConfig& c = config;
  auto percent = [](double v) { return v > 0 && v <= 100; };
  if (!percent(c.failureRateThreshold)) {
    return fail(fmt::format("failureRateThreshold must be more than 0 and at most 100, not {:g}",
                            c.failureRateThreshold));
  }
  if (!percent(c.slowCallRateThreshold)) {
    return fail(fmt::format("slowCallRateThreshold must be more than 0 and at most 100, not {:g}",
                            c.slowCallRateThreshold));
  }
  struct Positive {
    std::string_view name;
    int64_t value;
  };
  for (const Positive& p : {
           Positive{"slidingWindowSize", c.slidingWindowSize},
           Positive{"minimumNumberOfCalls", c.minimumNumberOfCalls},
           Positive{"permittedNumberOfCallsInHalfOpenState",
                    c.permittedNumberOfCallsInHalfOpenState},
           Positive{"bulkheadMaxConcurrentCalls", c.bulkheadMaxConcurrentCalls},
           Positive{"waitDurationInOpenState", c.waitDurationInOpenState.count()},
           Positive{"timeoutDuration", c.timeoutDuration.count()},
       }) {
    if (p.value <= 0) return fail(fmt::format("{} must be more than 0, not {}", p.name, p.value));
  }
  if (c.slowCallDurationThreshold.count() < 0) {
    return fail(fmt::format("slowCallDurationThreshold must not be negative, not {}",
                            c.slowCallDurationThreshold.count()));
  }
  auto record =
      detail::resolveExceptionTypes(compiler.context(), c.recordExceptions, "recordException");
  if (!record) return compiler.error(*this, record.error());
  auto ignore =
      detail::resolveExceptionTypes(compiler.context(), c.ignoreExceptions, "ignoreException");
  if (!ignore) return compiler.error(*this, ignore.error());
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  const detail::Block* fallback_block = nullptr;
  if (fallback) {
    auto f = compiler.compileBlock(*fallback);
    if (!f) return f.error();
    fallback_block = *f;
  }
  return std::unique_ptr<Step>(new CircuitBreakerStep(compiler.context(), config, **block,
                                                      fallback_block, std::move(*record),
                                                      std::move(*ignore), inheritErrorHandler));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {

constexpr std::string_view kCircuitBreakerAliases[] = {"circuit-breaker"};
constexpr std::string_view kWindowTypes[] = {"COUNT_BASED", "TIME_BASED"};

constexpr AttributeSchema kCircuitBreakerAttributes[] = {
    {"inheritErrorHandler", AttributeType::Boolean, "false",
     "The route's error handler (redeliveries) applies inside the breaker's steps"},
    {"configuration", AttributeType::Text, "",
     "A named circuit breaker configuration (not supported: give the options in "
     "resilience4jConfiguration)"},
};

// Camel's resilience4jConfiguration, with its defaults; waitDurationInOpenState and
// slowCallDurationThreshold in seconds, as Camel writes them.
constexpr AttributeSchema kResilience4jAttributes[] = {
    {"failureRateThreshold", AttributeType::Number, "50",
     "Percent of failed calls at which the breaker opens"},
    {"permittedNumberOfCallsInHalfOpenState", AttributeType::Integer, "10",
     "Trial calls let through while half open"},
    {"throwExceptionWhenHalfOpenOrOpenState", AttributeType::Boolean, "false",
     "Without onFallback, a refused call fails with CallNotPermittedException"},
    {"slidingWindowSize", AttributeType::Integer, "100",
     "Calls (or seconds, time based) whose outcomes the closed breaker looks at"},
    {"slidingWindowType", AttributeType::Enum, "COUNT_BASED", "COUNT_BASED or TIME_BASED", false,
     kWindowTypes},
    {"minimumNumberOfCalls", AttributeType::Integer, "100",
     "Calls recorded before a failure rate counts"},
    {"writableStackTraceEnabled", AttributeType::Boolean, "true",
     "Accepted (there are no stack traces here)"},
    {"waitDurationInOpenState", AttributeType::Integer, "60",
     "Seconds the breaker stays open before it lets trial calls through"},
    {"automaticTransitionFromOpenToHalfOpenEnabled", AttributeType::Boolean, "false",
     "Half open as soon as the wait is over, not at the next call"},
    {"slowCallRateThreshold", AttributeType::Number, "100",
     "Percent of slow calls at which the breaker opens"},
    {"slowCallDurationThreshold", AttributeType::Integer, "60",
     "Seconds after which a call counts as slow"},
    {"bulkheadEnabled", AttributeType::Boolean, "false", "Limit the calls inside at once"},
    {"bulkheadMaxConcurrentCalls", AttributeType::Integer, "25",
     "With bulkheadEnabled: calls inside at once; more are refused"},
    {"bulkheadMaxWaitDuration", AttributeType::Integer, "0",
     "Must be 0: a call over the bulkhead's limit is refused, never waited for"},
    {"timeoutEnabled", AttributeType::Boolean, "false",
     "A call not done after timeoutDuration counts as failed"},
    {"timeoutDuration", AttributeType::Duration, "1000", "With timeoutEnabled: the limit"},
    {"timeoutCancelRunningFuture", AttributeType::Boolean, "true",
     "Accepted: a late call runs to its end and is let go"},
    {"timeoutExecutorService", AttributeType::Text, "",
     "Not supported: calls run on the context's workers"},
    {"circuitBreaker", AttributeType::Text, "",
     "Not supported: a Resilience4j CircuitBreaker bean (Java)"},
    {"config", AttributeType::Text, "",
     "Not supported: a Resilience4j CircuitBreakerConfig bean (Java)"},
    {"recordException", AttributeType::Text, "",
     "Exception types that count as failures (a list; none: every failure)"},
    {"ignoreException", AttributeType::Text, "",
     "Exception types that count as neither failure nor success (a list)"},
};

// Camel's faultToleranceConfiguration (MicroProfile Fault Tolerance): mapped onto the same
// breaker (docs/eip.md says how).
constexpr AttributeSchema kFaultToleranceAttributes[] = {
    {"delay", AttributeType::Duration, "5000",
     "How long the breaker stays open before a trial call"},
    {"successThreshold", AttributeType::Integer, "1", "Trial calls while half open"},
    {"requestVolumeThreshold", AttributeType::Integer, "20",
     "The calls the closed breaker looks at (and needs before it may open)"},
    {"failureRatio", AttributeType::Integer, "50",
     "Percent of failed calls at which the breaker opens"},
    {"timeoutEnabled", AttributeType::Boolean, "false",
     "A call not done after timeoutDuration counts as failed"},
    {"timeoutDuration", AttributeType::Duration, "1000", "With timeoutEnabled: the limit"},
    {"timeoutPoolSize", AttributeType::Integer, "10",
     "Accepted: calls run on the context's workers"},
    {"timeoutScheduledExecutorService", AttributeType::Text, "",
     "Not supported: timeouts run on the context's scheduler"},
    {"bulkheadEnabled", AttributeType::Boolean, "false", "Limit the calls inside at once"},
    {"bulkheadMaxConcurrentCalls", AttributeType::Integer, "10",
     "With bulkheadEnabled: calls inside at once; more are refused"},
    {"bulkheadWaitingTaskQueue", AttributeType::Integer, "10",
     "Accepted: a call over the bulkhead's limit is refused, never queued"},
    {"circuitBreaker", AttributeType::Text, "",
     "Not supported: a SmallRye CircuitBreaker bean (Java)"},
    {"typedGuard", AttributeType::Text, "", "Not supported: a SmallRye TypedGuard bean (Java)"},
};

constexpr std::string_view kResilience4jAliases[] = {"resilience4j-configuration"};
constexpr std::string_view kFaultToleranceAliases[] = {"fault-tolerance-configuration"};

constexpr ClauseSchema kCircuitBreakerClauses[] = {
    {"resilience4jConfiguration",
     "The breaker's options, as Camel's Resilience4j EIP names them",
     kResilience4jAttributes,
     {},
     kResilience4jAliases},
    {"faultToleranceConfiguration",
     "The breaker's options, as Camel's MicroProfile Fault Tolerance EIP names them",
     kFaultToleranceAttributes,
     {},
     kFaultToleranceAliases},
};

}  // namespace

extern const EipSchema kCircuitBreakerSchema{
    .key = "circuitBreaker",
    .aliases = kCircuitBreakerAliases,
    .description =
        "Runs its steps on a copy of the exchange through a circuit breaker; a failed, "
        "timed out or refused call goes to onFallback",
    .attributes = kCircuitBreakerAttributes,
    .steps = true,
    .clauses =
        "resilience4jConfiguration or faultToleranceConfiguration (options), onFallback "
        "(steps)",
    .clauseSchemas = kCircuitBreakerClauses,
};

}  // namespace dromedary::eip
