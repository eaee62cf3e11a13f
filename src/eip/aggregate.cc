// SPDX-License-Identifier: Apache-2.0
// aggregate(correlation, strategy): exchanges with the same correlation key are folded into
// one group by the strategy; a group completes by size, predicate, inactivity timeout,
// interval, a batch consumer's last exchange, or the route stopping (forceCompletionOnStop),
// and its aggregate then runs the aggregate's steps, with Camel's CamelAggregatedSize,
// CamelAggregatedCompletedBy and CamelAggregatedCorrelationKey properties. The incoming
// exchange itself goes on past the aggregate block at once.
//
// Groups live in memory under one lock per aggregator (taken once per exchange). Each
// exchange is copied into a pooled exchange that the group keeps, or the strategy folds it
// into the group's and it goes back to the pool. Timeouts and intervals are checked by one
// periodic task per aggregator on the context's scheduler (as Camel's timeout checker); the
// aggregates they complete run on the context's workers.
#include <unistd.h>

#include <atomic>
#include <deque>
#include <thread>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

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

const HeaderKey kAggregatedSize{"CamelAggregatedSize"};
const HeaderKey kCompletedBy{"CamelAggregatedCompletedBy"};
const HeaderKey kDuplicateMessage{"CamelDuplicateMessage"};
const HeaderKey kCorrelationKey{"CamelAggregatedCorrelationKey"};
const HeaderKey kBatchComplete{"CamelBatchComplete"};
// Where a completed group is kept in the repository until its steps succeed.
constexpr std::string_view kRepositoryKey = "DromedaryAggregationRepositoryKey";

const Logger& aggregateLog() {
  static const Logger log = Logger::get("dromedary.aggregate");
  return log;
}

struct AggregateOptions {
  int64_t size = 0;
  int64_t timeoutMillis = 0;
  int64_t intervalMillis = 0;
  int64_t checkerMillis = 1000;
  bool fromBatchConsumer = false;
  bool eager = false;
  bool forceOnStop = false;
  bool optimistic = false;  // the group lives in the repository only (runShared)
  bool discardOnTimeout = false;
  int64_t closeKeys = -1;
};

class AggregateStep final : public Step {
 public:
  AggregateStep(Context& context, std::unique_ptr<Expression> correlation,
                std::shared_ptr<AggregationStrategy> strategy, std::unique_ptr<Predicate> predicate,
                AggregateOptions options, const detail::Block& body,
                std::shared_ptr<AggregationRepository> repository)
      : context_(context),
        correlation_(std::move(correlation)),
        strategy_(std::move(strategy)),
        predicate_(std::move(predicate)),
        options_(options),
        body_(body),
        repository_(std::move(repository)) {}

  ~AggregateStep() override {
    cancelTimers();
    while (recoveryRunning_.load(std::memory_order_acquire) > 0) std::this_thread::yield();
  }

  // What completed the group `agg` of `size` exchanges, just folded `incoming` in; empty when
  // it goes on.
  std::string_view completion(const Exchange& incoming, Exchange& agg, int64_t size,
                              bool eager_done) const {
    if (eager_done) return "predicate";
    if (predicate_ && !options_.eager && predicate_->matches(agg)) return "predicate";
    if (options_.size > 0 && size >= options_.size) return "size";
    if (options_.fromBatchConsumer) {
      const Value* batch = incoming.getProperty(kBatchComplete);
      if (batch && isTruthy(*batch)) return "consumer";
    }
    return {};
  }

