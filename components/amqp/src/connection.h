// SPDX-License-Identifier: Apache-2.0
#pragma once

// One AMQP connection to the broker, driven on the component's Proton thread.
//
// Other threads only post commands (send this exchange, settle that delivery, add or remove
// a consumer) into a lock-free queue; a single wake-up per batch runs them on the Proton
// thread, which owns every link, the request table and the timeout wheel: no lock anywhere
// on the message path.
//
// Producers: one sender link per address, created on first use and kept. A request (InOut)
// takes a slot in the request table; its message id (and the correlation id the responder
// echoes) is "<container id>:<slot sequence>", so a reply finds its slot by parsing, with no
// map. One reply receiver per connection serves every request in flight: a dynamic node
// (Temporary), or a named queue (Exclusive/Shared). A slot sits on a timing wheel until the
// reply, the broker's confirmation, or requestTimeout.
//
// Consumers: `concurrentConsumers` receiver links per consuming route, each processing its
// messages one at a time in order, on the context's workers; the delivery is accepted only
// when its exchange completes (released when it failed, so the broker redelivers), credit is
// granted one for one, so memory stays bounded by `prefetch`.
//
// If the transport fails: requests on the wire fail at once with a clear error (the error
// handler may redeliver), messages not yet sent wait for the reconnect (until their
// timeout), consumer deliveries in flight are left to the broker to redeliver; reconnects
// back off exponentially and links are re-created. State changes are logged once.

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <concurrentqueue/concurrentqueue.h>
#include <proton/terminus.hpp>
#include <proton/connection.hpp>
#include <proton/delivery.hpp>
#include <proton/error_condition.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/messaging_handler.hpp>
#include <proton/receiver.hpp>
#include <proton/sender.hpp>
#include <proton/work_queue.hpp>

#include <dromedary/amqp/amqp_component.h>
#include <dromedary/core/exchange.h>
#include <dromedary/core/logging.h>
#include <dromedary/spi/processor.h>

#include "message_codec.h"

namespace dromedary::component::amqp {

class Client;
class Connection;

enum class ReplyToType { Temporary, Shared, Exclusive };

/// A producer endpoint's settings, fixed when the endpoint is created.
struct ProducerSpec {
  std::string uri;      ///< the endpoint URI, for errors
  std::string address;  ///< the broker address (prefix applied)
  int forcedPattern = -1;  ///< exchangePattern: -1 the exchange's, else a Pattern value
  bool disableReplyTo = false;
  ReplyToType replyToType = ReplyToType::Temporary;
  std::string replyAddress;  ///< Shared/Exclusive: the reply queue's broker address
  std::chrono::milliseconds requestTimeout{20000};
  OutgoingQos qos;
  bool transferException = false;
  /// headerFilterStrategy: which headers are sent, and taken from replies.
  std::shared_ptr<const HeaderFilterStrategy> headerFilter = amqpHeaderFilterStrategy();
};

/// A consumer endpoint's settings.
struct ConsumerSpec {
  std::string uri;
  std::string address;
  int concurrentConsumers = 1;
  uint32_t prefetch = 100;
  std::string selector;
  std::string durableSubscriptionName;
  bool topic = false;  ///< amqp:topic:NAME (else a queue, attached durable per durableQueues)
  bool disableReplyTo = false;
  bool transferException = false;
  OutgoingQos replyQos;
  /// headerFilterStrategy: which properties become headers, and which headers are replied.
  std::shared_ptr<const HeaderFilterStrategy> headerFilter = amqpHeaderFilterStrategy();
};

class ConsumerLink;

/// An AMQP error condition as one line ("amqp:not-found: no exchange ..."), or `fallback`.
std::string describeCondition(const proton::error_condition& e, const char* fallback);

/// A consuming route's links. Shared by the consumer (which starts and stops it) and the
/// connection (which keeps it until its last exchange in flight has settled).
struct ConsumerGroup {
  ConsumerSpec spec;
  Context* context = nullptr;
  Processor* route = nullptr;
  bool runInline = false;  // the route runs on the Proton thread (it cannot block)
  std::vector<std::unique_ptr<ConsumerLink>> links;  // Proton thread
  int inflight = 0;                                   // Proton thread
  bool stopping = false;                              // Proton thread
  // Its links closed and the group retired (written on the Proton thread, read by any).
  std::atomic<bool> released{false};
  // Once its intake stopped: its exchanges not yet settled (Consumer::completing, any thread).
  std::atomic<int> unsettled{0};
  std::atomic<int> attached{0};  // links the broker has opened and not ended (health)
  bool startedSignalled = false;  // Proton thread
  // Why the broker refused a link before the group started (empty: it did not). Written on
  // the Proton thread before `started` is set; read by the starting thread after.
  std::string refusal;
  std::promise<void> started;
  // Proton thread: the threads waiting for the links to close (stopIntake, removeConsumer).
  std::vector<std::shared_ptr<std::promise<void>>> stopped;
};

/// What StopIntake and RemoveConsumer carry: the group, and the promise its caller waits on.
struct GroupCommand {
  std::shared_ptr<ConsumerGroup> group;
  std::shared_ptr<std::promise<void>> done;
};

class Connection final : public proton::messaging_handler {
 public:
  Connection(Client& client, Context& context, AmqpConfig config, std::string container_id);
  ~Connection() override;

