// SPDX-License-Identifier: Apache-2.0
// Connection, producer side: the request table, sender links, the reply receiver and the
// timing wheel. Everything here runs on the Proton thread.
#include <charconv>
#include <cstring>

#include <fmt/format.h>
#include <proton/binary.hpp>
#include <proton/connection.hpp>
#include <proton/error_condition.hpp>
#include <proton/receiver_options.hpp>
#include <proton/sender_options.hpp>
#include <proton/session.hpp>
#include <proton/source.hpp>
#include <proton/source_options.hpp>
#include <proton/target.hpp>
#include <proton/target_options.hpp>
#include <proton/tracker.hpp>
#include <proton/work_queue.hpp>

#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

#include "client.h"
#include "connection.h"
#include "link_send.h"

namespace dromedary::component::amqp {

namespace {

void resumeTask(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

uint64_t sequenceOf(uint32_t slot, uint32_t gen) noexcept {
  return (static_cast<uint64_t>(gen) << 32) | slot;
}

}  // namespace

// --- the request table ---

uint32_t Connection::allocSlot(Exchange& exchange, const ProducerSpec& spec,
                               bool request) noexcept {
  uint32_t i;
  if (free_head_ != kNone) {
    i = free_head_;
    free_head_ = slots_[i].nextFree;
  } else {
    slots_.emplace_back();
    i = static_cast<uint32_t>(slots_.size() - 1);
  }
  Slot& s = slots_[i];
  s.exchange = &exchange;
  s.spec = &spec;
  s.state = SlotState::Queued;
  s.request = request;
  s.nextFree = kNone;
  ++live_;
  return i;
}

void Connection::finish(uint32_t i, bool resume) noexcept {
  Slot& s = slots_[i];
  disarmTimer(i);
  if (!s.userCorrelation.empty()) {
    user_correlation_.erase(s.userCorrelation);
    s.userCorrelation.clear();
  }
  Exchange* exchange = s.exchange;
  s.exchange = nullptr;
  s.state = SlotState::Free;
  ++s.gen;
  s.nextFree = free_head_;
  free_head_ = i;
  --live_;
  if (!resume || !exchange) return;
  // A reply whose exchange goes on only through what cannot block (a waiting thread to wake,
  // a route of built-in steps) is resumed from here: one thread hop less per request.
  // Anything that may block runs on a worker, never on the I/O thread.
  if (!resumeMayBlock(*exchange)) {
    exchange->resume();
  } else {
    context_.submit({&resumeTask, exchange});
  }
}

void Connection::failSlot(uint32_t i, ErrorCode code, std::string_view reason,
                          std::string detail) {
  Exchange& ex = *slots_[i].exchange;
  if (detail.empty()) {
    ex.fail(code, reason, slots_[i].spec->uri);
  } else {
    ex.failWithDetail(code, reason, std::move(detail));
  }
  finish(i);
}

std::string Connection::correlationId(uint32_t slot) const {
  return fmt::format("{}:{:x}", id_, sequenceOf(slot, slots_[slot].gen));
}

uint32_t Connection::slotOfCorrelation(std::string_view id) const noexcept {
  if (id.size() > id_.size() + 1 && id.substr(0, id_.size()) == id_ && id[id_.size()] == ':') {
    uint64_t seq = 0;
    std::string_view hex = id.substr(id_.size() + 1);
    auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), seq, 16);
    if (ec != std::errc() || end != hex.data() + hex.size()) return kNone;
    uint32_t slot = static_cast<uint32_t>(seq);
    if (slot >= slots_.size() || slots_[slot].gen != static_cast<uint32_t>(seq >> 32) ||
        slots_[slot].state == SlotState::Free) {
      return kNone;
    }
    return slot;
  }
  if (user_correlation_.empty()) return kNone;
  auto it = user_correlation_.find(std::string(id));
  return it == user_correlation_.end() ? kNone : it->second;
}

uint32_t Connection::slotOfTag(const proton::binary& tag) const noexcept {
  if (tag.size() != sizeof(uint64_t)) return kNone;
  uint64_t seq = 0;
  std::memcpy(&seq, tag.data(), sizeof seq);
  uint32_t slot = static_cast<uint32_t>(seq);
  if (slot >= slots_.size() || slots_[slot].gen != static_cast<uint32_t>(seq >> 32) ||
      slots_[slot].state == SlotState::Free) {
    return kNone;
  }
  return slot;
}