  // With a repository several instances share (optimistic locking): the group lives only
  // there. Read it, fold the exchange in, write it back at the version read; when another
  // instance wrote first, read and fold again.
  Status runShared(Exchange& ex, const std::string& key) noexcept {
    constexpr int kMaxAttempts = 100;
    ExchangePtr done;
    std::string_view completed_by;
    bool duplicate = false;
    try {
      std::string member;  // the exchange's name as a member, when the repository keeps them
      if (const Expression* id = repository_->memberId()) {
        Value scratch;
        const Value* v = id->evaluate(ex, scratch);
        if (!v) return Status::Fail;
        thread_local std::string buffer;
        if (!v->isNull()) member.assign(stringForm(*v, buffer));
        if (member.empty()) {
          ex.failWithDetail(ErrorCode::EvaluationFailed,
                            "No member id could be found using the aggregation repository's "
                            "memberId expression",
                            fmt::format("the exchange of the group '{}'", key));
          return Status::Fail;
        }
      }
      std::lock_guard lock(mutex_);  // this instance's own exchanges one at a time
      for (int attempt = 0;; ++attempt) {
        if (attempt == kMaxAttempts) {
          ex.failWithDetail(ErrorCode::Timeout, "OptimisticLockingException",
                            fmt::format("the group '{}' changed under this exchange {} times in "
                                        "a row",
                                        key, attempt));
          return Status::Fail;
        }
        auto [old, version] = repository_->get(context_, key);
        ExchangePtr copy = acquireExchange(&context_);
        copy->resetAsCopyOf(ex, true);
        loadFileBody(copy->messageForEngine().body());  // the file moves once `ex` completes
        bool eager_done = predicate_ && options_.eager && predicate_->matches(*copy);
        int64_t size = 1;
        if (old) {
          const Value* before = old->getProperty(kAggregatedSize);
          size += before ? before->tryAs<int64_t>().value_or(0) : 0;
        }
        Exchange* got = strategy_->aggregate(old.get(), *copy);
        ExchangePtr agg;
        if (got && got == copy.get()) {
          agg = std::move(copy);
        } else if (got && got == old.get()) {
          agg = std::move(old);
        } else {
          ex.fail(ErrorCode::InvalidRoute,
                  "The aggregation strategy returned an exchange other than the two it was given");
          return Status::Fail;
        }
        agg->properties().slot(kAggregatedSize) = size;
        completed_by = completion(ex, *agg, size, eager_done);
        using Write = AggregationRepository::Write;
        if (completed_by.empty()) {
          Write w = repository_->put(key, *agg, version, member);
          duplicate = w == Write::Duplicate;
          if (w == Write::Conflict) continue;
          break;
        }
        std::string stored = completedKey(key);
        agg->properties().slot(kCompletedBy) = completed_by;
        agg->properties().slot(kCorrelationKey) = std::string_view(key);
        agg->properties().slot(kRepositoryKey) = std::string_view(stored);
        Write w = repository_->complete(key, version, stored, *agg, member);
        if (w == Write::Conflict) continue;
        duplicate = w == Write::Duplicate;
        if (!duplicate) done = std::move(agg);
        break;
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    if (duplicate) {
      // Folded before (here or in another instance): as the idempotent consumer marks what it
      // skips, and the exchange goes on after the aggregate as any other.
      ex.properties().slot(kDuplicateMessage) = true;
      return Status::Continue;
    }
    if (done) emit(std::move(done), completed_by, key);
    return Status::Continue;
  }

  // Where a completed group waits in the repository: a key of its own, unique across
  // instances (the process id), until its steps succeed.
  std::string completedKey(const std::string& key) {
    return fmt::format("{}\x1f{}-{}-{}", key, context_.scheduler().epochMillis(), ::getpid(),
                       ++completedSeq_);
  }

  Status run(Exchange& ex) noexcept override {
    std::string key;
    {
      Value scratch;
      const Value* v = correlation_->evaluate(ex, scratch);
      if (!v) return Status::Fail;
      if (v->isNull() || (v->isString() && v->getString().empty())) {
        ex.fail(ErrorCode::EvaluationFailed, "Invalid correlation key",
                correlationText_.empty() ? std::string_view() : std::string_view(correlationText_));
        return Status::Fail;
      }
      thread_local std::string buffer;
      try {
        key.assign(stringForm(*v, buffer));
      } catch (...) {
        ex.setException(std::current_exception());
        return Status::Fail;
      }
    }
    if (options_.optimistic) return runShared(ex, key);
    ExchangePtr copy = acquireExchange(&context_);
    ExchangePtr done;
    std::string_view completed_by;
    try {
      copy->resetAsCopyOf(ex, true);
      loadFileBody(copy->messageForEngine().body());  // the file moves once `ex` completes
      std::lock_guard lock(mutex_);
      if (options_.closeKeys >= 0 && closed_.count(key)) {
        ex.failWithDetail(ErrorCode::InvalidRoute, "ClosedCorrelationKeyException",
                          fmt::format("The correlation key [{}] has been closed", key));
        return Status::Fail;
      }
      // Eager: the predicate sees the incoming exchange, before it is folded in.
      bool eager_done = predicate_ && options_.eager && predicate_->matches(*copy);
      auto it = groups_.try_emplace(key).first;
      Group& g = it->second;
      Exchange* old = g.aggregate.get();
      Exchange* got = strategy_->aggregate(old, *copy);
      if (got == copy.get()) {
        g.aggregate.swap(copy);
      } else if (got != old || !got) {
        groups_.erase(it);
        ex.fail(ErrorCode::InvalidRoute,
                "The aggregation strategy returned an exchange other than the two it was given");
        return Status::Fail;
      }
      ++g.size;
      g.lastUpdate = context_.scheduler().now();
      Exchange& agg = *g.aggregate;
      agg.properties().slot(kAggregatedSize) = g.size;
      completed_by = completion(ex, agg, g.size, eager_done);
      if (!completed_by.empty()) {
        markCompleted(key, agg, completed_by);
        done = std::move(g.aggregate);
        groups_.erase(it);
        close(key);
      } else if (repository_) {
        repository_->add(key, agg);
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    if (done) emit(std::move(done), completed_by, key);
    return Status::Continue;
  }

  void routeStarted() noexcept override {
    recover();
    std::lock_guard lock(mutex_);
    stopping_ = false;
    Scheduler& s = context_.scheduler();
    if (options_.timeoutMillis > 0 && timeoutTimer_ == 0) {
      timeoutTimer_ = s.scheduleAfter(checkerPeriod(), {&checkTimeouts, this});
    }
    if (options_.intervalMillis > 0 && intervalTimer_ == 0) {
      intervalTimer_ = s.scheduleAfter(std::chrono::milliseconds(options_.intervalMillis),
                                       {&completeInterval, this});
    }
    if (repository_ && repository_->recovery().enabled && recoveryTimer_ == 0) {
      recoveryTimer_ = s.scheduleAfter(repository_->recovery().interval, {&recoveryDue, this});
    }
  }

  // --- recovery: completed groups whose steps failed run again ------------------------
  // The scheduler's wake-up only hands the scan to a worker.
  static void recoveryDue(void* arg) noexcept {
    auto* self = static_cast<AggregateStep*>(arg);
    self->recoveryRunning_.fetch_add(1, std::memory_order_acq_rel);  // the step outlives it
    self->context_.submit({&recoverFailed, self});
  }

  // On a worker: the completed groups this instance made (their key carries its process id)
  // and is not running now go again, or to the dead letter endpoint after
  // maximumRedeliveries. Another instance's groups are left to it, or to the next start.
  static void recoverFailed(void* arg) noexcept {
    auto* self = static_cast<AggregateStep*>(arg);
    const AggregationRecovery r = self->repository_->recovery();
    std::vector<std::pair<std::string, ExchangePtr>> stored;
    try {
      stored = self->repository_->completedGroups(self->context_);
    } catch (const std::exception& e) {
      aggregateLog().log(LoggingLevel::Warn, fmt::format("Aggregator {} could not scan its "
                                                         "completed groups: {}",
                                                         self->id(), e.what()));
    }
    const std::string mine = fmt::format("-{}-", ::getpid());
    for (auto& [key, agg] : stored) {
      const Value* where = agg->getProperty(kRepositoryKey);
      if (!where || !where->isString()) continue;  // an open group
      std::string stored_key = where->getString();
      int attempt = 0;
      {
        std::lock_guard lock(self->mutex_);
        if (self->stopping_ || self->inFlight_.count(stored_key) ||
            stored_key.find(mine, stored_key.find('\x1f')) == std::string::npos) {
          continue;
        }
        attempt = ++self->redeliveries_[stored_key];
      }
      if (r.maximumRedeliveries > 0 && attempt > r.maximumRedeliveries) {
        self->deadLetter(std::move(agg), stored_key, r);
        continue;
      }
      agg->setProperty("CamelRedeliveryCounter", Value(int64_t{attempt}));
      aggregateLog().log(LoggingLevel::Info,
                         fmt::format("Aggregator {} runs the completed group '{}' again "
                                     "(attempt {})",
                                     self->id(), key, attempt));
      detail::fanOutState(*agg).step = self;
      self->context_.submit({&emitOnWorker, agg.release()});
    }
    {
      std::lock_guard lock(self->mutex_);
      if (!self->stopping_) {
        self->recoveryTimer_ =
            self->context_.scheduler().scheduleAfter(r.interval, {&recoveryDue, self});
      }
    }
    self->recoveryRunning_.fetch_sub(1, std::memory_order_acq_rel);
  }

  // A group that failed too often: to the dead letter endpoint, then forgotten.
  void deadLetter(ExchangePtr agg, const std::string& stored_key, const AggregationRecovery& r) {
    aggregateLog().log(LoggingLevel::Warn,
                       fmt::format("Aggregator {}: a completed group failed {} times; to {}", id(),
                                   r.maximumRedeliveries + 1, r.deadLetterUri));
    auto producer = context_.producer(r.deadLetterUri);
    if (!producer) {
      aggregateLog().log(LoggingLevel::Error, producer.error().message);
      return;
    }
    agg->clearError();
    processAndWait(*agg, **producer);
    if (agg->failed()) return;  // kept: tried again at the next scan
    try {
      std::lock_guard lock(mutex_);
      repository_->remove(stored_key);
      redeliveries_.erase(stored_key);
    } catch (const std::exception& e) {
      aggregateLog().log(LoggingLevel::Error,
                         fmt::format("Aggregation repository failed: {}", e.what()));
    }
  }

  void routeStopping() noexcept override {
    cancelTimers();
    // With a repository, open groups stay there for the next start.
    if (repository_ && !options_.forceOnStop) return;
    std::vector<std::pair<std::string, ExchangePtr>> pending =
        takeAll([](const Group&) { return true; }, "force", !options_.forceOnStop);
    if (!options_.forceOnStop) {
      if (!pending.empty() && !repository_ && aggregateLog().enabled(LoggingLevel::Warn)) {
        aggregateLog().log(LoggingLevel::Warn,
                           fmt::format("Aggregator {} stopped with {} incomplete group(s), "
                                       "dropped (set forceCompletionOnStop to complete them)",
                                       id(), pending.size()));
      }
      return;
    }
    for (auto& [key, agg] : pending) emit(std::move(agg), "force", key);
  }

 private:
  struct Group {
    ExchangePtr aggregate;
    int64_t size = 0;
    Scheduler::TimePoint lastUpdate;
  };

  std::chrono::milliseconds checkerPeriod() const {
    return std::chrono::milliseconds(std::max<int64_t>(
        1, std::min(options_.checkerMillis, options_.timeoutMillis)));
  }

  // Takes the groups `pick` chooses out of the map.
  // Takes the groups `pick` chooses out of the map, completed `by` that trigger (or, with
  // `discard`, forgotten).
  template <class Pick>
  std::vector<std::pair<std::string, ExchangePtr>> takeAll(Pick&& pick, std::string_view by,
                                                            bool discard = false) noexcept {
    std::vector<std::pair<std::string, ExchangePtr>> out;
    try {
      std::lock_guard lock(mutex_);
      for (auto it = groups_.begin(); it != groups_.end();) {
        if (pick(it->second)) {
          try {
            if (discard && repository_) repository_->remove(it->first);
            if (!discard) markCompleted(it->first, *it->second.aggregate, by);
          } catch (const std::exception& e) {
            aggregateLog().log(LoggingLevel::Error,
                               fmt::format("Aggregation repository failed for group '{}': {}",
                                           it->first, e.what()));
          }
          out.emplace_back(it->first, std::move(it->second.aggregate));
          close(it->first);
          it = groups_.erase(it);
        } else {
          ++it;
        }
      }
    } catch (...) {
      aggregateLog().log(LoggingLevel::Error, "Out of memory completing aggregated groups");
    }
    return out;
  }

  // Under the lock: remembers a completed key when closeCorrelationKeyOnCompletion is set.
  void close(const std::string& key) {
    if (options_.closeKeys < 0) return;
    if (closed_.insert(key).second) closedOrder_.push_back(key);
    if (options_.closeKeys > 0 && closedOrder_.size() > static_cast<size_t>(options_.closeKeys)) {
      closed_.erase(closedOrder_.front());
      closedOrder_.pop_front();
    }
  }

  void cancelTimers() noexcept {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    Scheduler& s = context_.scheduler();
    if (timeoutTimer_) s.cancel(timeoutTimer_);
    if (intervalTimer_) s.cancel(intervalTimer_);
    if (recoveryTimer_) s.cancel(recoveryTimer_);
    timeoutTimer_ = intervalTimer_ = recoveryTimer_ = 0;
  }

  // Runs the aggregate's steps on a completed group (on this thread).
  void emit(ExchangePtr agg, std::string_view completed_by, const std::string& key) noexcept {
    Exchange* ex = agg.release();  // back to the pool when its steps are done (finished)
    try {
      if (const Value* stored = ex->getProperty(kRepositoryKey); stored && stored->isString()) {
        std::lock_guard lock(mutex_);
        inFlight_.insert(stored->getString());  // the recovery leaves it alone meanwhile
      }
      ex->properties().slot(kCompletedBy) = completed_by;
      ex->properties().slot(kCorrelationKey) = std::string_view(key);
      strategy_->onCompletion(*ex);
    } catch (...) {
      ex->setException(std::current_exception());
    }
    if (!ex->failed() && beginUnit(*ex, *ex, body_)) {
      detail::ExecState& st = detail::exec(*ex);
      st.onDone = &AggregateStep::finished;
      st.onDoneArg = this;
      if (detail::run(*ex) == Status::Suspend) return;
    }
    finished(*ex, this);
  }

  // The aggregate's steps are done: a success lets the repository forget the group; a failure
  // leaves it there, to run again when the route next starts.
  static void finished(Exchange& ex, void* arg) noexcept {
    auto* self = static_cast<AggregateStep*>(arg);
    const Value* stored = ex.getProperty(kRepositoryKey);
    try {
      if (self->repository_ && stored && stored->isString()) {
        std::lock_guard lock(self->mutex_);
        self->inFlight_.erase(stored->getString());
        if (!ex.failed()) {
          self->redeliveries_.erase(stored->getString());
          self->repository_->remove(stored->getString());
        }
      }
      if (ex.failed() && aggregateLog().enabled(LoggingLevel::Warn)) {
        aggregateLog().log(LoggingLevel::Warn, fmt::format("Aggregated exchange failed: {}{}",
                                                           ex.error().message(),
                                                           self->repository_
                                                               ? " (kept in the repository)"
                                                               : ""));
      }
    } catch (const std::exception& e) {
      aggregateLog().log(LoggingLevel::Error,
                         fmt::format("Aggregation repository failed: {}", e.what()));
    }
    ExchangeRecycler{}(&ex);
  }

  // Under the lock: the group `key` completed. Its properties say so, and with a repository
  // it moves from its key to a key of its own until its steps succeed.
  void markCompleted(const std::string& key, Exchange& agg, std::string_view by) {
    agg.properties().slot(kCompletedBy) = by;
    agg.properties().slot(kCorrelationKey) = std::string_view(key);
    if (!repository_) return;
    std::string stored = completedKey(key);
    agg.properties().slot(kRepositoryKey) = std::string_view(stored);
    repository_->complete(key, -1, stored, agg, {});
  }

  // When the route starts: open groups carry on; completed ones run their steps again.
  void recover() noexcept {
    if (!repository_ || recovered_) return;
    recovered_ = true;
    std::vector<std::pair<std::string, ExchangePtr>> stored;
    try {
      stored = repository_->recover(context_);
    } catch (const std::exception& e) {
      aggregateLog().log(LoggingLevel::Error,
                         fmt::format("Aggregator {} could not recover its groups: {}", id(),
                                     e.what()));
      return;
    }
    std::vector<std::pair<std::string, ExchangePtr>> completed;
    {
      std::lock_guard lock(mutex_);
      for (auto& [key, agg] : stored) {
        const Value* by = agg->getProperty(kCompletedBy);
        if (by && agg->getProperty(kRepositoryKey)) {
          const Value* k = agg->getProperty(kCorrelationKey);
          completed.emplace_back(k ? k->as<std::string>() : key, std::move(agg));
          continue;
        }
        if (options_.optimistic) continue;  // open groups stay in the shared repository
        Group& g = groups_[key];
        const Value* size = agg->getProperty(kAggregatedSize);
        g.size = size ? size->tryAs<int64_t>().value_or(1) : 1;
        g.lastUpdate = context_.scheduler().now();
        g.aggregate = std::move(agg);
      }
    }
    if (!completed.empty()) {
      aggregateLog().log(LoggingLevel::Info,
                         fmt::format("Aggregator {} recovered {} completed group(s) to run again",
                                     id(), completed.size()));
    }
    for (auto& [key, agg] : completed) {
      detail::fanOutState(*agg).step = this;
      context_.submit({&emitOnWorker, agg.release()});
    }
  }

  // Runs on a worker: the aggregate's steps for a group the scheduler completed.
  static void emitOnWorker(void* arg) noexcept {
    auto* ex = static_cast<Exchange*>(arg);
    auto* self = static_cast<AggregateStep*>(detail::exec(*ex).fanOut->step);
    const Value* by = ex->getProperty(kCompletedBy);
    const Value* key = ex->getProperty(kCorrelationKey);
    std::string k = key ? key->as<std::string>() : std::string();
    std::string b = by ? by->as<std::string>() : std::string();
    self->emit(ExchangePtr(ex), b, k);
  }

  void handOff(std::vector<std::pair<std::string, ExchangePtr>> groups, std::string_view by) {
    for (auto& [key, agg] : groups) {
      if (by == "timeout" && options_.discardOnTimeout) continue;  // released here
      try {
        detail::fanOutState(*agg).step = this;
      } catch (...) {
        continue;
      }
      context_.submit({&emitOnWorker, agg.release()});
    }
  }

  // The scheduler's periodic tasks: short, they only take groups out and hand them off.
  static void checkTimeouts(void* arg) noexcept {
    auto* self = static_cast<AggregateStep*>(arg);
    auto now = self->context_.scheduler().now();
    auto timeout = std::chrono::milliseconds(self->options_.timeoutMillis);
    self->handOff(self->takeAll([&](const Group& g) { return now - g.lastUpdate >= timeout; },
                                "timeout", self->options_.discardOnTimeout),
                  "timeout");
    std::lock_guard lock(self->mutex_);
    if (self->stopping_) return;
    self->timeoutTimer_ =
        self->context_.scheduler().scheduleAfter(self->checkerPeriod(), {&checkTimeouts, self});
  }

  static void completeInterval(void* arg) noexcept {
    auto* self = static_cast<AggregateStep*>(arg);
    self->handOff(self->takeAll([](const Group&) { return true; }, "interval"), "interval");
    std::lock_guard lock(self->mutex_);
    if (self->stopping_) return;
    self->intervalTimer_ = self->context_.scheduler().scheduleAfter(
        std::chrono::milliseconds(self->options_.intervalMillis), {&completeInterval, self});
  }

 public:
  std::string correlationText_;

 private:
  Context& context_;
  std::unique_ptr<Expression> correlation_;
  std::shared_ptr<AggregationStrategy> strategy_;
  std::unique_ptr<Predicate> predicate_;
  AggregateOptions options_;
  const detail::Block& body_;

  std::mutex mutex_;
  std::unordered_map<std::string, Group> groups_;
  std::unordered_set<std::string> closed_;
  std::deque<std::string> closedOrder_;
  std::shared_ptr<AggregationRepository> repository_;
  uint64_t completedSeq_ = 0;
  bool recovered_ = false;
  Scheduler::TimerId timeoutTimer_ = 0;
  Scheduler::TimerId intervalTimer_ = 0;
  Scheduler::TimerId recoveryTimer_ = 0;
  std::unordered_set<std::string> inFlight_;             // completed groups running here
  std::unordered_map<std::string, int> redeliveries_;    // times each ran again here
  std::atomic<int> recoveryRunning_{0};                  // recovery scans handed to workers
  bool stopping_ = false;
};

}  // namespace

Result<std::unique_ptr<Step>> AggregateModel::compile(RouteCompiler& compiler) const {
  auto fail = [&](std::string message) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
  };
  auto c = correlation.compile(compiler.context());
  if (!c) return compiler.error(*this, c.error());
  if (!strategy && strategyRef.empty()) {
    return fail("aggregate needs an aggregation strategy");
  }
  auto resolved = resolveStrategy(compiler, *this, strategy, strategyRef);
  if (!resolved) return resolved.error();
  if (!completionPredicate && completionSize <= 0 && completionTimeoutMillis <= 0 &&
      completionIntervalMillis <= 0 && !completionFromBatchConsumer) {
    return fail("aggregate needs a completion: completionSize, completionTimeout, "
                "completionInterval, completionPredicate or completionFromBatchConsumer");
  }
  for (auto [name, value] : {std::pair{"completionSize", completionSize},
                             std::pair{"completionTimeout", completionTimeoutMillis},
                             std::pair{"completionInterval", completionIntervalMillis}}) {
    if (value < 0) return fail(fmt::format("{} must not be negative, not {}", name, value));
  }
  if (timeoutCheckerIntervalMillis < 1) {
    return fail(fmt::format("completionTimeoutCheckerInterval must be at least 1, not {}",
                            timeoutCheckerIntervalMillis));
  }
  std::unique_ptr<Predicate> predicate;
  if (completionPredicate) {
    auto p = completionPredicate->compile(compiler.context());
    if (!p) return compiler.error(*this, p.error());
    predicate = std::move(*p);
  }
  std::shared_ptr<AggregationRepository> repo = repository;
  if (!repo && !repositoryRef.empty()) {
    repo = compiler.context().aggregationRepositoryByName(repositoryRef);
    if (!repo) {
      return fail(fmt::format("no aggregation repository bound as '{}' (bind one with "
                              "Context::bindAggregationRepository)",
                              repositoryRef));
    }
  }
  if (optimisticLocking) {
    if (!repo || !repo->supportsOptimisticLocking()) {
      return fail("optimisticLocking needs an aggregationRepository that supports it (a JDBC "
                  "repository: org.apache.camel.processor.aggregate.jdbc.JdbcAggregationRepository)");
    }
    if (completionTimeoutMillis > 0 || completionIntervalMillis > 0) {
      return fail("completionTimeout and completionInterval cannot be used with "
                  "optimisticLocking: complete by size, predicate or batch");
    }
  } else if (repo && repo->memberId()) {
    // Members are checked only where the group is written at a version: without it the
    // memberId would be accepted and do nothing.
    return fail(fmt::format("the aggregation repository '{}' has a memberId, which needs "
                            "optimisticLocking: true on the aggregate",
                            repositoryRef.empty() ? std::string("given") : repositoryRef));
  }
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  AggregateOptions o;
  o.size = completionSize;
  o.timeoutMillis = completionTimeoutMillis;
  o.intervalMillis = completionIntervalMillis;
  o.checkerMillis = timeoutCheckerIntervalMillis;
  o.fromBatchConsumer = completionFromBatchConsumer;
  o.eager = eagerCheckCompletion;
  o.forceOnStop = forceCompletionOnStop;
  o.optimistic = optimisticLocking;
  o.discardOnTimeout = discardOnCompletionTimeout;
  o.closeKeys = closeCorrelationKeyOnCompletion;
  auto step = std::make_unique<AggregateStep>(compiler.context(), std::move(*c),
                                              *resolved, std::move(predicate), o, **block,
                                              std::move(repo));
  step->correlationText_ = correlation.describe();
  return std::unique_ptr<Step>(std::move(step));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kAggregateAttributes[] = {
    {"aggregationStrategy", AttributeType::Text, "",
     "How exchanges are combined: a bound strategy or one of Camel's class names"},
    {"strategyRef", AttributeType::Text, "", "Camel's older name for aggregationStrategy"},
    {"completionSize", AttributeType::Integer, "0", "Complete a group of this many (0: no size)"},
    {"completionTimeout", AttributeType::Duration, "0",
     "Complete a group this long after its last exchange, in ms (0: none)"},
    {"completionInterval", AttributeType::Duration, "0",
     "Complete every group this often, in ms (0: none)"},
    {"completionTimeoutCheckerInterval", AttributeType::Duration, "1000",
     "How often timeouts are checked, in ms"},
    {"completionFromBatchConsumer", AttributeType::Boolean, "false",
     "Complete when a batch consumer's batch ends"},
    {"eagerCheckCompletion", AttributeType::Boolean, "false",
     "Check completionPredicate on the incoming exchange rather than the group"},
    {"forceCompletionOnStop", AttributeType::Boolean, "false",
     "Complete every group when the route stops"},
    {"optimisticLocking", AttributeType::Boolean, "false",
     "Read and write each group in the repository with a version check, for instances "
     "sharing it"},
    {"discardOnCompletionTimeout", AttributeType::Boolean, "false",
     "Drop a group completed by timeout"},
    {"closeCorrelationKeyOnCompletion", AttributeType::Integer, "",
     "Refuse a completed key again; the number of keys remembered"},
    {"aggregationRepository", AttributeType::Text, "",
     "Where groups are kept (Context::bindAggregationRepository); default: memory"},
};
}  // namespace

extern const EipSchema kAggregateSchema{
    .key = "aggregate",
    .description = "Combines exchanges with the same correlation key until a completion condition,"
                   " then sends the result through the nested steps",
    .attributes = kAggregateAttributes,
    .steps = true,
    .clauses = "correlationExpression (required), completionPredicate",
};

}  // namespace dromedary::eip