  // --- any thread ---
  /// Sends `exchange` per `spec`; the exchange is parked (Status::Suspend) and resumed once
  /// sent/confirmed/replied, or failed. False (the exchange failed) when it could not be
  /// queued at all.
  bool send(Exchange& exchange, const ProducerSpec& spec) noexcept;
  /// Starts consuming; returns once every link is attached or `wait` has passed.
  void addConsumer(const std::shared_ptr<ConsumerGroup>& group, std::chrono::milliseconds wait);
  /// A graceful stop's first step: no message goes into the route from now on, while the
  /// exchanges in the route keep their link, so that their end is acknowledged; the links
  /// close once the last one is settled, and the messages prefetched and not started go back
  /// to the broker then. Returns once applied (and, with nothing in flight, once the links are
  /// closed).
  void stopIntake(const std::shared_ptr<ConsumerGroup>& group);
  /// Stops consuming at once: links closed (what is unsettled the broker delivers again),
  /// prefetched messages released; with `wait`, returns when done.
  void removeConsumer(const std::shared_ptr<ConsumerGroup>& group, bool wait = true);
  /// Connects (on the Proton thread); reconnects by itself after that.
  void start();
  /// Closes the connection; exchanges still waiting fail. Blocks until done.
  void close();

  uint64_t openedCount() const noexcept { return opened_.load(std::memory_order_relaxed); }
  bool isOpen() const noexcept { return open_flag_.load(std::memory_order_relaxed); }
  const std::string& remoteUri() const noexcept { return config_.remoteUri; }

  /// A consumed exchange completed (any thread): settle its delivery on the Proton thread.
  void postSettle(ConsumerLink& link, Exchange& exchange, uint64_t generation) noexcept;

  // --- Proton thread (called by ConsumerLink and the client) ---
  void settleConsumed(ConsumerLink& link, Exchange& exchange, uint64_t generation) noexcept;
  uint64_t generation() const noexcept { return generation_; }
  Context& context() noexcept { return context_; }
  const std::string& id() const noexcept { return id_; }
  void drain() noexcept;
  void setWorkQueue(proton::work_queue* queue) noexcept;

 private:
  enum class Op : uint8_t { Send, Settle, AddConsumer, StopIntake, RemoveConsumer, Connect, Close };
  struct Command {
    Op op;
    Exchange* exchange;
    const void* target;  // ProducerSpec, ConsumerLink, or a ConsumerGroup holder
    uint64_t generation;
  };

