// SPDX-License-Identifier: Apache-2.0
// sort(expression): the list the expression gives (a text is cut at commas), sorted with
// Camel's ordering (numbers numerically, else as text) or a comparator, becomes the body.
// sample(): one exchange per period (or one in N) goes on; the others stop, successfully, as
// Camel's sampling throttler stops them. The period's start is one shared atomic per sampler.
#include <algorithm>
#include <atomic>

#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "eip/models.h"
#include "engine/exec_state.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class SortStep final : public Step {
 public:
  SortStep(std::unique_ptr<Expression> e, std::function<bool(const Value&, const Value&)> less)
      : expression_(std::move(e)), less_(std::move(less)) {}

  Status run(Exchange& ex) noexcept override {
    try {
      Value scratch;
      const Value* v = expression_->evaluate(ex, scratch);
      if (!v) return Status::Fail;
      ValueList items;
      if (v->isList()) {
        items = v->getList();
      } else if (!v->isNull()) {
        std::string text;
        v->appendTo(text);
        size_t start = 0;
        while (!text.empty() && start <= text.size()) {
          size_t end = text.find(',', start);
          if (end == std::string::npos) end = text.size();
          items.emplace_back(std::string_view(text).substr(start, end - start));
          start = end + 1;
        }
      }
      if (less_) {
        std::stable_sort(items.begin(), items.end(), less_);
      } else {
        std::stable_sort(items.begin(), items.end(), [](const Value& a, const Value& b) {
          auto c = coerceCompare(a, b);
          return c ? *c < 0 : a.toString() < b.toString();
        });
      }
      ex.message().setBody(Value(std::move(items)));
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

 private:
  std::unique_ptr<Expression> expression_;
  std::function<bool(const Value&, const Value&)> less_;
};

class SampleStep final : public Step {
 public:
  SampleStep(Context& context, int64_t period_ms, int64_t frequency)
      : context_(context), periodNanos_(period_ms * 1'000'000), frequency_(frequency) {}

  Status run(Exchange& ex) noexcept override {
    bool pass;
    if (frequency_ > 0) {
      pass = count_.fetch_add(1, std::memory_order_relaxed) % frequency_ == frequency_ - 1;
    } else {
      int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        context_.scheduler().now().time_since_epoch())
                        .count();
      int64_t next = next_.load(std::memory_order_relaxed);
      pass = now >= next &&
             next_.compare_exchange_strong(next, now + periodNanos_, std::memory_order_relaxed);
    }
    if (!pass) detail::exec(ex).stop |= detail::kStopRoute;
    return Status::Continue;
  }

 private:
  Context& context_;
  int64_t periodNanos_;
  int64_t frequency_;
  std::atomic<int64_t> next_{INT64_MIN};
  std::atomic<int64_t> count_{0};
};

}  // namespace

Result<std::unique_ptr<Step>> SortModel::compile(RouteCompiler& compiler) const {
  auto e = expression.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new SortStep(std::move(*e), comparator));
}

Result<std::unique_ptr<Step>> SampleModel::compile(RouteCompiler& compiler) const {
  if (messageFrequency < 0 || (messageFrequency == 0 && periodMillis < 1)) {
    return compiler.error(
        *this, makeError(ErrorCode::InvalidRoute,
                         messageFrequency < 0
                             ? fmt::format("messageFrequency must be positive, not {}",
                                           messageFrequency)
                             : fmt::format("samplePeriod must be at least 1 ms, not {}",
                                           periodMillis)));
  }
  return std::unique_ptr<Step>(
      new SampleStep(compiler.context(), periodMillis, messageFrequency));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kSampleAttributes[] = {
    {"samplePeriod", AttributeType::Duration, "1000", "The period, in ms"},
    {"messageFrequency", AttributeType::Integer, "", "Let every Nth exchange through instead"},
};
}  // namespace

extern const EipSchema kSortSchema{
    .key = "sort",
    .description = "Sorts the list the expression gives and makes it the body",
    .expression = ExpressionUse::Expression,
};
extern const EipSchema kSampleSchema{
    .key = "sample",
    .description = "Lets one exchange through per period (or every Nth) and drops the others",
    .attributes = kSampleAttributes,
};

}  // namespace dromedary::eip
