// SPDX-License-Identifier: Apache-2.0
// throttle(maximumRequests).timePeriodMillis(p): at most N exchanges pass per period (Camel's
// TotalRequests mode, a sliding window over the last N admissions). Exchanges over the rate
// wait in arrival order, parked without a thread; one scheduler task per throttler (not per
// exchange) wakes at the next admission time and lets through as many as the window allows.
// The lock guards the window and the waiting line only: the maximum is evaluated before it.
// With rejectExecution, an exchange over the rate fails instead, as Camel's
// ThrottlerRejectedExecutionException.
//
// ConcurrentRequests mode: at most N exchanges between the throttle and the end of their
// exchange at once; a permit comes back through the exchange's completion hook, which lets the
// next waiting exchange in.
#include <deque>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "core/scratch.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

using TimePoint = Scheduler::TimePoint;

void resumeExchange(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

class ThrottleStep final : public Step {
 public:
  ThrottleStep(std::unique_ptr<Expression> maximum, std::chrono::milliseconds period, bool reject,
               bool concurrent)
      : maximum_(std::move(maximum)), period_(period), reject_(reject), concurrent_(concurrent) {}

  ~ThrottleStep() override {
    std::lock_guard lock(mutex_);
    if (wake_id_ != 0 && context_) context_->scheduler().cancel(wake_id_);
  }

  Status run(Exchange& ex) noexcept override {
    ScratchValue scratch;
    const Value* v = maximum_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    std::optional<int64_t> max = v->tryAs<int64_t>();
    if (!max || *max < 1) {
      ex.fail(ErrorCode::EvaluationFailed,
              "The throttle's maximumRequests is not a positive number");
      return Status::Fail;
    }
    Context* context = ex.context();
    if (!context) {
      ex.fail(ErrorCode::Internal, "A throttled exchange needs a context");
      return Status::Fail;
    }
    if (concurrent_) return runConcurrent(ex, *context, *max);
    Scheduler& scheduler = context->scheduler();
    std::lock_guard lock(mutex_);
    context_ = context;
    resize(static_cast<size_t>(*max));
    TimePoint now = scheduler.now();
    if (waiting_.empty() && admissible(now)) {
      admit(now);
      return Status::Continue;
    }
    Status s = rejectOrPark(ex, [&] {
      return fmt::format("Exceeded the max throttle rate of {} within {}ms", *max,
                         period_.count());
    });
    if (s == Status::Suspend && wake_id_ == 0) {
      wake_id_ = scheduler.schedule(nextAdmission(now), {&wake, this});
    }
    return s;
  }

 private:
  Status runConcurrent(Exchange& ex, Context& context, int64_t max) noexcept {
    std::lock_guard lock(mutex_);
    context_ = &context;
    max_concurrent_ = max;
    if (waiting_.empty() && in_flight_ < max_concurrent_) {
      if (!ex.addCompletionHook(&releasePermit, this)) {
        ex.fail(ErrorCode::LimitExceeded, "Too many completion hooks on the exchange");
        return Status::Fail;
      }
      ++in_flight_;
      return Status::Continue;
    }
    return rejectOrPark(
        ex, [&] { return fmt::format("Exceeded the concurrent throttle rate of {}", max); });
  }

  // Over the limit (with the lock held): fail with rejectExecution, else join the waiting line.
  template <class Reason>
  Status rejectOrPark(Exchange& ex, Reason reason) noexcept {
    if (reject_) {
      try {
        ex.failWithDetail(ErrorCode::LimitExceeded, "Throttled", reason());
      } catch (...) {
        ex.fail(ErrorCode::LimitExceeded, "Throttled");
      }
      return Status::Fail;
    }
    try {
      waiting_.push_back(&ex);
    } catch (...) {
      ex.fail(ErrorCode::Internal, "Could not park the throttled exchange");
      return Status::Fail;
    }
    return Status::Suspend;
  }

  // An admitted exchange has finished: its permit lets the next waiting one in.
  static void releasePermit(Exchange&, void* arg) noexcept {
    auto* self = static_cast<ThrottleStep*>(arg);
    std::lock_guard lock(self->mutex_);
    --self->in_flight_;
    while (!self->waiting_.empty() && self->in_flight_ < self->max_concurrent_) {
      Exchange* next = self->waiting_.front();
      self->waiting_.pop_front();
      if (next->addCompletionHook(&releasePermit, self)) ++self->in_flight_;
      self->context_->submit({&resumeExchange, next});
    }
  }

  // On the scheduler's thread: let through what the window allows, hand each to a worker.
  static void wake(void* arg) noexcept {
    auto* self = static_cast<ThrottleStep*>(arg);
    std::lock_guard lock(self->mutex_);
    self->wake_id_ = 0;
    Scheduler& scheduler = self->context_->scheduler();
    TimePoint now = scheduler.now();
    while (!self->waiting_.empty() && self->admissible(now)) {
      Exchange* ex = self->waiting_.front();
      self->waiting_.pop_front();
      self->admit(now);
      self->context_->submit({&resumeExchange, ex});
    }
    if (!self->waiting_.empty()) {
      self->wake_id_ = scheduler.schedule(self->nextAdmission(now), {&wake, self});
    }
  }

  void resize(size_t max) {
    if (times_.size() == max) return;
    times_.assign(max, TimePoint{});
    next_ = 0;
    filled_ = 0;
  }
  bool admissible(TimePoint now) const noexcept {
    return filled_ < times_.size() || now >= times_[next_] + period_;
  }
  void admit(TimePoint now) noexcept {
    times_[next_] = now;
    next_ = (next_ + 1) % times_.size();
    if (filled_ < times_.size()) ++filled_;
  }
  TimePoint nextAdmission(TimePoint now) const noexcept {
    return filled_ < times_.size() ? now : times_[next_] + period_;
  }

  std::unique_ptr<Expression> maximum_;
  std::chrono::milliseconds period_;
  bool reject_;
  std::mutex mutex_;
  Context* context_ = nullptr;
  std::vector<TimePoint> times_;  // the last N admissions, a ring
  size_t next_ = 0;               // the oldest admission, overwritten next
  size_t filled_ = 0;
  std::deque<Exchange*> waiting_;
  Scheduler::TimerId wake_id_ = 0;
  bool concurrent_;
  int64_t in_flight_ = 0;
  int64_t max_concurrent_ = 1;
};

}  // namespace

Result<std::unique_ptr<Step>> ThrottleModel::compile(RouteCompiler& compiler) const {
  if (!concurrent && period.count() <= 0) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           fmt::format("timePeriodMillis must be positive, not {}",
                                                       period.count())));
  }
  auto e = maximum.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new ThrottleStep(std::move(*e), period, reject, concurrent));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kThrottleModeValues[] = {"TotalRequests", "ConcurrentRequests"};
constexpr AttributeSchema kThrottleAttributes[] = {
    {"timePeriodMillis", AttributeType::Duration, "1000", "The period the maximum applies to"},
    {"rejectExecution", AttributeType::Boolean, "false",
     "Fail exchanges over the maximum rather than make them wait"},
    {"asyncDelayed", AttributeType::Boolean, "true",
     "Accepted for Camel's files: waiting exchanges hold no thread here"},
    {"mode", AttributeType::Enum, "TotalRequests",
     "TotalRequests: per period; ConcurrentRequests: in flight at once", false,
     kThrottleModeValues},
};
}  // namespace

extern const EipSchema kThrottleSchema{
    .key = "throttle",
    .description = "Lets at most the expression's number of exchanges through per period (or in "
                   "flight); the others wait, holding no thread",
    .attributes = kThrottleAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