  // The request table: one slot per exchange waiting on this connection.
  enum class SlotState : uint8_t { Free, Queued, AwaitSettle, AwaitReply };
  static constexpr uint32_t kNone = ~uint32_t{0};
  struct Slot {
    Exchange* exchange = nullptr;
    const ProducerSpec* spec = nullptr;
    uint32_t gen = 0;
    SlotState state = SlotState::Free;
    bool request = false;
    uint64_t deadlineTick = 0;  // 0: no timeout
    uint32_t timerPrev = kNone, timerNext = kNone;
    uint32_t nextFree = kNone;
    std::string userCorrelation;  // a JMSCorrelationID the request carried
  };
  struct Outgoing {
    uint32_t slot;
    uint32_t gen;
    std::unique_ptr<proton::message> prebuilt;  // a consumer's reply: no slot
  };
  struct SenderLink {
    proton::sender sender;
    bool attached = false;  // open on the current connection
    bool ready = false;     // the broker attached it
    uint32_t unsettled = 0;  // handed to Proton, no outcome from the broker yet
    std::deque<Outgoing> queue;
  };
  /// At most this many messages per sender wait for the broker's outcome; the next ones wait
  /// in the sender's queue (their producers with them). The broker's credit is no bound on
  /// memory: RabbitMQ grants 65,536, and fire-and-forget sends (deliveryPersistent=false)
  /// would otherwise buffer whole batches in this process.
  static constexpr uint32_t kMaxUnsettled = 256;
  struct ReplyReceiver {
    proton::receiver receiver;
    std::string address;  // the dynamic node's address once attached
    bool attached = false;
    bool ready = false;
    std::string refused;  // why the broker refused it (then requests fail at once)
    bool shared = false;  // Shared: replies for other requesters are released, not dropped
  };

  bool post(Command command) noexcept;
  void run(const Command& command) noexcept;
  void connectNow();
  void scheduleReconnect();
  void connectionLost(const std::string& reason);
  void openLinks();

  // Requests (requests.cc).
  void handleSend(Exchange& exchange, const ProducerSpec& spec) noexcept;
  uint32_t allocSlot(Exchange& exchange, const ProducerSpec& spec, bool request) noexcept;
  void finish(uint32_t slot, bool resume = true) noexcept;
  void failSlot(uint32_t slot, ErrorCode code, std::string_view reason, std::string detail);
  std::string correlationId(uint32_t slot) const;
  uint32_t slotOfCorrelation(std::string_view id) const noexcept;
  uint32_t slotOfTag(const proton::binary& tag) const noexcept;
  SenderLink& senderFor(const std::string& address);
  ReplyReceiver& replyReceiverFor(const ProducerSpec& spec);
  void openSender(const std::string& address, SenderLink& link);
  void openReplyReceiver(const std::string& key, ReplyReceiver& rr);
  /// Fails every message of `link` still waiting to be sent (replies it holds are kept).
  void failQueued(SenderLink& link, ErrorCode code, std::string_view reason,
                  const std::string& detail);
  /// The broker refused a sender: its messages fail naming the address; it is forgotten
  /// (the next message opens it again).
  void refuseSender(std::unordered_map<std::string, SenderLink>::iterator it,
                    const std::string& reason);
  /// The broker refused a reply queue: requests needing it fail, now and from now on.
  void refuseReplyReceiver(const std::string& key, ReplyReceiver& rr, const std::string& reason);
  void flush(const std::string& address, SenderLink& link) noexcept;
  /// Sends a message no slot waits for (a reply a consumer route sends back).
  void sendUntracked(SenderLink& link, const proton::message& message);
  void flushAll() noexcept;
  void onReply(proton::delivery& delivery, proton::message& message) noexcept;
  void onTracker(proton::tracker& tracker, bool accepted, std::string_view outcome) noexcept;
  /// The request or at-least-once send the tracker belongs to, if any, completes or fails.
  void settleSlot(proton::tracker& tracker, bool accepted, std::string_view outcome) noexcept;
  /// The broker gave a delivery its outcome: one place more in its sender's window.
  void outcomeArrived(const proton::tracker& tracker) noexcept;
  void failInFlight(const std::string& reason) noexcept;
  // The timing wheel (requests.cc).
  void armTimer(uint32_t slot, std::chrono::milliseconds timeout) noexcept;
  void disarmTimer(uint32_t slot) noexcept;
  void onTick() noexcept;
  void expire(uint32_t slot) noexcept;
  void scheduleTick();