// --- sending ---

void Connection::handleSend(Exchange& exchange, const ProducerSpec& spec) noexcept {
  if (closed_) {
    exchange.fail(ErrorCode::RouteNotStarted, "The amqp component is stopped", spec.uri);
    context_.submit({&resumeTask, &exchange});
    return;
  }
  bool in_out = spec.forcedPattern >= 0 ? spec.forcedPattern == static_cast<int>(Pattern::InOut)
                                        : exchange.pattern() == Pattern::InOut;
  bool request = in_out && !spec.disableReplyTo;
  uint32_t i = allocSlot(exchange, spec, request);
  if (spec.requestTimeout.count() > 0) armTimer(i, spec.requestTimeout);
  if (request) {
    ReplyReceiver& rr = replyReceiverFor(spec);
    if (!rr.refused.empty()) {
      failSlot(i, ErrorCode::Io, "The broker refused the reply queue", rr.refused);
      return;
    }
  }
  SenderLink& link = senderFor(spec.address);
  link.queue.push_back(Outgoing{i, slots_[i].gen, nullptr});
  flush(spec.address, link);
}

Connection::SenderLink& Connection::senderFor(const std::string& address) {
  auto it = senders_.find(address);
  if (it == senders_.end()) it = senders_.try_emplace(address).first;
  if (open_ && !it->second.attached) openSender(address, it->second);
  return it->second;
}

void Connection::openSender(const std::string& address, SenderLink& link) {
  // A session per sender (senders are few: one per address): a broker refusing the link by
  // ending its session then fails this sender only.
  proton::sender_options options;
  options.handler(*this).target(
      proton::target_options().address(address).durability_mode(queueDurability()));
  link.sender = connection_.open_session().open_sender(address, options);
  link.attached = true;
  link.ready = false;
  link.unsettled = 0;
}

Connection::ReplyReceiver& Connection::replyReceiverFor(const ProducerSpec& spec) {
  const std::string& key = spec.replyToType == ReplyToType::Temporary ? std::string() : spec.replyAddress;
  auto it = replies_.find(key);
  if (it == replies_.end()) {
    it = replies_.try_emplace(key).first;
    it->second.shared = spec.replyToType == ReplyToType::Shared;
  }
  if (open_ && !it->second.attached && it->second.refused.empty()) {
    openReplyReceiver(key, it->second);
  }
  return it->second;
}

void Connection::openReplyReceiver(const std::string& key, ReplyReceiver& rr) {
  // Replies are handled as they arrive, on this thread: an automatic credit window is enough.
  proton::receiver_options options;
  options.handler(*this).auto_accept(false).credit_window(1000);
  if (key.empty()) {
    // In a session of its own: a broker that refuses dynamic nodes ends the session (RabbitMQ
    // does), which must not take the other links down with it.
    options.source(proton::source_options().dynamic(true));
    proton::session session = connection_.open_session();
    rr.receiver = session.open_receiver("", options);
  } else {
    // A named reply queue is a queue like any other.
    options.source(proton::source_options().address(key).durability_mode(queueDurability()));
    rr.receiver = connection_.open_receiver(key, options);
    rr.address = key;
  }
  rr.attached = true;
  rr.ready = false;
}

void Connection::flushAll() noexcept {
  for (auto& [address, link] : senders_) flush(address, link);
}

