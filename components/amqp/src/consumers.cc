// SPDX-License-Identifier: Apache-2.0
// Connection, consumer side: receiver links of consuming routes, at-least-once settlement,
// and replies to requests (InOut). Runs on the Proton thread, except ConsumerLink's
// runOnWorker/onDone, which run on the context's workers (or inline, on the Proton thread,
// for a route that cannot block).
#include <fmt/format.h>
#include <proton/codec/encoder.hpp>
#include <proton/connection.hpp>
#include <proton/error_condition.hpp>
#include <proton/receiver_options.hpp>
#include <proton/source.hpp>
#include <proton/source_options.hpp>
#include <proton/symbol.hpp>
#include <proton/value.hpp>

#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

#include "connection.h"

namespace dromedary::component::amqp {

void ConsumerLink::open(proton::connection& c) {
  const ConsumerSpec& spec = group_.spec;
  proton::source_options source;
  source.address(spec.address);
  if (!spec.selector.empty()) {
    proton::source::filter_map filters;
    proton::value selector;
    proton::codec::encoder enc(selector);
    enc << proton::codec::start::described() << proton::symbol("apache.org:selector-filter:string")
        << spec.selector << proton::codec::finish();
    filters.put(proton::symbol("jms-selector"), selector);
    source.filters(filters);
  }
  proton::receiver_options options;
  // Credit by hand, one back per settled message: at most `prefetch` wait per link.
  options.handler(*this).auto_accept(false).credit_window(0);
  if (!spec.durableSubscriptionName.empty()) {
    // A durable subscription is a link the broker keeps by name while we are away.
    source.durability_mode(proton::source::UNSETTLED_STATE).expiry_policy(proton::source::NEVER);
    options.name(index_ == 0 ? spec.durableSubscriptionName
                             : fmt::format("{}-{}", spec.durableSubscriptionName, index_));
  } else if (!spec.topic) {
    source.durability_mode(connection_.queueDurability());
  }
  options.source(source);
  // A session per link: a broker refusing the link by ending its session (RabbitMQ does, for
  // an address that does not exist) then takes nothing else down with it.
  receiver_ = c.open_session().open_receiver(spec.address, options);
  attached_ = true;
  generation_ = connection_.generation();
}

void ConsumerLink::countAttached(bool attached) noexcept {
  if (attached == counted_) return;
  counted_ = attached;
  group_.attached.fetch_add(attached ? 1 : -1);
}

void ConsumerLink::refused(const std::string& reason) noexcept {
  attached_ = false;
  countAttached(false);
  closing_ = false;
  held_.clear();
  dropBacklog(false);  // their deliveries ended with the session: the broker redelivers
  receiver_ = proton::receiver();
  if (!group_.startedSignalled) {
    group_.refusal = reason;
    group_.startedSignalled = true;
    group_.started.set_value();
    return;  // the start fails; the consumer stops the group
  }
  if (group_.stopping) {
    connection_.releaseGroupIfDone(group_);
    return;
  }
  const AmqpConfig& config = connection_.config_;
  backoff_ = backoff_.count() == 0 ? config.reconnectDelay
                                   : std::min(backoff_ * 2, config.maxReconnectDelay);
  if (!refusalLogged_) {
    connection_.log_.log(LoggingLevel::Warn,
                         fmt::format("AMQP consumer {}: the broker ended the link ({}); opening "
                                     "it again every {} ms at most",
                                     group_.spec.uri, reason, config.maxReconnectDelay.count()));
    refusalLogged_ = true;
  }
  uint64_t generation = connection_.generation();
  // On the connection's own queue: work on the container's is not run while the connection
  // has no event of its own (a quiet consumer connection may have none).
  connection_.connection_.work_queue().schedule(
      proton::duration(static_cast<uint64_t>(backoff_.count())), [this, generation] {
        // Not if the connection was lost meanwhile (its reconnect re-opens every link).
        if (group_.stopping || attached_ || connection_.generation() != generation ||
            !connection_.open_) {
          return;
        }
        open(connection_.connection_);
      });
}

void ConsumerLink::on_receiver_open(proton::receiver& r) {
  backoff_ = std::chrono::milliseconds(0);
  if (refusalLogged_) {
    connection_.log_.log(LoggingLevel::Info,
                         fmt::format("AMQP consumer {}: consuming again", group_.spec.uri));
    refusalLogged_ = false;
  }
  r.add_credit(group_.spec.prefetch);
  countAttached(true);
  if (group_.attached.load() == static_cast<int>(group_.links.size()) &&
      !group_.startedSignalled) {
    group_.startedSignalled = true;
    group_.started.set_value();
  }
}

void ConsumerLink::on_message(proton::delivery& d, proton::message& m) {
  if (!attached_) {
    d.release();
    return;
  }
  if (group_.stopping) {  // the intake stopped; the link stays for the exchanges running
    held_.push_back(d);
    return;
  }
  Exchange* exchange = group_.context->createExchange().release();
  try {
    decodeMessage(m, *group_.spec.headerFilter, exchange->message());
    exchange->setExternalRedelivered(isRedelivery(m));
  } catch (const std::exception& e) {
    // Proton decoded it already, so this is a broken message: never lose it silently.
    connection_.log_.log(LoggingLevel::Error,
                         fmt::format("AMQP consumer {}: cannot read a message ({}); rejected",
                                     group_.spec.uri, e.what()));
    ExchangeRecycler{}(exchange);
    d.reject();
    receiver_.add_credit(1);
    return;
  }
  bool in_out = !m.reply_to().empty() && !group_.spec.disableReplyTo;
  exchange->setPattern(in_out ? Pattern::InOut : Pattern::InOnly);
  ++group_.inflight;
  proton::message_id correlation = m.correlation_id().empty() ? m.id() : m.correlation_id();
  if (current_) {
    backlog_.push_back(Waiting{d, exchange, in_out ? m.reply_to() : std::string(), correlation});
    return;
  }
  current_delivery_ = d;
  reply_to_ = in_out ? m.reply_to() : std::string();
  reply_correlation_ = correlation;
  dispatch(exchange);
}

namespace {
// The link whose route runs inline on this thread right now: its completion inside
// processAsync is noted, not posted (a resume elsewhere sees another thread's null).
thread_local ConsumerLink* running_inline = nullptr;
}  // namespace

void ConsumerLink::dispatch(Exchange* exchange) noexcept {
  current_ = exchange;
  current_generation_ = generation_;
  if (!group_.runInline) {
    group_.context->submit({&ConsumerLink::runOnWorker, this});
    return;
  }
  // A loop, not recursion: settling an exchange starts the next of the backlog, which calls
  // this again; that call only sets current_, and the loop runs it.
  if (dispatching_) return;
  dispatching_ = true;
  while (current_) {
    Exchange& ex = *current_;
    finishedInline_ = false;
    running_inline = this;
    processAsync(ex, *group_.route, &ConsumerLink::onDone, this, /*done_may_block=*/false);
    running_inline = nullptr;
    if (!finishedInline_) break;  // suspended: its completion posts the settle
    connection_.settleConsumed(*this, ex, current_generation_);
  }
  dispatching_ = false;
}

void ConsumerLink::runOnWorker(void* arg) noexcept {
  auto* link = static_cast<ConsumerLink*>(arg);
  processAsync(*link->current_, *link->group_.route, &ConsumerLink::onDone, link,
               /*done_may_block=*/false);  // it posts the settle
}

void ConsumerLink::onDone(Exchange& exchange, void* arg) noexcept {
  auto* link = static_cast<ConsumerLink*>(arg);
  if (running_inline == link) {
    link->finishedInline_ = true;  // dispatch() settles it
    return;
  }
  link->connection_.postSettle(*link, exchange, link->current_generation_);
}

void ConsumerLink::done() noexcept {
  current_ = nullptr;
  // Stopping: what waits is released when the link closes, not started.
  if (backlog_.empty() || group_.stopping) return;
  Waiting next = std::move(backlog_.front());
  backlog_.pop_front();
  current_delivery_ = next.delivery;
  reply_to_ = std::move(next.replyTo);
  reply_correlation_ = next.correlation;
  dispatch(next.exchange);
}

void ConsumerLink::dropBacklog(bool release) noexcept {
  for (Waiting& w : backlog_) {
    if (release) w.delivery.release();
    ExchangeRecycler{}(w.exchange);
    --group_.inflight;
  }
  backlog_.clear();
}

void ConsumerLink::on_receiver_close(proton::receiver& r) {
  attached_ = false;
  countAttached(false);
  if (closing_) {
    closing_ = false;
    r.session().close();  // the link's own session goes with it
    connection_.releaseGroupIfDone(group_);
  }
}

void ConsumerLink::on_receiver_detach(proton::receiver& r) { on_receiver_close(r); }

void ConsumerLink::on_receiver_error(proton::receiver& r) {
  connection_.log_.log(LoggingLevel::Warn,
                       fmt::format("AMQP consumer {}: the broker closed the link: {}",
                                   group_.spec.uri, r.error().what()));
}

void ConsumerLink::on_error(const proton::error_condition& e) {
  connection_.log_.log(LoggingLevel::Warn,
                       fmt::format("AMQP consumer {}: {}", group_.spec.uri, e.what()));
}

void ConsumerLink::detach() noexcept {
  // The connection is gone, and with it every unsettled delivery: the broker redelivers.
  attached_ = false;
  countAttached(false);
  closing_ = false;
  held_.clear();
  dropBacklog(false);
  receiver_ = proton::receiver();
}

void ConsumerLink::close() noexcept {
  if (attached_) {
    for (proton::delivery& d : held_) d.release();
    held_.clear();
    dropBacklog(true);
    // A durable subscription outlives its route, as a JMS durable subscriber outlives its
    // consumer: the link is detached, not closed, so that the broker keeps it (a closed
    // link's terminus is gone, and with it what was published meanwhile).
    if (group_.spec.durableSubscriptionName.empty()) {
      receiver_.close();
    } else {
      receiver_.detach();
    }
    attached_ = false;
    countAttached(false);
    closing_ = true;  // until the broker's detach comes back
  } else {
    held_.clear();
    dropBacklog(false);
  }
}

// --- Connection's consumer side ---

void Connection::postSettle(ConsumerLink& link, Exchange& exchange, uint64_t generation) noexcept {
  post({Op::Settle, &exchange, &link, generation});
}

void Connection::openConsumer(ConsumerGroup& group) {
  if (group.links.empty()) {
    for (int i = 0; i < group.spec.concurrentConsumers; ++i) {
      group.links.push_back(std::make_unique<ConsumerLink>(*this, group, i));
    }
  }
  for (auto& link : group.links) {
    if (!link->attached()) link->open(connection_);
  }
}

void Connection::stopConsumer(const std::shared_ptr<ConsumerGroup>& group) {
  group->stopping = true;
  for (auto& link : group->links) link->close();
  releaseGroupIfDone(*group);
}

namespace {
// The exchanges the group's links have in the route.
int busyLinks(const ConsumerGroup& group) noexcept {
  int n = 0;
  for (const auto& link : group.links) n += link->busy() ? 1 : 0;
  return n;
}
}  // namespace

void Connection::stopConsumerIntake(const std::shared_ptr<ConsumerGroup>& group) {
  group->stopping = true;  // nothing more starts (ConsumerLink::done, on_message)
  const int busy = busyLinks(*group);
  group->unsettled.store(busy);
  if (busy == 0) {
    stopConsumer(group);  // nothing to acknowledge: the links close now
    return;
  }
  // The exchanges in the route keep their links until settled (settleConsumed closes them
  // after the last); the caller goes on meanwhile, and its stop waits through completing().
  for (auto& done : group->stopped) done->set_value();
  group->stopped.clear();
}

void Connection::releaseGroupIfDone(ConsumerGroup& group) {
  if (!group.stopping || group.inflight > 0) return;
  for (auto& link : group.links) {
    if (link->closing()) return;  // wait for the broker's detach
  }
  if (!group.released.load()) {
    group.released.store(true);
    for (auto it = consumers_.begin(); it != consumers_.end(); ++it) {
      if (it->get() != &group) continue;
      retired_.push_back(*it);
      consumers_.erase(it);
      break;
    }
  }
  // Also a later removeConsumer's (a consumer destroyed after its intake stopped).
  for (auto& done : group.stopped) done->set_value();
  group.stopped.clear();
}

void Connection::settleConsumed(ConsumerLink& link, Exchange& exchange,
                                uint64_t generation) noexcept {
  ConsumerGroup& group = link.group();
  --group.inflight;
  if (generation == generation_ && open_ && link.attached()) {
    proton::delivery& d = link.currentDelivery();
    bool reply = !link.replyTo().empty() && exchange.pattern() == Pattern::InOut;
    if (!exchange.failed()) {
      if (reply) sendReply(link, exchange);
      d.accept();
    } else if (reply && group.spec.transferException) {
      sendReply(link, exchange);  // the failure goes back to the requester
      d.accept();
    } else {
      d.release();  // the broker delivers it again: at-least-once (RabbitMQ refuses modified)
    }
    if (!group.stopping) link.receiver().add_credit(1);
  }
  // Else the link it came on is gone: the broker redelivers the message.
  ExchangeRecycler{}(&exchange);  // back to this thread's pool, where the next one comes from
  link.done();
  if (group.stopping) {
    const int busy = busyLinks(group);
    group.unsettled.store(busy);
    // A graceful stop waited for this one: with the last settled, the links close (and
    // release what waited behind it).
    if (busy == 0) {
      for (auto& l : group.links) {
        if (l->attached()) l->close();
      }
    }
  }
  releaseGroupIfDone(group);
}

void Connection::sendReply(ConsumerLink& link, Exchange& exchange) noexcept {
  proton::message& out = scratch_;
  try {
    bool failed = exchange.failed();
    if (!failed && !encodeMessage(exchange.message(), link.group().spec.replyQos,
                                  *link.group().spec.headerFilter, out, error_)) {
      failed = true;
      exchange.failWithDetail(ErrorCode::TypeConversion, "Cannot send the reply", error_);
    }
    if (failed) {
      out.clear();
      out.body(exchange.error().message());
      out.properties().put(std::string(kExceptionProperty),
                           std::string(errorCodeName(exchange.error().code)));
    }
    out.correlation_id(link.replyCorrelation());
    out.to(link.replyTo());
    SenderLink& sender = senderFor(link.replyTo());
    if (sender.ready && sender.queue.empty() && sender.sender.credit() > 0) {
      sendUntracked(sender, out);
    } else {
      sender.queue.push_back(Outgoing{kNone, 0, std::make_unique<proton::message>(out)});
    }
  } catch (const std::exception& e) {
    log_.log(LoggingLevel::Error, fmt::format("AMQP consumer {}: cannot send the reply to {}: {}",
                                              link.group().spec.uri, link.replyTo(), e.what()));
  }
}

}  // namespace dromedary::component::amqp