  // Consumers (consumers.cc).
  void openConsumer(ConsumerGroup& group);
  void stopConsumer(const std::shared_ptr<ConsumerGroup>& group);
  void stopConsumerIntake(const std::shared_ptr<ConsumerGroup>& group);
  void sendReply(ConsumerLink& link, Exchange& exchange) noexcept;
  void releaseGroupIfDone(ConsumerGroup& group);

  // proton::messaging_handler
  void on_connection_open(proton::connection& c) override;
  void on_transport_error(proton::transport& t) override;
  void on_transport_close(proton::transport& t) override;
  void on_connection_error(proton::connection& c) override;
  void on_session_error(proton::session& s) override;
  void on_error(const proton::error_condition& e) override;
  void on_sender_open(proton::sender& s) override;
  void on_sender_error(proton::sender& s) override;
  void on_sendable(proton::sender& s) override;
  void on_receiver_open(proton::receiver& r) override;
  void on_receiver_error(proton::receiver& r) override;
  void on_message(proton::delivery& d, proton::message& m) override;
  void on_tracker_accept(proton::tracker& t) override;
  void on_tracker_reject(proton::tracker& t) override;
  void on_tracker_release(proton::tracker& t) override;
  void on_tracker_settle(proton::tracker& t) override;

  Client& client_;
  Context& context_;
  const AmqpConfig config_;
  /// How a queue's node is attached (senders, consumers, named reply queues alike):
  /// RabbitMQ declares the queue on attach, durable or not as asked (durableQueues).
  enum proton::terminus::durability_mode queueDurability() const noexcept {
    return config_.durableQueues ? proton::terminus::CONFIGURATION : proton::terminus::NONDURABLE;
  }
  const std::string id_;
  Logger log_;

  moodycamel::ConcurrentQueue<Command> commands_;
  std::atomic<bool> wake_pending_{false};
  std::mutex work_queue_mutex_;
  proton::work_queue* work_queue_ = nullptr;  // the open connection's
  std::atomic<uint64_t> opened_{0};
  std::atomic<bool> open_flag_{false};

  // Proton thread only from here on.
  proton::connection connection_;
  bool open_ = false;
  bool connecting_ = false;
  bool closed_ = false;
  bool lost_logged_ = false;
  uint64_t generation_ = 0;
  uint64_t lost_generation_ = 0;  // the generation whose loss was handled
  std::chrono::milliseconds backoff_{0};
  std::unordered_map<std::string, SenderLink> senders_;
  std::unordered_map<std::string, ReplyReceiver> replies_;  // "" = the temporary node
  std::vector<Slot> slots_;
  uint32_t free_head_ = kNone;
  uint32_t live_ = 0;
  std::unordered_map<std::string, uint32_t> user_correlation_;  // JMSCorrelationID -> slot
  std::vector<std::shared_ptr<ConsumerGroup>> consumers_;
  // Stopped groups: Proton may still hold their links' handlers until the connection ends.
  std::vector<std::shared_ptr<ConsumerGroup>> retired_;
  proton::message scratch_;
  std::string error_;
  std::vector<char> encoded_;   // the encode buffer every send reuses (link_send.h)
  uint32_t untrackedTag_ = 0;   // tags of sends no slot waits for: 4 bytes, never a slot's 8
  // Timing wheel: kWheel buckets of kTick each; a slot hangs in bucket deadlineTick % kWheel.
  static constexpr uint32_t kWheel = 512;
  static constexpr std::chrono::milliseconds kTick{10};
  std::vector<uint32_t> wheel_ = std::vector<uint32_t>(kWheel, kNone);
  uint64_t wheel_tick_ = 0;  // the last tick processed
  uint32_t timed_ = 0;       // slots on the wheel
  bool tick_scheduled_ = false;
  std::chrono::steady_clock::time_point wheel_epoch_ = std::chrono::steady_clock::now();
  std::shared_ptr<std::promise<void>> closed_promise_;  // set before the Close command

