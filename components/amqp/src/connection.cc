// SPDX-License-Identifier: Apache-2.0
// Connection: lifecycle, the command queue, reconnect, and the handler's dispatch.
#include "connection.h"

#include <fmt/format.h>
#include <proton/connection_options.hpp>
#include <proton/container.hpp>
#include <proton/error_condition.hpp>
#include <proton/receiver_options.hpp>
#include <proton/tracker.hpp>
#include <proton/session.hpp>
#include <proton/transport.hpp>
#include <proton/work_queue.hpp>

#include <dromedary/engine/context.h>

#include "client.h"

namespace dromedary::component::amqp {

Connection::Connection(Client& client, Context& context, AmqpConfig config,
                       std::string container_id)
    : client_(client), context_(context), config_(std::move(config)), id_(std::move(container_id)),
      log_(Logger::get("dromedary.amqp")) {}

Connection::~Connection() = default;

namespace {
// The connection whose commands the calling thread is draining, if any (Proton thread).
thread_local const Connection* t_draining = nullptr;
}  // namespace

bool Connection::post(Command command) noexcept {
  if (!commands_.enqueue(command)) return false;  // out of memory
  // Posted by a command the drain loop is running (a completion that sends the next message,
  // on this connection's thread): the loop takes it next, with no wake-up to schedule.
  if (t_draining == this) return true;
  // One wake-up per batch: whoever flips the flag schedules the drain.
  if (!wake_pending_.exchange(true, std::memory_order_acq_rel)) {
    // Run the batch in the connection's own context, so that Proton writes what it sends;
    // while there is no connection, on the container's queue. One lock per batch, not per
    // message: it guards the pointer against the connection going away.
    std::lock_guard lock(work_queue_mutex_);
    if (work_queue_) {
      work_queue_->add([this] { drain(); });
    } else {
      client_.workQueue().add([this] { drain(); });
    }
  }
  return true;
}

void Connection::drain() noexcept {
  // An exchange, not a store: it reads the flag the last poster set, which makes that
  // poster's command visible to the dequeue below. (A plain store once left a consumer's
  // last settle unseen: its link stayed busy and its prefetched messages waited for ever.)
  wake_pending_.exchange(false, std::memory_order_acq_rel);
  const Connection* outer = t_draining;
  t_draining = this;
  Command command;
  while (commands_.try_dequeue(command)) run(command);
  t_draining = outer;
}

void Connection::setWorkQueue(proton::work_queue* queue) noexcept {
  std::lock_guard lock(work_queue_mutex_);
  work_queue_ = queue;
}

void Connection::run(const Command& c) noexcept {
  switch (c.op) {
    case Op::Send:
      handleSend(*c.exchange, *static_cast<const ProducerSpec*>(c.target));
      break;
    case Op::Settle:
      settleConsumed(*const_cast<ConsumerLink*>(static_cast<const ConsumerLink*>(c.target)),
                     *c.exchange, c.generation);
      break;
    case Op::AddConsumer: {
      auto* holder = static_cast<const std::shared_ptr<ConsumerGroup>*>(c.target);
      consumers_.push_back(*holder);
      delete holder;
      if (open_) openConsumer(*consumers_.back());
      break;
    }
    case Op::StopIntake:
    case Op::RemoveConsumer: {
      auto* command = static_cast<const GroupCommand*>(c.target);
      command->group->stopped.push_back(command->done);
      if (c.op == Op::StopIntake) {
        stopConsumerIntake(command->group);
      } else {
        stopConsumer(command->group);
      }
      delete command;
      break;
    }
    case Op::Connect: connectNow(); break;
    case Op::Close: {
      closed_ = true;
      failInFlight("the context is stopping");
      for (auto& [address, link] : senders_) {
        failQueued(link, ErrorCode::RouteNotStarted,
                   "Not sent: the amqp component stopped before the broker took it", {});
        link.queue.clear();
      }
      setWorkQueue(nullptr);
      if (open_ || connecting_) connection_.close();
      open_ = false;
      open_flag_.store(false);
      if (closed_promise_) closed_promise_->set_value();
      break;
    }
  }
}

void Connection::start() { post({Op::Connect, nullptr, nullptr, 0}); }

void Connection::close() {
  // Shared: if the wait gives up, the Proton thread may still set it later.
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> f = done->get_future();
  closed_promise_ = done;
  post({Op::Close, nullptr, nullptr, 0});
  f.wait_for(std::chrono::seconds(5));
}

bool Connection::send(Exchange& exchange, const ProducerSpec& spec) noexcept {
  if (post({Op::Send, &exchange, &spec, 0})) return true;
  exchange.fail(ErrorCode::Internal, "Could not queue the message for the broker", spec.uri);
  return false;
}

void Connection::addConsumer(const std::shared_ptr<ConsumerGroup>& group,
                             std::chrono::milliseconds wait) {
  std::future<void> started = group->started.get_future();
  post({Op::AddConsumer, nullptr, new std::shared_ptr<ConsumerGroup>(group), 0});
  started.wait_for(wait);
}

void Connection::stopIntake(const std::shared_ptr<ConsumerGroup>& group) {
  // Kept by the Proton thread and set once the intake has stopped: at once when exchanges are
  // in flight, else once the links are closed.
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> f = done->get_future();
  post({Op::StopIntake, nullptr, new GroupCommand{group, done}, 0});
  f.wait_for(std::chrono::seconds(10));
}

void Connection::removeConsumer(const std::shared_ptr<ConsumerGroup>& group, bool wait) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> f = done->get_future();
  post({Op::RemoveConsumer, nullptr, new GroupCommand{group, done}, 0});
  if (wait) f.wait_for(std::chrono::seconds(10));
}

