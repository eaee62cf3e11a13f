// SPDX-License-Identifier: Apache-2.0
// seda:name: an in-memory queue between routes, as Camel's SEDA component.
//
// A queue exists per name (the first endpoint's `size` sets its bound) and has one
// subscription per consuming route (more than one only with multipleConsumers=true, each then
// receiving a copy of every message). A subscription is a lock-free MPMC queue (moodycamel)
// with a semaphore of free slots: producers share no lock, a full queue either fails the
// exchange ("Queue full"), or with blockWhenFull waits up to offerTimeout.
//
// The producer puts a copy on the queue (the original goes on at once) unless a reply is
// expected (InOut, or waitForTaskToComplete=Always): then the original is parked, without a
// thread, until a consumer has processed the copy (its result is copied back) or `timeout`
// passes. Consumers are `concurrentConsumers` threads per route; stopping one finishes what is
// queued (purgeWhenStopping=true drops it instead), so graceful shutdown loses nothing within
// its timeout; past it, what is still queued is left (and said).
//
// pollEnrich polls a queue (its first subscription) through the endpoint's polling consumer.
#include <array>
#include <deque>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <concurrentqueue/blockingconcurrentqueue.h>
#include <fmt/format.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/consumer_waits.h>

namespace dromedary {
namespace component::seda {

namespace {

constexpr OptionSpec kOptions[] = {
    {"size", OptionType::Int, "1000", "The most messages the queue holds"},
    {"concurrentConsumers", OptionType::Int, "1", "Threads consuming the queue for a route"},
    {"multipleConsumers", OptionType::Bool, "false",
     "Publish-subscribe: every consuming route receives a copy of each message"},
    {"waitForTaskToComplete", OptionType::Enum, "IfReplyExpected",
     "Whether the producer waits for the consumer to finish: IfReplyExpected (InOut), Always, "
     "Never",
     "IfReplyExpected,Always,Never"},
    {"timeout", OptionType::Duration, "30000",
     "How long a waiting producer waits for the consumer (0: for ever)"},
    {"blockWhenFull", OptionType::Bool, "false",
     "When the queue is full, wait for room (up to offerTimeout) instead of failing"},
    {"offerTimeout", OptionType::Duration, "0",
     "How long blockWhenFull waits for room (0: for ever)"},
    {"discardIfNoConsumers", OptionType::Bool, "false",
     "Drop the message (the exchange goes on) when no route consumes the queue"},
    {"failIfNoConsumers", OptionType::Bool, "false",
     "Fail the exchange when no route consumes the queue"},
    {"purgeWhenStopping", OptionType::Bool, "false",
     "When a consumer stops, drop what is queued instead of finishing it"},
};

enum class WaitMode { IfReplyExpected, Always, Never };

// A producer waiting for the consumer's result. Three owners: the consumer's completion, the
// timeout's task, and the producer until it has scheduled that task (the consumer may answer
// and the task run before it is done). Whichever of the first two settles it first wins; the
// last to let go deletes it.
struct PendingReply {
  std::atomic<int> state{0};  // 0 waiting, 1 completed, 2 timed out
  std::atomic<int> refs{3};
  Exchange* original;
  // The timeout's task once scheduled (0 until then, or without one): the consumer cancels it,
  // and a task cancelled never runs, so the consumer lets go of the task's reference too.
  std::atomic<Scheduler::TimerId> timer{0};
  std::string_view uri;
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
};

// A queued message: the copy, and the waiting producer's record when there is one.
struct Item {
  Exchange* exchange;
  PendingReply* reply;
};

void resumeOriginal(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

class Subscription {
 public:
  explicit Subscription(size_t capacity)
      : slots_(static_cast<moodycamel::LightweightSemaphore::ssize_t>(capacity)) {}
  ~Subscription() {
    // Messages nobody consumed before the context went away: give the exchanges back.
    Item item;
    while (takeReturned(item) || queue_.try_dequeue(item)) {
      if (item.reply) item.reply->release();
      ExchangeRecycler{}(item.exchange);
    }
  }

  // Takes a slot (waiting per the producer's options); false when the queue stays full.
  bool reserve(bool block, std::chrono::milliseconds timeout) noexcept {
    if (slots_.tryWait()) return true;
    if (!block) return false;
    if (timeout.count() <= 0) return slots_.wait();
    return slots_.wait(std::chrono::duration_cast<std::chrono::microseconds>(timeout).count());
  }
  void unreserve() noexcept { slots_.signal(); }
  void push(Item item) noexcept {
    if (!queue_.enqueue(item)) {  // out of memory: fail rather than lose it silently
      item.exchange->fail(ErrorCode::Internal, "Could not queue the message");
      settle(item);
    }
  }

  bool attached() const noexcept { return attached_.load(std::memory_order_acquire); }

  // pollEnrich: the next queued message, the caller's to keep, or null when none came within
  // `timeout` (negative: for ever) or the context began to stop. Waits in short slices so a
  // stopping context is noticed. A producer waiting for the message is answered at once with
  // the message as it was queued: a poller is not a route whose result could go back.
  ExchangePtr poll(std::chrono::milliseconds timeout, const Context& context) noexcept {
    using namespace std::chrono;
    constexpr milliseconds kSlice(100);
    Item item;
    bool got = queue_.try_dequeue(item);
    auto deadline = steady_clock::now() + timeout;
    while (!got && timeout.count() != 0 && !context.isStopping()) {
      microseconds wait = kSlice;
      if (timeout.count() > 0) {
        auto left = duration_cast<microseconds>(deadline - steady_clock::now());
        if (left.count() <= 0) break;
        wait = std::min(wait, left);
      }
      got = queue_.wait_dequeue_timed(item, wait);
    }
    if (!got) return nullptr;
    slots_.signal();
    answer(item);
    return ExchangePtr(item.exchange);
  }

  void attach(Processor& route, int threads, bool purge) {
    halt();  // the threads of a stop (or suspension) take nothing more
    route_ = &route;
    purge_ = purge;
    stopping_.store(false);
    abandoned_.store(false);
    waits_.reset();
    attached_.store(true, std::memory_order_release);
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { consume(); });
  }

  // Stopping in steps, as the context's shutdown goes: no longer attached (producers see no
  // consumer), the threads go on with what is queued and end once it is empty; abandon() ends
  // them after the message each is on, leaving the rest queued; halt() (the consumer goes,
  // past the stop's timeout if need be) gives up the messages they are on, which end alone,
  // and waits for the threads.
  void requestStop() noexcept {
    attached_.store(false, std::memory_order_release);
    stopping_.store(true);
  }
  size_t pending() const noexcept {
    return queue_.size_approx() + returned_count_.load(std::memory_order_relaxed);
  }
  size_t abandon() noexcept {
    abandoned_.store(true);
    return queue_.size_approx();
  }
  void halt() noexcept {
    abandoned_.store(true);
    waits_.abandon();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }
  void detach() noexcept {
    requestStop();
    halt();
  }

 private:
  void consume() {
    ConsumerWaits::Member member(waits_);
    consumeWith(member.slot());
  }

  void consumeWith(ConsumerWaits::Slot& slot) {
    moodycamel::ConsumerToken token(queue_);
    Item item;
    while (!abandoned_.load()) {
      bool got = takeReturned(item) ||
                 queue_.wait_dequeue_timed(token, item, std::chrono::milliseconds(50));
      if (!got) {
        if (stopping_.load()) return;  // stopped and drained
        continue;
      }
      if (abandoned_.load()) {  // taken as the consumer was halted: the next one's first
        giveBack(item);
        return;
      }
      slots_.signal();
      if (stopping_.load() && purge_) {
        item.exchange->fail(ErrorCode::RouteNotStarted, "Purged from the queue on stop");
        settle(item);
        continue;
      }
      switch (waits_.process(slot, *item.exchange, *route_, &settleAbandoned, item.reply)) {
        case ConsumerWaits::Outcome::Abandoned: return;  // it ends alone: settleAbandoned
        case ConsumerWaits::Outcome::Refused:  // halted since the check above: not routed
          // Its place in the queue, freed above, is taken back. Should a producer have taken
          // it in this instant, the queue may hold one more than its size from now on.
          slots_.tryWait();
          giveBack(item);
          return;
        default: settle(item);
      }
    }
  }

  static void settleAbandoned(Exchange& exchange, void* reply) noexcept {
    settle(Item{&exchange, static_cast<PendingReply*>(reply)});
  }

  // Items taken from the queue after the consumer was halted (a suspension, an abandoned
  // stop): kept for the next consumer, before the queue, so the order stays.
  void giveBack(Item item) {
    std::lock_guard lock(returned_mutex_);
    returned_.push_back(item);
    returned_count_.store(returned_.size(), std::memory_order_relaxed);
  }
  bool takeReturned(Item& item) {
    if (returned_count_.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lock(returned_mutex_);
    if (returned_.empty()) return false;
    item = returned_.front();
    returned_.pop_front();
    returned_count_.store(returned_.size(), std::memory_order_relaxed);
    return true;
  }

  // The consumer is done with an item: hand the result to a waiting producer, recycle the copy.
  static void settle(Item item) noexcept {
    answer(item);
    ExchangeRecycler{}(item.exchange);
  }

  // A producer waiting for this item gets its result (copied back) and goes on.
  static void answer(Item item) noexcept {
    PendingReply* reply = item.reply;
    if (!reply) return;
    int waiting = 0;
    if (reply->state.compare_exchange_strong(waiting, 1)) {
      Exchange& original = *reply->original;
      Context& context = *original.context();
      Scheduler::TimerId timer = reply->timer.load();  // after the state (see process())
      if (timer != 0 && context.scheduler().cancel(timer)) reply->release();  // the task's
      try {
        original.copyFrom(*item.exchange);
        if (item.exchange->failed()) {
          original.failWithDetail(item.exchange->error().code, "Consumer failed",
                                  item.exchange->error().message());
        }
      } catch (...) {
        original.setException(std::current_exception());
      }
      context.submit({&resumeOriginal, &original});
    }
    reply->release();
  }

  moodycamel::BlockingConcurrentQueue<Item> queue_;
  moodycamel::LightweightSemaphore slots_;
  std::atomic<bool> attached_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> abandoned_{false};
  std::mutex returned_mutex_;
  std::deque<Item> returned_;  // under returned_mutex_
  std::atomic<size_t> returned_count_{0};
  bool purge_ = false;
  Processor* route_ = nullptr;
  std::vector<std::thread> threads_;
  ConsumerWaits waits_;
};

// One named queue: up to kMaxSubscribers consuming routes. The list is read by producers
// without a lock: slots are set once and never freed before the queue.
class Queue {
 public:
  static constexpr size_t kMaxSubscribers = 16;

  explicit Queue(size_t capacity) : capacity_(capacity) {
    subscriptions_[0] = std::make_unique<Subscription>(capacity);
    count_.store(1);
  }

  size_t capacity() const noexcept { return capacity_; }
  size_t subscriptionCount() const noexcept { return count_.load(std::memory_order_acquire); }
  Subscription& subscription(size_t i) noexcept { return *subscriptions_[i]; }

  // A subscription for a new consuming route, or nullptr when one exists and `multiple` is off.
  Subscription* subscribe(bool multiple) {
    std::lock_guard lock(mutex_);
    size_t n = count_.load();
    for (size_t i = 0; i < n; ++i) {
      if (!subscriptions_[i]->attached()) return subscriptions_[i].get();
      if (!multiple) return nullptr;
    }
    if (n == kMaxSubscribers) return nullptr;
    subscriptions_[n] = std::make_unique<Subscription>(capacity_);
    count_.store(n + 1, std::memory_order_release);
    return subscriptions_[n].get();
  }

  bool anyConsumer() const noexcept {
    size_t n = count_.load(std::memory_order_acquire);
    for (size_t i = 0; i < n; ++i) {
      if (subscriptions_[i]->attached()) return true;
    }
    return false;
  }

 private:
  size_t capacity_;
  std::mutex mutex_;
  std::array<std::unique_ptr<Subscription>, kMaxSubscribers> subscriptions_;
  std::atomic<size_t> count_{0};
};

struct ProducerSettings {
  WaitMode wait;
  std::chrono::milliseconds timeout;
  bool blockWhenFull;
  std::chrono::milliseconds offerTimeout;
  bool discardIfNone;
  bool failIfNone;
};

void timeoutReply(void* arg) noexcept {
  auto* reply = static_cast<PendingReply*>(arg);
  int waiting = 0;
  if (reply->state.compare_exchange_strong(waiting, 2)) {
    Exchange& original = *reply->original;
    original.fail(ErrorCode::Timeout, "Timed out waiting for the seda consumer to complete",
                  reply->uri);
    original.context()->submit({&resumeOriginal, &original});
  }
  reply->release();
}

class SedaProducer final : public Producer {
 public:
  SedaProducer(Queue& queue, std::string uri, ProducerSettings settings)
      : queue_(queue), uri_(std::move(uri)), settings_(settings) {}

  Status process(Exchange& ex) noexcept override {
    if (!queue_.anyConsumer()) {
      if (settings_.discardIfNone) return Status::Continue;
      if (settings_.failIfNone) {
        ex.fail(ErrorCode::NoConsumers, "No consumers available on endpoint", uri_);
        return Status::Fail;
      }
    }
    bool wait = settings_.wait == WaitMode::Always ||
                (settings_.wait == WaitMode::IfReplyExpected && ex.pattern() == Pattern::InOut);
    size_t n = queue_.subscriptionCount();
    // Room first, in every subscription that will get a copy: all or nothing.
    size_t reserved = 0;
    for (; reserved < n; ++reserved) {
      Subscription& s = queue_.subscription(reserved);
      if (reserved > 0 && !s.attached()) continue;
      if (!s.reserve(settings_.blockWhenFull, settings_.offerTimeout)) break;
    }
    if (reserved < n) {
      for (size_t i = 0; i < reserved; ++i) {
        Subscription& s = queue_.subscription(i);
        if (i == 0 || s.attached()) s.unreserve();
      }
      ex.fail(settings_.blockWhenFull ? ErrorCode::Timeout : ErrorCode::LimitExceeded,
              settings_.blockWhenFull ? "Queue full: no room within offerTimeout" : "Queue full",
              uri_);
      return Status::Fail;
    }
    // Read now: once its copy is queued, `ex` may be answered and resumed on another thread,
    // and this thread touches it no more.
    Scheduler& scheduler = ex.context()->scheduler();
    PendingReply* reply = nullptr;
    if (wait) {
      reply = new (std::nothrow) PendingReply();
      if (!reply) {
        ex.fail(ErrorCode::Internal, "Could not wait for the reply");
        return Status::Fail;
      }
      reply->original = &ex;
      reply->uri = uri_;
    }
    // The first subscription's copy last: it carries the reply, and once it is queued `ex`
    // may be answered and resumed elsewhere, so every copy of `ex` is made before it.
    for (size_t i = n; i-- > 0;) {
      Subscription& s = queue_.subscription(i);
      if (i > 0 && !s.attached()) continue;
      Exchange* copy = ex.context()->createExchange().release();
      try {
        copy->copyFrom(ex);
        loadFileBody(copy->message().body());  // the file moves once `ex` completes
      } catch (...) {
        copy->setException(std::current_exception());
      }
      // Only the first subscription's result goes back to a waiting producer.
      s.push(Item{copy, i == 0 ? reply : nullptr});
    }
    if (!reply) return Status::Continue;
    // The timeout's task, unless the answer came already. The answer (state, then timer) and
    // this (timer, then state) each look at what the other wrote, sequentially consistent: one
    // of the two sees the other and cancels the task, which holds the record until it runs.
    Scheduler::TimerId timer = 0;
    if (settings_.timeout.count() > 0 && reply->state.load() == 0) {
      timer = scheduler.scheduleAfter(settings_.timeout, {&timeoutReply, reply});
    }
    if (timer != 0) {
      reply->timer.store(timer);
      if (reply->state.load() != 0 && scheduler.cancel(timer)) reply->release();  // the task's
    } else {
      reply->release();  // no timeout (or none could be scheduled): the task's reference
    }
    reply->release();  // this producer's
    return Status::Suspend;
  }

 private:
  Queue& queue_;
  std::string uri_;
  ProducerSettings settings_;
};

class SedaPollingConsumer final : public PollingConsumer {
 public:
  SedaPollingConsumer(Context& context, Subscription& subscription)
      : context_(context), subscription_(subscription) {}
  ExchangePtr receive(std::chrono::milliseconds timeout) noexcept override {
    return subscription_.poll(timeout, context_);
  }

 private:
  Context& context_;
  Subscription& subscription_;
};

class SedaConsumer final : public Consumer {
 public:
  SedaConsumer(Subscription& subscription, Processor& route, int threads, bool purge)
      : subscription_(subscription), route_(route), threads_(threads), purge_(purge) {}
  ~SedaConsumer() override { subscription_.detach(); }

  Result<void> start() override {
    if (!running_) subscription_.attach(route_, threads_, purge_);
    running_ = true;
    return {};
  }
  // Returns at once: the queue drains behind it (pendingExchanges), the context waiting for
  // that up to its shutdown timeout; the threads are joined when it goes, or starts again.
  void stop() noexcept override {
    if (running_) subscription_.requestStop();
    running_ = false;
  }
  // purgeWhenStopping: the queue is dropped on stop, so nothing is gained by deferring.
  bool internal() const noexcept override { return !purge_; }
  size_t pendingExchanges() const noexcept override { return subscription_.pending(); }
  size_t abandonPending() noexcept override { return subscription_.abandon(); }

 private:
  Subscription& subscription_;
  Processor& route_;
  int threads_;
  bool purge_;
  bool running_ = false;
};

class SedaEndpoint final : public Endpoint {
 public:
  SedaEndpoint(Component& component, const Uri& uri, EndpointOptions options, Queue& queue)
      : Endpoint(component, uri, std::move(options)), queue_(queue) {}

  std::string exclusiveConsumerKey() const override {
    if (options().getBool("multipleConsumers")) return {};
    return "seda:" + std::string(parsedUri().path());
  }

  Result<std::unique_ptr<Producer>> createProducer() override {
    const std::string& mode = options().getString("waitForTaskToComplete");
    ProducerSettings s{mode == "Always"  ? WaitMode::Always
                       : mode == "Never" ? WaitMode::Never
                                         : WaitMode::IfReplyExpected,
                       options().getDuration("timeout"), options().getBool("blockWhenFull"),
                       options().getDuration("offerTimeout"),
                       options().getBool("discardIfNoConsumers"),
                       options().getBool("failIfNoConsumers")};
    return std::unique_ptr<Producer>(new SedaProducer(queue_, uri(), s));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    int64_t threads = options().getInt("concurrentConsumers");
    if (threads < 1 || threads > 1000) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("concurrentConsumers must be 1 to 1000 for '{}'", uri()));
    }
    Subscription* s = queue_.subscribe(options().getBool("multipleConsumers"));
    if (!s) {
      return makeError(ErrorCode::DuplicateConsumer,
                       fmt::format("'{}' already has a consuming route; set "
                                   "multipleConsumers=true for publish-subscribe",
                                   uri()));
    }
    return std::unique_ptr<Consumer>(new SedaConsumer(*s, processor,
                                                      static_cast<int>(threads),
                                                      options().getBool("purgeWhenStopping")));
  }

