// SPDX-License-Identifier: Apache-2.0
// resequence(expression): exchanges run the resequencer's steps in the order of the
// expression's values, as Camel's Resequencer. The incoming exchange goes on past the block at
// once (its copy waits in the resequencer).
// - batch: copies collect until batchSize arrive or batchTimeout has passed since the first;
//   they are then sorted (stable; numbers numerically, else as text; `reverse`) and run in
//   order. Without allowDuplicates, later exchanges with an equal value are dropped.
// - stream: the expression is a sequence number. An exchange runs when it is the successor of
//   the last one run; a gap is waited for up to `timeout` after the exchange behind it came,
//   then skipped. With nothing run yet, the first waits for its timeout (as in Camel). More
//   than `capacity` waiting fails the exchange; an old number (below the last run) is dropped,
//   or fails with rejectOld.
// One lock per resequencer; one periodic check on the context's scheduler; the ordered
// exchanges run on a worker, one at a time, in order.
#include <deque>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/logging.h>
#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

const Logger& resequenceLog() {
  static const Logger log = Logger::get("dromedary.resequence");
  return log;
}

struct ResequenceOptions {
  bool stream;
  int64_t batchSize, batchTimeoutMillis, capacity, streamTimeoutMillis;
  bool allowDuplicates, reverse, rejectOld, ignoreInvalidExchanges;
};

class ResequenceStep final : public Step {
 public:
  ResequenceStep(Context& context, std::unique_ptr<Expression> e, ResequenceOptions m,
                 const detail::Block& body)
      : context_(context), expression_(std::move(e)), m_(m), body_(body) {}
  ~ResequenceStep() override { stopTimer(); }

