// SPDX-License-Identifier: Apache-2.0
// The kafka consumer's group members: polling, one exchange per partition at a time,
// offsets stored after completion, pausing, rebalances and stopping. See kafka_consumer.h.
#include "kafka_consumer.h"

#include <librdkafka/rdkafka.h>

#include <concurrentqueue/concurrentqueue.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <thread>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/kafka/kafka.h>

#include "kafka_records.h"

namespace dromedary::component::kafka {

namespace {

using Clock = std::chrono::steady_clock;

const Logger& log() {
  static const Logger logger = Logger::get("kafka");
  return logger;
}

// The consumer handle a KafkaManualCommit commits through: cleared when the member closes it,
// so that a commit from an exchange that outlived its consumer fails instead of crashing.
struct CommitHandle {
  std::mutex mutex;
  rd_kafka_t* rk = nullptr;
};

class ManualCommit final : public KafkaManualCommit {
 public:
  ManualCommit(std::shared_ptr<CommitHandle> handle, std::string topic, int32_t partition,
               int64_t offset)
      : handle_(std::move(handle)), topic_(std::move(topic)), partition_(partition),
        offset_(offset) {}

  Result<void> commit() const override {
    std::lock_guard lock(handle_->mutex);
    if (!handle_->rk) {
      return makeError(ErrorCode::Io,
                       fmt::format("cannot commit {}[{}]@{}: the consumer has stopped", topic_,
                                   partition_, offset_));
    }
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(list, topic_.c_str(), partition_)->offset = offset_ + 1;
    rd_kafka_resp_err_t err = rd_kafka_commit(handle_->rk, list, 0);
    rd_kafka_topic_partition_list_destroy(list);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return makeError(ErrorCode::Io,
                       fmt::format("commit of {}[{}]@{} failed: {}", topic_, partition_, offset_,
                                   rd_kafka_err2str(err)));
    }
    return {};
  }
  const std::string& topic() const noexcept override { return topic_; }
  int32_t partition() const noexcept override { return partition_; }
  int64_t offset() const noexcept override { return offset_; }

 private:
  std::shared_ptr<CommitHandle> handle_;
  std::string topic_;
  int32_t partition_;
  int64_t offset_;
};

}  // namespace

// One member of the group. Everything but onDone runs on its thread.
//
// Its thread waits on one eventfd that every source of work signals: librdkafka when the
// consumer queue (rebalances, errors) or a partition's queue gets something (queue io
// events), and a completing exchange. Each partition's records stay in librdkafka's queue for
// that partition (forwarding to the consumer queue is turned off) until the partition is free:
// records waiting for a busy partition are held, bounded, by librdkafka's own prefetch limits
// (queued.min.messages, queued.max.messages.kbytes), and librdkafka stops fetching for a
// partition whose queue is full. No pausing, no buffer of our own.
class GroupMember {
 public:
  GroupMember(Context& context, const KafkaSettings& settings, Processor& route, int index)
      : context_(context), settings_(settings), route_(route), index_(index),
        commit_(std::make_shared<CommitHandle>()),
        wakeFd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

  ~GroupMember() {
    join();
    if (wakeFd_ >= 0) ::close(wakeFd_);
  }

  // Stops the member and waits for its thread to have committed and left the group.
  void join() noexcept {
    stop();
    if (thread_.joinable()) thread_.join();
  }

  // After join(): an exchange is still running (past the shutdown timeout) and will call
  // back into this member when it completes.
  bool hasInflight() const noexcept {
    for (const auto& p : partitions_) {
      if (p->inflight) return true;
    }
    return false;
  }