void Connection::flush(const std::string& address, SenderLink& link) noexcept {
  if (!open_ || !link.ready) return;
  while (!link.queue.empty() && link.sender.credit() > 0 && link.unsettled < kMaxUnsettled) {
    Outgoing& o = link.queue.front();
    if (o.prebuilt) {
      sendUntracked(link, *o.prebuilt);
      ++link.unsettled;
      link.queue.pop_front();
      continue;
    }
    uint32_t i = o.slot;
    if (i >= slots_.size() || slots_[i].gen != o.gen || slots_[i].state != SlotState::Queued) {
      link.queue.pop_front();  // timed out or failed while it waited
      continue;
    }
    Slot& s = slots_[i];
    const ProducerSpec& spec = *s.spec;
    ReplyReceiver* rr = nullptr;
    if (s.request) {
      rr = &replyReceiverFor(spec);
      if (!rr->refused.empty()) {
        link.queue.pop_front();
        failSlot(i, ErrorCode::Io, "The broker refused the reply queue", rr->refused);
        continue;
      }
      if (!rr->ready) return;  // sent once the reply queue is attached
    }
    link.queue.pop_front();
    try {
      if (!encodeMessage(s.exchange->message(), spec.qos, *spec.headerFilter, scratch_, error_)) {
        failSlot(i, ErrorCode::TypeConversion, "Cannot send the message", error_);
        continue;
      }
      std::string id = correlationId(i);
      scratch_.id(id);
      scratch_.to(address);
      if (s.request) {
        scratch_.reply_to(rr->address);
        if (!scratch_.correlation_id().empty()) {
          // The request names its own correlation id (JMSCorrelationID): replies carry that.
          s.userCorrelation = messageIdText(scratch_.correlation_id());
          user_correlation_[s.userCorrelation] = i;
        }
      }
      uint64_t seq = sequenceOf(i, s.gen);
      sendOnLink(link.sender, scratch_,
                 proton::binary(reinterpret_cast<const char*>(&seq),
                                reinterpret_cast<const char*>(&seq) + sizeof seq),
                 encoded_);
      ++link.unsettled;
      if (s.request) {
        s.state = SlotState::AwaitReply;
      } else if (scratch_.durable()) {
        s.state = SlotState::AwaitSettle;  // at-least-once: done when the broker accepts it
      } else {
        finish(i);
      }
    } catch (const std::exception& e) {
      failSlot(i, ErrorCode::Io, "Cannot send the message", e.what());
    }
  }
}

void Connection::sendUntracked(SenderLink& link, const proton::message& message) {
  const uint32_t tag = ++untrackedTag_;
  sendOnLink(link.sender, message,
             proton::binary(reinterpret_cast<const char*>(&tag),
                            reinterpret_cast<const char*>(&tag) + sizeof tag),
             encoded_);
}

void Connection::on_sender_open(proton::sender& s) {
  auto it = senders_.find(s.target().address());
  if (it == senders_.end()) return;
  it->second.ready = true;
  flush(it->first, it->second);
}

void Connection::on_sendable(proton::sender& s) {
  auto it = senders_.find(s.target().address());
  if (it != senders_.end()) flush(it->first, it->second);
}

void Connection::on_sender_error(proton::sender& s) {
  auto it = senders_.find(s.target().address());
  if (it != senders_.end()) refuseSender(it, describeCondition(s.error(), "no reason given"));
}

void Connection::failQueued(SenderLink& link, ErrorCode code, std::string_view reason,
                            const std::string& detail) {
  for (Outgoing& o : link.queue) {
    if (!o.prebuilt && o.slot < slots_.size() && slots_[o.slot].gen == o.gen &&
        slots_[o.slot].state == SlotState::Queued) {
      failSlot(o.slot, code, reason, detail);
    }
  }
}

void Connection::refuseSender(std::unordered_map<std::string, SenderLink>::iterator it,
                              const std::string& reason) {
  std::string refusal = fmt::format("the broker refused a sender to '{}': {}", it->first, reason);
  log_.log(LoggingLevel::Warn, fmt::format("AMQP connection '{}': {}", id_, refusal));
  failQueued(it->second, ErrorCode::Io, "Cannot send the message", refusal);
  senders_.erase(it);
}

// --- replies and confirmations ---

void Connection::on_receiver_open(proton::receiver& r) {
  for (auto& [key, rr] : replies_) {
    if (rr.receiver != r) continue;
    if (key.empty()) rr.address = r.source().address();
    rr.ready = true;
    flushAll();
    return;
  }
}

void Connection::on_receiver_error(proton::receiver& r) {
  for (auto& [key, rr] : replies_) {
    if (rr.receiver != r) continue;
    refuseReplyReceiver(key, rr, describeCondition(r.error(), "no reason given"));
    return;
  }
}

