// SPDX-License-Identifier: Apache-2.0
// delay(expr): parks the exchange on the context's scheduler for the expression's
// milliseconds and resumes it on a worker thread. Nothing waits: not the caller's thread,
// not a worker. A scheduled wake-up is a function pointer and the exchange: no allocation.
#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "core/scratch.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

// On a worker: continue the route after the delay.
void resumeExchange(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

// On the scheduler's thread: hand the exchange to a worker.
void wake(void* arg) noexcept {
  auto* ex = static_cast<Exchange*>(arg);
  ex->context()->submit({&resumeExchange, ex});
}

class DelayStep final : public Step {
 public:
  explicit DelayStep(std::unique_ptr<Expression> millis) : millis_(std::move(millis)) {}

  Status run(Exchange& ex) noexcept override {
    ScratchValue scratch;
    const Value* v = millis_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    std::optional<int64_t> ms = v->isNull() ? std::optional<int64_t>(0) : v->tryAs<int64_t>();
    if (!ms) {
      ex.fail(ErrorCode::EvaluationFailed, "The delay is not a number of milliseconds");
      return Status::Fail;
    }
    if (*ms <= 0) return Status::Continue;
    Context* context = ex.context();
    if (!context) {
      ex.fail(ErrorCode::Internal, "A delayed exchange needs a context");
      return Status::Fail;
    }
    Scheduler& scheduler = context->scheduler();
    if (scheduler.scheduleAfterMillis(*ms, {&wake, &ex}) == 0) {
      ex.fail(ErrorCode::Internal, "Could not schedule the delay");
      return Status::Fail;
    }
    return Status::Suspend;  // the exchange now belongs to the scheduler
  }

  // It parks the exchange on the scheduler and frees the thread: waiting is not blocking.
  bool mayBlock() const noexcept override { return millis_->mayBlock(); }
 private:
  std::unique_ptr<Expression> millis_;
};

}  // namespace

Result<std::unique_ptr<Step>> DelayModel::compile(RouteCompiler& compiler) const {
  auto e = millis.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new DelayStep(std::move(*e)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kDelayAttributes[] = {
    {"asyncDelayed", AttributeType::Boolean, "true",
     "Accepted for Camel's files: a delay never holds a thread here"},
};
}  // namespace

extern const EipSchema kDelaySchema{
    .key = "delay",
    .description = "Delays the exchange by the expression's milliseconds, holding no thread",
    .attributes = kDelayAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