  Result<void> start() {
    if (wakeFd_ < 0) {
      return makeError(ErrorCode::Io, fmt::format("endpoint '{}': eventfd: {}", settings_.uri,
                                                  std::strerror(errno)));
    }
    DROMEDARY_TRY(conf, makeConf(settings_.uri, {&settings_.common, &settings_.consumer}));
    rd_kafka_conf_set_opaque(conf, this);
    rd_kafka_conf_set_rebalance_cb(conf, &GroupMember::onRebalance);
    rd_kafka_conf_set_error_cb(conf, &GroupMember::onError);
    installLogger(conf);
    char error[512];
    rk_ = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
    if (!rk_) {
      rd_kafka_conf_destroy(conf);
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': cannot create a Kafka consumer: {}",
                                   settings_.uri, error));
    }
    rd_kafka_poll_set_consumer(rk_);
    queue_ = rd_kafka_queue_get_consumer(rk_);
    rd_kafka_queue_io_event_enable(queue_, wakeFd_, &kWakeValue, sizeof kWakeValue);
    rd_kafka_topic_partition_list_t* topics =
        rd_kafka_topic_partition_list_new(static_cast<int>(settings_.topics.size()));
    for (const std::string& topic : settings_.topics) {
      std::string name = settings_.topicIsPattern && !topic.starts_with('^') ? "^" + topic : topic;
      rd_kafka_topic_partition_list_add(topics, name.c_str(), RD_KAFKA_PARTITION_UA);
    }
    rd_kafka_resp_err_t err = rd_kafka_subscribe(rk_, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      close();
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': cannot subscribe: {}", settings_.uri,
                                   rd_kafka_err2str(err)));
    }
    commit_->rk = rk_;
    thread_ = std::thread([this] { run(); });
    return {};
  }

  void stop() noexcept {
    stopping_.store(true);
    wake();
  }

  // Past the context's shutdown timeout: the thread stops waiting for its exchanges.
  void abandon() noexcept {
    abandoned_.store(true);
    stop();
  }

  std::string healthProblem() const {
    if (!brokersDown_.load(std::memory_order_relaxed)) return {};
    return fmt::format("the Kafka consumer of '{}' cannot reach any broker", settings_.uri);
  }

 private:
  static constexpr uint64_t kWakeValue = 1;  // what an eventfd write adds

  struct Partition {
    GroupMember* member = nullptr;
    std::string topic;
    int32_t id = 0;
    bool assigned = true;
    bool seeded = false;                // seekTo applied
    rd_kafka_queue_t* queue = nullptr;  // its records, while assigned
    rd_kafka_topic_t* handle = nullptr;  // the topic, for storing offsets
    Exchange* inflight = nullptr;
    int64_t inflightOffset = -1;
    // Records that reached the consumer queue before the partition's own queue was taken
    // (fetched between the assignment and the forwarding being turned off): a fetch at most.
    std::deque<rd_kafka_message_t*> early;
  };

  // --- the member's thread ---------------------------------------------------------------
  void run() noexcept {
    const int wait_ms = static_cast<int>(std::min<int64_t>(settings_.pollTimeout.count(), 1000));
    bool more = false;
    while (!stopping_.load(std::memory_order_relaxed)) {
      if (!more) waitForWork(wait_ms);
      serveConsumerQueue();
      drainCompletions();
      more = false;
      for (auto& p : partitions_) more |= pump(*p);
    }
    shutdown();
  }

  void waitForWork(int timeout_ms) noexcept {
    pollfd fd{wakeFd_, POLLIN, 0};
    if (::poll(&fd, 1, timeout_ms) > 0) {
      uint64_t count;
      while (::read(wakeFd_, &count, sizeof count) == sizeof count) {
      }
    }
  }

  // Rebalances, errors, and any record that came this way: without waiting.
  void serveConsumerQueue() {
    while (rd_kafka_message_t* record = rd_kafka_consumer_poll(rk_, 0)) onRecord(record);
  }

  void onRecord(rd_kafka_message_t* record) {
    if (record->err) {
      if (record->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        log().log(LoggingLevel::Warn,
                  fmt::format("Kafka consumer of '{}': {}", settings_.uri,
                              rd_kafka_message_errstr(record)));
      }
      rd_kafka_message_destroy(record);
      return;
    }
    Partition* p = find(rd_kafka_topic_name(record->rkt), record->partition);
    if (!p || !p->assigned) {  // fetched before a revoke: its new owner consumes it
      rd_kafka_message_destroy(record);
      return;
    }
    p->early.push_back(record);
  }

  // Starts the partition's next exchanges while it is free and has records, at most
  // maxPollRecords of them in a row (so that one busy partition does not starve the others).
  // True when it stopped at that limit with records left.
  bool pump(Partition& p) {
    for (int n = 0; n < settings_.maxPollRecords; ++n) {
      if (p.inflight || !p.assigned || stopping_.load(std::memory_order_relaxed)) return false;
      rd_kafka_message_t* record = nullptr;
      if (!p.early.empty()) {
        record = p.early.front();
        p.early.pop_front();
      } else if (p.queue) {
        record = rd_kafka_consume_queue(p.queue, 0);
      }
      if (!record) return false;
      if (record->err) {
        onRecord(record);  // an error event on the partition: logged
        continue;
      }
      brokersDown_.store(false, std::memory_order_relaxed);
      start(p, record);
    }
    return true;
  }

  void start(Partition& p, rd_kafka_message_t* record) {
    ExchangePtr exchange = context_.createExchange();
    try {
      recordToMessage(*record, settings_, exchange->message());
      if (settings_.allowManualCommit) {
        exchange->message().headers().set(
            header::kManualCommit,
            Value::object<KafkaManualCommit>(std::make_shared<const ManualCommit>(
                commit_, p.topic, p.id, record->offset)));
      }
    } catch (const std::exception& e) {
      // Never lost silently: the record is skipped with an error naming it.
      log().log(LoggingLevel::Error,
                fmt::format("Kafka consumer of '{}': cannot read the record {}[{}]@{}: {}; "
                            "skipped",
                            settings_.uri, p.topic, p.id, record->offset, e.what()));
      storeOffset(p, record->offset + 1);
      rd_kafka_message_destroy(record);
      return;
    }
    p.inflightOffset = record->offset;
    rd_kafka_message_destroy(record);
    p.inflight = exchange.release();
    // On this thread, as Camel runs a record's route on its consumer's thread: a step that
    // waits for I/O suspends the exchange and this thread goes on with other partitions; a
    // step that blocks holds this member's partitions (consumersCount gives more members).
    finishedInline_ = false;
    running_inline = this;
    processAsync(*p.inflight, route_, &GroupMember::onDone, &p, /*done_may_block=*/false);
    running_inline = nullptr;
    if (finishedInline_) finish(p);  // else its completion comes through the queue
  }

  // The partition's exchange has completed: its offset is stored (or, failed under
  // breakOnFirstError, the partition goes back to it).
  void finish(Partition& p) {
    Exchange* exchange = p.inflight;
    p.inflight = nullptr;
    bool failed = exchange->failed();
    ExchangeRecycler{}(exchange);
    if (!p.assigned) return;  // revoked meanwhile: its new owner decides
    if (failed && settings_.breakOnFirstError) {
      log().log(LoggingLevel::Warn,
                fmt::format("Kafka consumer of '{}': the exchange of {}[{}]@{} failed; "
                            "breakOnFirstError: consuming the partition again from there",
                            settings_.uri, p.topic, p.id, p.inflightOffset));
      dropEarly(p);
      rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
      rd_kafka_topic_partition_list_add(list, p.topic.c_str(), p.id)->offset = p.inflightOffset;
      // Waits for the seek: the records already in the partition's queue are then gone.
      if (rd_kafka_error_t* error = rd_kafka_seek_partitions(rk_, list, -1)) {
        rd_kafka_error_destroy(error);
      }
      rd_kafka_topic_partition_list_destroy(list);
      return;
    }
    storeOffset(p, p.inflightOffset + 1);
  }

  void storeOffset(Partition& p, int64_t next) {
    // (No handle once closed: an exchange that outlived the shutdown timeout and completed
    // while the consumer left the group is not committed.)
    if (!settings_.autoCommit || !p.handle) return;
    // The single-partition call: no list to build per record. It stores `offset + 1`.
    (void)rd_kafka_offset_store(p.handle, p.id, next - 1);  // fails only if no longer ours
  }

  void drainCompletions() {
    Partition* p;
    while (completions_.try_dequeue(p)) finish(*p);
  }

  // Waits until no exchange of a partition matching `which` is in flight, or the shutdown
  // timeout: completions meanwhile are finished (and their offsets stored).
  template <class Which>
  void awaitInflight(Which which) {
    auto deadline = Clock::now() + settings_.shutdownTimeout;
    auto busy = [&] {
      for (auto& p : partitions_) {
        if (p->inflight && which(*p)) return true;
      }
      return false;
    };
    while (busy()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0 || abandoned_.load()) {
        log().log(LoggingLevel::Warn,
                  fmt::format("Kafka consumer of '{}': exchanges still in flight {}; their "
                              "records are not committed and will be consumed again",
                              settings_.uri,
                              abandoned_.load()
                                  ? std::string("at the context's shutdown timeout")
                                  : fmt::format("after {} ms", settings_.shutdownTimeout.count())));
        return;
      }
      waitForWork(static_cast<int>(std::min<int64_t>(left.count(), 100)));
      drainCompletions();
    }
  }

  void commitStored() {
    if (!settings_.autoCommit || settings_.commitOnStop == CommitOnStop::None) return;
    rd_kafka_resp_err_t err =
        rd_kafka_commit(rk_, nullptr, settings_.commitOnStop == CommitOnStop::Async ? 1 : 0);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET) {
      log().log(LoggingLevel::Warn, fmt::format("Kafka consumer of '{}': commit failed: {}",
                                                settings_.uri, rd_kafka_err2str(err)));
    }
  }

  // Takes the partition's own queue: its records stay there, signalled on the eventfd.
  void takeQueue(Partition& p) {
    if (p.queue) return;
    p.queue = rd_kafka_queue_get_partition(rk_, p.topic.c_str(), p.id);
    if (!p.queue) return;  // unknown to librdkafka: its records come by the consumer queue
    rd_kafka_queue_forward(p.queue, nullptr);
    rd_kafka_queue_io_event_enable(p.queue, wakeFd_, &kWakeValue, sizeof kWakeValue);
    wake();  // it may hold records already
  }

  void releaseQueue(Partition& p) {
    if (!p.queue) return;
    rd_kafka_queue_io_event_enable(p.queue, -1, nullptr, 0);
    rd_kafka_queue_destroy(p.queue);
    p.queue = nullptr;
  }

  void rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts) {
    const bool cooperative = std::strcmp(rd_kafka_rebalance_protocol(rk_), "COOPERATIVE") == 0;
    if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
      brokersDown_.store(false, std::memory_order_relaxed);
      for (int i = 0; i < parts->cnt; ++i) {
        rd_kafka_topic_partition_t& tp = parts->elems[i];
        Partition* p = find(tp.topic, tp.partition);
        if (!p) {
          auto created = std::make_unique<Partition>();
          created->member = this;
          created->topic = tp.topic;
          created->id = tp.partition;
          created->handle = rd_kafka_topic_new(rk_, tp.topic, nullptr);
          p = created.get();
          partitions_.push_back(std::move(created));
        }
        p->assigned = true;
        if (!p->seeded && settings_.seekTo != SeekTo::None) {
          tp.offset = settings_.seekTo == SeekTo::Beginning ? RD_KAFKA_OFFSET_BEGINNING
                                                            : RD_KAFKA_OFFSET_END;
        }
        p->seeded = true;
        takeQueue(*p);
      }
      log().log(LoggingLevel::Info, fmt::format("Kafka consumer {} of '{}': assigned {}",
                                                index_, settings_.uri, describe(parts)));
      if (cooperative) {
        if (rd_kafka_error_t* e = rd_kafka_incremental_assign(rk_, parts)) rd_kafka_error_destroy(e);
      } else {
        rd_kafka_assign(rk_, parts);
      }
      return;
    }
    // Revoked (or lost): stop their work, let what is in flight finish, commit it.
    std::vector<Partition*> revoked;
    for (int i = 0; i < parts->cnt; ++i) {
      if (Partition* p = find(parts->elems[i].topic, parts->elems[i].partition)) {
        dropEarly(*p);
        revoked.push_back(p);
      }
    }
    awaitInflight([&](const Partition& p) {
      return std::find(revoked.begin(), revoked.end(), &p) != revoked.end();
    });
    if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS && !rd_kafka_assignment_lost(rk_)) {
      commitStored();
    }
    for (Partition* p : revoked) {
      p->assigned = false;
      releaseQueue(*p);
    }
    log().log(LoggingLevel::Info, fmt::format("Kafka consumer {} of '{}': revoked {}", index_,
                                              settings_.uri, describe(parts)));
    if (cooperative) {
      if (rd_kafka_error_t* e = rd_kafka_incremental_unassign(rk_, parts)) rd_kafka_error_destroy(e);
    } else {
      rd_kafka_assign(rk_, nullptr);
    }
  }

  void shutdown() noexcept {
    for (auto& p : partitions_) dropEarly(*p);
    awaitInflight([](const Partition&) { return true; });
    commitStored();
    close();
  }

  void close() noexcept {
    {
      std::lock_guard lock(commit_->mutex);
      commit_->rk = nullptr;
    }
    for (auto& p : partitions_) {
      releaseQueue(*p);
      if (p->handle) rd_kafka_topic_destroy(p->handle);
      p->handle = nullptr;
    }
    if (queue_) {
      rd_kafka_queue_io_event_enable(queue_, -1, nullptr, 0);
      rd_kafka_queue_destroy(queue_);  // before the close, as librdkafka asks
      queue_ = nullptr;
    }
    rd_kafka_consumer_close(rk_);  // leaves the group (the revoke callback runs once more)
    rd_kafka_destroy(rk_);
    rk_ = nullptr;
  }

  // Cuts the thread's wait short (a completion or a stop is waiting). Any thread.
  void wake() noexcept {
    [[maybe_unused]] ssize_t n = ::write(wakeFd_, &kWakeValue, sizeof kWakeValue);
  }

  void dropEarly(Partition& p) {
    for (rd_kafka_message_t* record : p.early) rd_kafka_message_destroy(record);
    p.early.clear();
  }

  Partition* find(const char* topic, int32_t id) {
    for (auto& p : partitions_) {
      if (p->id == id && p->topic == topic) return p.get();
    }
    return nullptr;
  }

  static std::string describe(const rd_kafka_topic_partition_list_t* parts) {
    std::string out;
    for (int i = 0; i < parts->cnt; ++i) {
      if (!out.empty()) out += ", ";
      out += fmt::format("{}[{}]", parts->elems[i].topic, parts->elems[i].partition);
    }
    return out.empty() ? "nothing" : out;
  }

  // --- callbacks ----------------------------------------------------------------------------
  static void onRebalance(rd_kafka_t*, rd_kafka_resp_err_t err,
                          rd_kafka_topic_partition_list_t* parts, void* opaque) {
    static_cast<GroupMember*>(opaque)->rebalance(err, parts);
  }

  // librdkafka's log lines already say what failed; this keeps the health check's view, and
  // reports what librdkafka will not recover from.
  static void onError(rd_kafka_t* rk, int err, const char* reason, void* opaque) {
    auto* self = static_cast<GroupMember*>(opaque);
    if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) self->brokersDown_.store(true);
    if (err == RD_KAFKA_RESP_ERR__FATAL) {
      char fatal[512];
      rd_kafka_fatal_error(rk, fatal, sizeof fatal);
      log().log(LoggingLevel::Error, fmt::format("Kafka consumer of '{}': fatal: {} ({})",
                                                 self->settings_.uri, fatal, reason));
    }
  }

  // Any thread: the exchange of `arg`'s partition has completed.
  static void onDone(Exchange&, void* arg) noexcept {
    auto* p = static_cast<Partition*>(arg);
    GroupMember* self = p->member;
    if (running_inline == self) {
      self->finishedInline_ = true;
      return;
    }
    self->completions_.enqueue(p);
    self->wake();
  }

  static thread_local GroupMember* running_inline;

  Context& context_;
  const KafkaSettings& settings_;
  Processor& route_;
  const int index_;
  std::shared_ptr<CommitHandle> commit_;
  const int wakeFd_;
  rd_kafka_t* rk_ = nullptr;
  rd_kafka_queue_t* queue_ = nullptr;  // the consumer queue
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> abandoned_{false};  // the context's stop gave up on its exchanges
  std::atomic<bool> brokersDown_{false};
  std::vector<std::unique_ptr<Partition>> partitions_;
  bool finishedInline_ = false;
  moodycamel::ConcurrentQueue<Partition*> completions_;
};