void Connection::refuseReplyReceiver(const std::string& key, ReplyReceiver& rr,
                                     const std::string& reason) {
  rr.refused = key.empty() ? fmt::format("no temporary (dynamic) reply queue from {} ({}); "
                                         "brokers without dynamic nodes (RabbitMQ) need "
                                         "replyTo=NAME",
                                         config_.remoteUri, reason)
                           : fmt::format("reply queue '{}' at {}: {}", key, config_.remoteUri,
                                         reason);
  rr.attached = rr.ready = false;
  log_.log(LoggingLevel::Warn, fmt::format("AMQP connection '{}': {}", id_, rr.refused));
  flushAll();  // fails the requests that waited for it
}

void Connection::on_message(proton::delivery& d, proton::message& m) {
  // Only reply receivers have this handler: consumer links have their own.
  onReply(d, m);
}

void Connection::onReply(proton::delivery& d, proton::message& m) noexcept {
  std::string correlation = messageIdText(m.correlation_id());
  uint32_t i = slotOfCorrelation(correlation);
  if (i == kNone || slots_[i].state != SlotState::AwaitReply) {
    bool shared = false;
    for (auto& [key, rr] : replies_) {
      if (rr.receiver == d.receiver()) shared = rr.shared;
    }
    if (shared) {
      d.release();  // another requester on the shared queue is waiting for it
    } else {
      d.accept();
      log_.log(LoggingLevel::Warn,
               fmt::format("AMQP connection '{}': a reply with correlation id '{}' matches no "
                           "waiting request (timed out before it came?); dropped",
                           id_, correlation));
    }
    return;
  }
  Slot& s = slots_[i];
  Exchange& ex = *s.exchange;
  try {
    Value failure;
    decodeMessage(m, *s.spec->headerFilter, ex.message(),
                  s.spec->transferException ? &failure : nullptr);
    if (!failure.isNull()) {
      std::string text = failure.isString() ? failure.getString() : "remote failure";
      std::string body = ex.message().body().isString() ? ex.message().body().getString() : "";
      ex.failWithDetail(ErrorCode::ProcessorFailed, "The remote route failed",
                        body.empty() ? text : text + ": " + body);
    }
  } catch (const std::exception& e) {
    ex.failWithDetail(ErrorCode::TypeConversion, "Cannot read the reply", e.what());
  }
  d.accept();
  finish(i);
}

void Connection::on_tracker_accept(proton::tracker& t) { onTracker(t, true, "accepted"); }
void Connection::on_tracker_reject(proton::tracker& t) { onTracker(t, false, "rejected"); }
void Connection::on_tracker_release(proton::tracker& t) { onTracker(t, false, "released"); }

void Connection::on_tracker_settle(proton::tracker& t) {
  // Settled with no outcome (accepted, rejected, released come first, and counted there).
  if (t.state() == proton::transfer::NONE) outcomeArrived(t);
}

void Connection::outcomeArrived(const proton::tracker& t) noexcept {
  // Senders are few (one per address): a scan, not a lookup by name.
  for (auto& [address, link] : senders_) {
    if (link.sender != t.sender()) continue;
    if (link.unsettled > 0) --link.unsettled;
    flush(address, link);
    return;
  }
}

void Connection::onTracker(proton::tracker& t, bool accepted, std::string_view outcome) noexcept {
  settleSlot(t, accepted, outcome);
  outcomeArrived(t);
}

void Connection::settleSlot(proton::tracker& t, bool accepted, std::string_view outcome) noexcept {
  uint32_t i = slotOfTag(t.tag());
  if (i == kNone) return;
  Slot& s = slots_[i];
  if (accepted) {
    if (s.state == SlotState::AwaitSettle) finish(i);
    return;
  }
  if (s.state == SlotState::AwaitSettle || s.state == SlotState::AwaitReply) {
    failSlot(i, ErrorCode::Io, "The broker did not take the message",
             fmt::format("{} {} it ({})", config_.remoteUri, outcome, s.spec->uri));
  }
}