void Connection::connectNow() {
  if (closed_ || open_ || connecting_) return;
  connecting_ = true;
  ++generation_;
  proton::connection_options options(*this);
  options.container_id(id_);
  options.idle_timeout(proton::duration(30000));
  if (!config_.username.empty()) {
    options.user(config_.username);
    options.password(config_.password);
    options.sasl_allow_insecure_mechs(true);
  }
  try {
    connection_ = client_.container().connect(config_.remoteUri, options);
  } catch (const std::exception& e) {
    connecting_ = false;
    connectionLost(fmt::format("cannot connect to {}: {}", config_.remoteUri, e.what()));
  }
}

void Connection::scheduleReconnect() {
  if (closed_) return;
  backoff_ = backoff_.count() == 0 ? config_.reconnectDelay
                                   : std::min(backoff_ * 2, config_.maxReconnectDelay);
  client_.container().schedule(proton::duration(static_cast<uint64_t>(backoff_.count())),
                               [this] { connectNow(); });
}

void Connection::on_connection_open(proton::connection& c) {
  if (c != connection_) return;
  connecting_ = false;
  open_ = true;
  open_flag_.store(true);
  setWorkQueue(&c.work_queue());
  opened_.fetch_add(1, std::memory_order_relaxed);
  if (lost_logged_) {
    log_.log(LoggingLevel::Info,
             fmt::format("AMQP connection '{}' to {} re-established", id_, config_.remoteUri));
  } else if (log_.enabled(LoggingLevel::Debug)) {
    log_.log(LoggingLevel::Debug,
             fmt::format("AMQP connection '{}' to {} open", id_, config_.remoteUri));
  }
  lost_logged_ = false;
  backoff_ = std::chrono::milliseconds(0);
  openLinks();
}

void Connection::openLinks() {
  for (auto& [address, link] : senders_) {
    if (!link.queue.empty()) openSender(address, link);
  }
  for (auto& [key, rr] : replies_) {
    if (rr.refused.empty()) openReplyReceiver(key, rr);
  }
  for (auto& group : consumers_) {
    if (!group->stopping) openConsumer(*group);
  }
}

void Connection::connectionLost(const std::string& reason) {
  if (lost_generation_ == generation_) return;  // error and close both report one loss
  lost_generation_ = generation_;
  bool was_up = open_;
  open_ = false;
  connecting_ = false;
  open_flag_.store(false);
  setWorkQueue(nullptr);
  if (closed_) return;
  if (!lost_logged_) {
    log_.log(LoggingLevel::Warn,
             fmt::format("AMQP connection '{}' to {} {}: {}; reconnecting", id_,
                         config_.remoteUri, was_up ? "lost" : "failed", reason));
    lost_logged_ = true;
  }
  failInFlight(fmt::format("the connection to {} was lost ({})", config_.remoteUri, reason));
  for (auto& [address, link] : senders_) {
    link.attached = link.ready = false;
    link.sender = proton::sender();
    // Consumer replies belong to deliveries the broker will redeliver: drop them.
    std::erase_if(link.queue, [](const Outgoing& o) { return o.prebuilt != nullptr; });
  }
  for (auto& [key, rr] : replies_) {
    rr.attached = rr.ready = false;
    rr.receiver = proton::receiver();
  }
  for (auto& group : consumers_) {
    for (auto& link : group->links) link->detach();
    releaseGroupIfDone(*group);
  }
  scheduleReconnect();
}

std::string describeCondition(const proton::error_condition& e, const char* fallback) {
  if (e.empty()) return fallback;
  return e.description().empty() ? e.name() : e.name() + ": " + e.description();
}

void Connection::on_transport_error(proton::transport& t) {
  if (closed_ || t.connection() != connection_) return;
  connectionLost(describeCondition(t.error(), "transport error"));
}

void Connection::on_transport_close(proton::transport& t) {
  if (closed_ || t.connection() != connection_) return;
  connectionLost("the broker closed the connection");
}

void Connection::on_session_error(proton::session& s) {
  std::string reason = describeCondition(s.error(), "session error");
  // A temporary reply queue has a session of its own: the broker ending it means it refused
  // the dynamic node (RabbitMQ does so). Requests needing it fail at once from now on.
  for (auto& [key, rr] : replies_) {
    if (!rr.attached || rr.ready || rr.receiver.session() != s) continue;
    refuseReplyReceiver(key, rr, reason);
    return;
  }
  // A consumer link's own session.
  for (auto& group : consumers_) {
    for (auto& link : group->links) {
      if (!link->ownsSession(s)) continue;
      link->refused(reason);
      return;
    }
  }
  // A sender's own session: the broker refused the sender (RabbitMQ does so for an address
  // that does not exist). Its messages fail; the next message to the address tries again.
  for (auto it = senders_.begin(); it != senders_.end(); ++it) {
    if (!it->second.attached || it->second.sender.session() != s) continue;
    refuseSender(it, reason);
    return;
  }
  // The default session (exclusive and shared reply receivers): start again from a new
  // connection.
  connection_.close();
  connectionLost(reason);
}

void Connection::on_error(const proton::error_condition& e) {
  // Proton's default throws, which would end the container thread: log instead.
  log_.log(LoggingLevel::Warn,
           fmt::format("AMQP connection '{}': {}", id_, describeCondition(e, "unknown error")));
}

void Connection::on_connection_error(proton::connection& c) {
  if (c != connection_) return;
  std::string reason = describeCondition(c.error(), "connection error");
  c.close();
  connectionLost(reason);
}

}  // namespace dromedary::component::amqp