  Status run(Exchange& ex) noexcept override {
    Value key;
    {
      Value scratch;
      const Value* v = expression_->evaluate(ex, scratch);
      if (!v) return Status::Fail;
      key = *v;
    }
    std::vector<ExchangePtr>& ready = toDeliver_;
    try {
      std::lock_guard lock(mutex_);
      if (m_.stream) {
        auto seq = key.tryAs<int64_t>();
        if (!seq) {
          if (m_.ignoreInvalidExchanges) return Status::Continue;
          ex.fail(ErrorCode::EvaluationFailed, "resequence: the sequence number is not a number");
          return Status::Fail;
        }
        if (hasLast_ && *seq <= last_) {
          if (m_.rejectOld) {
            ex.failWithDetail(ErrorCode::InvalidRoute, "MessageRejectedException",
                              fmt::format("sequence number {} is older than the last one "
                                          "delivered ({})", *seq, last_));
            return Status::Fail;
          }
          return Status::Continue;  // old: dropped, as Camel's stream resequencer drops it
        }
        if (waiting_.size() >= static_cast<size_t>(m_.capacity)) {
          ex.fail(ErrorCode::LimitExceeded, "resequence: capacity reached");
          return Status::Fail;
        }
        if (!waiting_.count(*seq)) {
          ExchangePtr copy = copyOf(ex);  // first: a copy that fails leaves no empty entry
          Pending& p = waiting_[*seq];
          p.exchange = std::move(copy);
          p.deadline = now() + std::chrono::milliseconds(m_.streamTimeoutMillis);
        }
        takeDeliverable(ready, false);
      } else {
        if (key.isNull()) {
          if (m_.ignoreInvalidExchanges) return Status::Continue;
          ex.fail(ErrorCode::EvaluationFailed, "resequence: the expression gave no value");
          return Status::Fail;
        }
        if (!m_.allowDuplicates) {
          for (const auto& [k, e] : batch_) {
            if (coerceEquals(k, key)) return Status::Continue;  // a duplicate: dropped
          }
        }
        if (batch_.empty()) batchStart_ = now();
        batch_.emplace_back(std::move(key), copyOf(ex));
        if (batch_.size() >= static_cast<size_t>(m_.batchSize)) takeBatch(ready);
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    deliver();
    return Status::Continue;
  }

  void routeStarted() noexcept override {
    std::lock_guard lock(mutex_);
    stopping_ = false;
    if (timer_ == 0) timer_ = context_.scheduler().scheduleAfter(period(), {&check, this});
  }

  void routeStopping() noexcept override {
    stopTimer();
    // What waits is delivered in order rather than lost (Camel flushes on stop too).
    {
      std::lock_guard lock(mutex_);
      try {
        m_.stream ? takeDeliverable(toDeliver_, true) : takeBatch(toDeliver_);
      } catch (...) {
      }
    }
    deliver();
  }

 private:
  struct Pending {
    ExchangePtr exchange;
    Scheduler::TimePoint deadline;
  };

  Scheduler::TimePoint now() const { return context_.scheduler().now(); }

  std::chrono::milliseconds period() const {
    int64_t t = m_.stream ? m_.streamTimeoutMillis : m_.batchTimeoutMillis;
    return std::chrono::milliseconds(std::max<int64_t>(1, std::min<int64_t>(t, 100)));
  }

  ExchangePtr copyOf(const Exchange& ex) {
    ExchangePtr copy = acquireExchange(&context_);
    copy->resetAsCopyOf(ex, true);
    loadFileBody(copy->messageForEngine().body());  // the file moves once `ex` completes
    return copy;
  }

  // Under the lock (stream): the successors of the last one delivered, then anything whose
  // gap has waited long enough (`all`: everything, in order).
  void takeDeliverable(std::vector<ExchangePtr>& out, bool all) {
    auto t = now();
    while (!waiting_.empty()) {
      auto it = waiting_.begin();
      bool successor = hasLast_ && it->first == last_ + 1;
      if (!successor && !all && it->second.deadline > t) break;
      last_ = it->first;
      hasLast_ = true;
      out.push_back(std::move(it->second.exchange));
      waiting_.erase(it);
    }
  }

  // Under the lock (batch): the batch, sorted.
  void takeBatch(std::vector<ExchangePtr>& out) {
    std::stable_sort(batch_.begin(), batch_.end(), [this](const auto& a, const auto& b) {
      auto c = coerceCompare(a.first, b.first);
      bool less = c ? *c < 0 : a.first.toString() < b.first.toString();
      if (m_.reverse) {
        bool greater = c ? *c > 0 : b.first.toString() < a.first.toString();
        return greater;
      }
      return less;
    });
    for (auto& [k, e] : batch_) out.push_back(std::move(e));
    batch_.clear();
  }

  // Runs the resequencer's steps on what is queued, in queue order: one delivery at a time
  // (the queue is taken under the delivery lock, so two threads cannot reorder it).
  void deliver() noexcept {
    std::lock_guard order(delivering_);
    std::vector<ExchangePtr> ready;
    {
      std::lock_guard lock(mutex_);
      ready.swap(toDeliver_);
    }
    for (ExchangePtr& e : ready) {
      Exchange& ex = *e;
      if (beginUnit(ex, ex, body_)) processAndWait(ex, unit_);
      if (ex.failed() && resequenceLog().enabled(LoggingLevel::Warn)) {
        try {
          resequenceLog().log(LoggingLevel::Warn, fmt::format("Resequenced exchange failed: {}",
                                                              ex.error().message()));
        } catch (...) {
        }
      }
    }
  }

  static void check(void* arg) noexcept {
    auto* self = static_cast<ResequenceStep*>(arg);
    bool queued = false;
    {
      std::lock_guard lock(self->mutex_);
      try {
        size_t before = self->toDeliver_.size();
        if (self->m_.stream) {
          self->takeDeliverable(self->toDeliver_, false);
        } else if (!self->batch_.empty() &&
                   self->now() - self->batchStart_ >=
                       std::chrono::milliseconds(self->m_.batchTimeoutMillis)) {
          self->takeBatch(self->toDeliver_);
        }
        queued = self->toDeliver_.size() > before;
      } catch (...) {
      }
      if (!self->stopping_) {
        self->timer_ = self->context_.scheduler().scheduleAfter(self->period(), {&check, self});
      }
    }
    if (queued) self->context_.submit({&deliverOnWorker, self});
  }

  static void deliverOnWorker(void* arg) noexcept { static_cast<ResequenceStep*>(arg)->deliver(); }

  void stopTimer() noexcept {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (timer_) context_.scheduler().cancel(timer_);
    timer_ = 0;
  }

  // Runs an exchange's pushed unit of work to its end.
  class UnitRunner final : public Processor {
   public:
    Status process(Exchange& ex) noexcept override { return detail::run(ex); }
  };

  Context& context_;
  std::unique_ptr<Expression> expression_;
  const ResequenceOptions m_;
  const detail::Block& body_;
  UnitRunner unit_;
  std::mutex mutex_;
  std::mutex delivering_;
  std::vector<std::pair<Value, ExchangePtr>> batch_;
  Scheduler::TimePoint batchStart_;
  std::map<int64_t, Pending> waiting_;
  int64_t last_ = 0;
  bool hasLast_ = false;
  std::vector<ExchangePtr> toDeliver_;  // in order, waiting for deliver()
  Scheduler::TimerId timer_ = 0;
  bool stopping_ = false;
};

}  // namespace

Result<std::unique_ptr<Step>> ResequenceModel::compile(RouteCompiler& compiler) const {
  auto fail = [&](std::string message) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
  };
  for (auto [name, value] : {std::pair{"batchSize", batchSize}, std::pair{"capacity", capacity},
                             std::pair{"timeout", stream ? streamTimeoutMillis
                                                         : batchTimeoutMillis}}) {
    if (value < 1) return fail(fmt::format("{} must be at least 1, not {}", name, value));
  }
  auto e = expression.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  ResequenceOptions o{stream,          batchSize,       batchTimeoutMillis, capacity,
                      streamTimeoutMillis, allowDuplicates, reverse,           rejectOld,
                      ignoreInvalidExchanges};
  return std::unique_ptr<Step>(
      new ResequenceStep(compiler.context(), std::move(*e), o, **block));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kBatchConfigAttributes[] = {
    {"batchSize", AttributeType::Integer, "100", "Exchanges collected before they are sorted"},
    {"batchTimeout", AttributeType::Duration, "1000",
     "How long a batch collects before it is released, in ms"},
    {"allowDuplicates", AttributeType::Boolean, "false", "Keep exchanges with the same order"},
    {"reverse", AttributeType::Boolean, "false", "Release in descending order"},
    {"ignoreInvalidExchanges", AttributeType::Boolean, "false",
     "Drop an exchange whose expression fails instead of failing it"},
};
constexpr AttributeSchema kStreamConfigAttributes[] = {
    {"capacity", AttributeType::Integer, "1000", "Exchanges held waiting for a gap to close"},
    {"timeout", AttributeType::Duration, "1000", "How long a gap may stay open, in ms"},
    {"rejectOld", AttributeType::Boolean, "false",
     "Fail an exchange older than the last released one"},
    {"ignoreInvalidExchanges", AttributeType::Boolean, "false",
     "Drop an exchange whose expression fails instead of failing it"},
    {"deliveryAttemptInterval", AttributeType::Duration, "1000",
     "Accepted for Camel's files: gaps are checked when exchanges arrive and on timeout"},
};
constexpr ClauseSchema kResequenceClauses[] = {
    {"batchConfig", "Sorts batches collected by size or time (the default)",
     kBatchConfigAttributes},
    {"streamConfig", "Releases each exchange as soon as its predecessor has gone",
     kStreamConfigAttributes},
};
}  // namespace

extern const EipSchema kResequenceSchema{
    .key = "resequence",
    .description =
        "Puts exchanges back in the order of the expression's value before the nested "
        "steps",
    .expression = ExpressionUse::Expression,
    .steps = true,
    .clauses = "batchConfig or streamConfig (batch by default)",
    .clauseSchemas = kResequenceClauses,
};

}  // namespace dromedary::eip