  friend class ConsumerLink;
};

/// One receiver link of a consuming route: messages processed one at a time, in order.
class ConsumerLink final : public proton::messaging_handler {
 public:
  ConsumerLink(Connection& connection, ConsumerGroup& group, int index)
      : connection_(connection), group_(group), index_(index) {}

  void open(proton::connection& c);
  void detach() noexcept;  // the connection went away: forget the link and its backlog
  /// The broker ended the link's session (it refused the link, or took the address away):
  /// the link is opened again after a back-off; before the group started, the start fails.
  void refused(const std::string& reason) noexcept;
  bool ownsSession(const proton::session& s) const { return attached_ && receiver_.session() == s; }
  void close() noexcept;   // stop: close the link, release what was not processed
  void done() noexcept;    // the current exchange settled: start the next one
  bool attached() const noexcept { return attached_; }
  bool closing() const noexcept { return closing_; }  // closed by us, the broker not yet
  bool busy() const noexcept { return current_ != nullptr; }  // an exchange in the route

  proton::delivery& currentDelivery() noexcept { return current_delivery_; }
  const std::string& replyTo() const noexcept { return reply_to_; }
  const proton::message_id& replyCorrelation() const noexcept { return reply_correlation_; }
  ConsumerGroup& group() noexcept { return group_; }
  proton::receiver& receiver() noexcept { return receiver_; }

 private:
  void on_receiver_open(proton::receiver& r) override;
  void on_receiver_close(proton::receiver& r) override;
  void on_receiver_detach(proton::receiver& r) override;  // RabbitMQ answers a close so
  void on_receiver_error(proton::receiver& r) override;
  void on_error(const proton::error_condition& e) override;
  void on_message(proton::delivery& d, proton::message& m) override;
  void dispatch(Exchange* exchange) noexcept;
  void dropBacklog(bool release) noexcept;
  void countAttached(bool attached) noexcept;  // keeps the group's `attached` count
  static void runOnWorker(void* arg) noexcept;
  static void onDone(Exchange& exchange, void* arg) noexcept;

  Connection& connection_;
  ConsumerGroup& group_;
  int index_;
  proton::receiver receiver_;
  bool attached_ = false;
  bool counted_ = false;  // in the group's `attached` (the broker opened the link)
  bool closing_ = false;
  uint64_t generation_ = 0;  // the connection's, when the link was opened
  std::chrono::milliseconds backoff_{0};  // before re-opening a refused link
  bool refusalLogged_ = false;
  struct Waiting {
    proton::delivery delivery;
    Exchange* exchange;
    std::string replyTo;
    proton::message_id correlation;
  };
  std::deque<Waiting> backlog_;
  // Arrived after the group's intake stopped: left unsettled, released when the link closes
  // (released at once, the broker would send them straight back on the credit left).
  std::vector<proton::delivery> held_;
  bool dispatching_ = false;  // runInline: the loop of dispatch() is running
  bool finishedInline_ = false;  // runInline: the exchange completed inside processAsync
  // The message being processed; written on the Proton thread before the exchange goes to a
  // worker (or runs inline) and not again until it has settled.
  Exchange* current_ = nullptr;
  uint64_t current_generation_ = 0;
  proton::delivery current_delivery_;
  std::string reply_to_;
  proton::message_id reply_correlation_;
};

}  // namespace dromedary::component::amqp