thread_local GroupMember* GroupMember::running_inline = nullptr;

KafkaConsumer::KafkaConsumer(Context& context, const KafkaSettings& settings, Processor& route)
    : context_(context), settings_(settings), route_(route) {}

KafkaConsumer::~KafkaConsumer() {
  for (auto& member : members_) {
    member->join();
    if (member->hasInflight()) {
      // Its exchanges will call back into it when they complete: it stays, unowned.
      log().log(LoggingLevel::Warn,
                fmt::format("Kafka consumer of '{}': exchanges outlived the consumer; their "
                            "records were not committed",
                            settings_.uri));
      (void)member.release();
    }
  }
}

Result<void> KafkaConsumer::start() {
  if (settings_.groupId.empty()) {
    log().log(LoggingLevel::Warn,
              fmt::format("Kafka consumer of '{}' has no groupId: it joins a group of its own, "
                          "with no committed offsets to come back to",
                          settings_.uri));
  }
  for (int i = 0; i < settings_.consumersCount; ++i) {
    auto member = std::make_unique<GroupMember>(context_, settings_, route_, i);
    DROMEDARY_TRY_VOID(member->start());
    members_.push_back(std::move(member));
  }
  return {};
}

void KafkaConsumer::stop() noexcept {
  for (auto& member : members_) member->stop();
}

size_t KafkaConsumer::abandonPending() noexcept {
  for (auto& member : members_) member->abandon();
  return 0;
}

std::string KafkaConsumer::healthProblem() const {
  for (const auto& member : members_) {
    if (std::string problem = member->healthProblem(); !problem.empty()) return problem;
  }
  return {};
}

}  // namespace dromedary::component::kafka