  // Polls the queue's first subscription: what the producers of a queue without
  // multipleConsumers fill. A route consuming the queue too competes for the same messages.
  Result<std::unique_ptr<PollingConsumer>> createPollingConsumer() override {
    return std::unique_ptr<PollingConsumer>(
        new SedaPollingConsumer(context(), queue_.subscription(0)));
  }

 private:
  Queue& queue_;
};

class SedaComponent final : public Component {
 public:
  std::string_view scheme() const override { return "seda"; }
  std::string_view syntax() const override { return "seda:name"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("a seda queue needs a name: seda:name, not '{}'", uri.text()));
    }
    int64_t size = options.getInt("size");
    if (size < 1) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("size must be at least 1 for '{}'", uri.text()));
    }
    std::lock_guard lock(mutex_);
    auto it = queues_.find(uri.path());
    if (it == queues_.end()) {
      it = queues_.emplace(std::string(uri.path()), std::make_unique<Queue>(static_cast<size_t>(size))).first;
    }
    return std::unique_ptr<Endpoint>(new SedaEndpoint(*this, uri, std::move(options), *it->second));
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Queue>, std::less<>> queues_;
};

}  // namespace

}  // namespace component::seda

void registerSedaComponent(Context& context) {
  context.addComponent(std::make_unique<component::seda::SedaComponent>());
}

}  // namespace dromedary