void Connection::failInFlight(const std::string& reason) noexcept {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.state == SlotState::AwaitSettle) {
      failSlot(i, ErrorCode::Io, "The broker did not confirm the message",
               fmt::format("{}; it may or may not have been delivered ({})", reason, s.spec->uri));
    } else if (s.state == SlotState::AwaitReply) {
      failSlot(i, ErrorCode::Io, "No reply",
               fmt::format("{} while waiting for the reply with correlation id '{}' ({})", reason,
                           correlationId(i), s.spec->uri));
    }
  }
}

// --- the timing wheel ---

void Connection::armTimer(uint32_t i, std::chrono::milliseconds timeout) noexcept {
  auto now = std::chrono::steady_clock::now();
  uint64_t now_tick = static_cast<uint64_t>((now - wheel_epoch_) / kTick);
  uint64_t ticks = static_cast<uint64_t>((timeout + kTick - std::chrono::milliseconds(1)) / kTick);
  Slot& s = slots_[i];
  s.deadlineTick = std::max(now_tick, wheel_tick_) + std::max<uint64_t>(ticks, 1);
  uint32_t& head = wheel_[s.deadlineTick % kWheel];
  s.timerPrev = kNone;
  s.timerNext = head;
  if (head != kNone) slots_[head].timerPrev = i;
  head = i;
  ++timed_;
  if (!tick_scheduled_) scheduleTick();
}

void Connection::disarmTimer(uint32_t i) noexcept {
  Slot& s = slots_[i];
  if (s.deadlineTick == 0) return;
  if (s.timerPrev != kNone) {
    slots_[s.timerPrev].timerNext = s.timerNext;
  } else {
    wheel_[s.deadlineTick % kWheel] = s.timerNext;
  }
  if (s.timerNext != kNone) slots_[s.timerNext].timerPrev = s.timerPrev;
  s.deadlineTick = 0;
  s.timerPrev = s.timerNext = kNone;
  --timed_;
}

void Connection::scheduleTick() {
  tick_scheduled_ = true;
  client_.container().schedule(proton::duration(static_cast<uint64_t>(kTick.count())),
                               [this] { onTick(); });
}

void Connection::onTick() noexcept {
  tick_scheduled_ = false;
  uint64_t now_tick =
      static_cast<uint64_t>((std::chrono::steady_clock::now() - wheel_epoch_) / kTick);
  uint64_t from = wheel_tick_ + 1;
  if (now_tick >= wheel_tick_ + kWheel) from = now_tick - kWheel + 1;  // a long pause: all once
  for (uint64_t t = from; t <= now_tick; ++t) {
    uint32_t i = wheel_[t % kWheel];
    while (i != kNone) {
      uint32_t next = slots_[i].timerNext;
      if (slots_[i].deadlineTick <= now_tick) expire(i);
      i = next;
    }
  }
  if (now_tick > wheel_tick_) wheel_tick_ = now_tick;
  if (timed_ > 0 && !closed_) scheduleTick();
}

void Connection::expire(uint32_t i) noexcept {
  Slot& s = slots_[i];
  const ProducerSpec& spec = *s.spec;
  auto ms = spec.requestTimeout.count();
  switch (s.state) {
    case SlotState::Queued: {
      auto link = senders_.find(spec.address);
      std::string why =
          !open_ ? "not connected to the broker at " + config_.remoteUri
          : link != senders_.end() && link->second.unsettled >= kMaxUnsettled
              ? fmt::format("the {} messages sent before it still wait for the broker's outcome",
                            kMaxUnsettled)
              : std::string("the broker gave no credit");
      failSlot(i, ErrorCode::Timeout, "Not sent within requestTimeout",
               fmt::format("could not send to {} within {} ms: {}", spec.uri, ms, why));
      break;
    }
    case SlotState::AwaitReply:
      failSlot(i, ErrorCode::Timeout, "No reply within requestTimeout",
               fmt::format("the reply with correlation id '{}' was not received within {} ms "
                           "(sent to {})",
                           correlationId(i), ms, spec.uri));
      break;
    case SlotState::AwaitSettle:
      failSlot(i, ErrorCode::Timeout, "The broker did not confirm the message in time",
               fmt::format("no confirmation within {} ms from {} ({})", ms, config_.remoteUri,
                           spec.uri));
      break;
    case SlotState::Free: disarmTimer(i); break;
  }
}

}  // namespace dromedary::component::amqp
