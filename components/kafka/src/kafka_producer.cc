// SPDX-License-Identifier: Apache-2.0
// The kafka producer: a send's records handed to librdkafka, the exchange parked until the
// last delivery report, and the rare full queue. See kafka_producer.h.
#include "kafka_producer.h"

#include <librdkafka/rdkafka.h>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>

#include "kafka_failure.h"
#include "kafka_records.h"
#include "kafka_send.h"

namespace dromedary::component::kafka {

namespace {

void resumeTask(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

// The headers a send reads, hashed once.
const HeaderKey& keyHeader() {
  static const HeaderKey key{std::string(header::kKey)};
  return key;
}
const HeaderKey& partitionKeyHeader() {
  static const HeaderKey key{std::string(header::kPartitionKey)};
  return key;
}
const HeaderKey& recordMetaHeader() {
  static const HeaderKey key{std::string(header::kRecordMeta)};
  return key;
}
const HeaderKey& overrideTimestampHeader() {
  static const HeaderKey key{std::string(header::kOverrideTimestamp)};
  return key;
}

int64_t intHeader(const Message& message, const HeaderKey& name, int64_t fallback) {
  const Value* v = message.headers().get(name);
  if (!v || v->isNull()) return fallback;
  if (v->isInt()) return v->getInt();
  auto n = v->tryAs<int64_t>();
  return n ? *n : fallback;
}

// The element of a list body a record is made from (or the whole body).
const Value& recordValue(const Send& send, size_t i) {
  const Value& body = send.exchange->message().body();
  if (!body.isList()) return body;
  const Value& item = body.getList()[i];
  if (send.settings->batchWithIndividualHeaders && item.isMap()) {
    for (const auto& [name, value] : item.getMap()) {
      if (name == "body") return value;
    }
  }
  return item;
}

// A list element's own headers (batchWithIndividualHeaders), or null.
const ValueMap* recordOwnHeaders(const Send& send, size_t i) {
  const Value& body = send.exchange->message().body();
  if (!send.settings->batchWithIndividualHeaders || !body.isList()) return nullptr;
  const Value& item = body.getList()[i];
  if (!item.isMap()) return nullptr;
  for (const auto& [name, value] : item.getMap()) {
    if (name == "headers" && value.isMap()) return &value.getMap();
  }
  return nullptr;
}

// Hands record `i` over. NO_ERROR: its delivery report will come; QUEUE_FULL: not taken, try
// again later; anything else: refused for good (the slot says why).
rd_kafka_resp_err_t produceOne(Send& send, size_t i) {
  thread_local std::string value_scratch, key_scratch;
  const Message& message = send.exchange->message();
  Slot& slot = send.slots[i];
  rd_kafka_vu_t vu[8];
  size_t n = 0;
  if (send.topic) {
    vu[n].vtype = RD_KAFKA_VTYPE_RKT;
    vu[n++].u.rkt = send.topic;
  } else {
    vu[n].vtype = RD_KAFKA_VTYPE_TOPIC;
    vu[n++].u.cstr = send.overrideTopic.c_str();
  }
  std::string_view value;
  // The exchange stays parked until the record's delivery report, so the bytes of its body
  // outlive the record and librdkafka sends them from where they are (no copy of each value,
  // no allocation for it). Bytes made in the scratch buffer (a number's or a map's) are
  // written over by the next send: those are copied.
  int flags = 0;
  if (payloadBytes(recordValue(send, i), value_scratch, value)) {
    vu[n].vtype = RD_KAFKA_VTYPE_VALUE;
    vu[n].u.mem.ptr = const_cast<char*>(value.data());
    vu[n++].u.mem.size = value.size();
    if (value.data() == value_scratch.data()) flags = RD_KAFKA_MSG_F_COPY;
  }
  const Value* key_header = message.headers().get(keyHeader());
  std::string_view key;
  bool has_key = false;
  if (key_header && !key_header->isNull()) {
    has_key = payloadBytes(*key_header, key_scratch, key);
  } else if (send.settings->key) {
    key = *send.settings->key;
    has_key = true;
  }
  if (has_key) {
    vu[n].vtype = RD_KAFKA_VTYPE_KEY;
    vu[n].u.mem.ptr = const_cast<char*>(key.data());
    vu[n++].u.mem.size = key.size();
  }
  int64_t partition = intHeader(message, partitionKeyHeader(),
                                send.settings->partitionKey.value_or(RD_KAFKA_PARTITION_UA));
  vu[n].vtype = RD_KAFKA_VTYPE_PARTITION;
  vu[n++].u.i32 = static_cast<int32_t>(partition);
  int64_t timestamp = intHeader(message, overrideTimestampHeader(), 0);
  if (timestamp > 0) {
    vu[n].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
    vu[n++].u.i64 = timestamp;
  }
  vu[n].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
  vu[n++].u.i32 = flags;
  vu[n].vtype = RD_KAFKA_VTYPE_OPAQUE;
  vu[n++].u.ptr = &slot;
  rd_kafka_headers_t* headers =
      recordHeaders(message.headers(), recordOwnHeaders(send, i), *send.settings->filter);
  if (headers) {
    vu[n].vtype = RD_KAFKA_VTYPE_HEADERS;
    vu[n++].u.headers = headers;
  }
  rd_kafka_error_t* error = rd_kafka_produceva(send.client->handle(), vu, n);
  if (!error) return RD_KAFKA_RESP_ERR_NO_ERROR;
  rd_kafka_resp_err_t code = rd_kafka_error_code(error);
  rd_kafka_error_destroy(error);
  if (headers) rd_kafka_headers_destroy(headers);  // still ours: the record was not taken
  if (code != RD_KAFKA_RESP_ERR__QUEUE_FULL) slot.error = code;
  return code;
}

// Hands over the records from send.next on. True when all are handed over (or refused);
// false when the queue is full (send.next is where to go on).
bool produceFrom(Send& send) {
  while (send.next < send.slots.size()) {
    rd_kafka_resp_err_t code = produceOne(send, send.next);
    if (code == RD_KAFKA_RESP_ERR__QUEUE_FULL) return false;
    ++send.next;
    if (code != RD_KAFKA_RESP_ERR_NO_ERROR) send.remaining.fetch_sub(1);  // no report will come
  }
  return true;
}

// kafka.RECORD_META, Camel's list of one RecordMetadata per record: here a map per record
// (topic, partition, offset, timestamp). Filled into the send's own value, in place once no
// exchange holds it any more (allocating, with its four allocations per send and as many
// frees, was a third of the producer's own work per record).
void fillMetadata(Send& send, const std::string& topic) {
  if (!send.metadata.isList()) send.metadata = Value(ValueList{});
  ValueList& list = send.metadata.mutableList();
  list.resize(send.slots.size());
  for (size_t i = 0; i < list.size(); ++i) {
    Value& record = list[i];
    if (!record.isMap()) {
      ValueMap fresh;
      fresh.reserve(4);
      for (const char* name : {"topic", "partition", "offset", "timestamp"}) {
        fresh.emplace_back(name, Value());
      }
      record = Value(std::move(fresh));
    }
    ValueMap& fields = record.mutableMap();
    const Slot& slot = send.slots[i];
    if (!fields[0].second.isString() || fields[0].second.getString() != topic) {
      fields[0].second.setString(topic);
    }
    fields[1].second.setInt(slot.partition);
    fields[2].second.setInt(slot.offset);
    fields[3].second.setInt(slot.timestamp);
  }
}

// The exchange's outcome, on the thread that took `remaining` to zero. Gives the send back.
// Returns whether the exchange failed.
bool finish(Send* send) noexcept {
  Exchange& exchange = *send->exchange;
  bool failed = false;
  try {
    const std::string& endpoint_topic = send->settings->topics.front();
    for (const Slot& slot : send->slots) {
      if (slot.error == RD_KAFKA_RESP_ERR_NO_ERROR) continue;
      const std::string& topic = send->topic ? endpoint_topic : send->overrideTopic;
      exchange.setException(std::make_exception_ptr(KafkaFailure(
          slot.error, fmt::format("{}: a record to topic '{}' was not delivered: {}",
                                  send->settings->uri, topic, rd_kafka_err2str(slot.error)))));
      failed = true;
      break;
    }
    if (!failed && send->settings->recordMetadata) {
      fillMetadata(*send, send->topic ? endpoint_topic : send->overrideTopic);
      exchange.message().headers().set(recordMetaHeader(), send->metadata);
    }
  } catch (...) {
    exchange.setException(std::current_exception());
    failed = true;
  }
  SendPool::give(send);
  return failed;
}

// On the poll thread: finish the send and continue its exchange.
void finishAndResume(Send* send) noexcept {
  Exchange& exchange = *send->exchange;
  Context& context = send->client->context();
  finish(send);
  if (!resumeMayBlock(exchange)) {
    exchange.resume();
  } else {
    context.submit({&resumeTask, &exchange});
  }
}

void onDelivery(rd_kafka_t*, const rd_kafka_message_t* record, void*) {
  auto* slot = static_cast<Slot*>(record->_private);
  slot->error = record->err;
  slot->partition = record->partition;
  slot->offset = record->offset;
  slot->timestamp = rd_kafka_message_timestamp(record, nullptr);
  Send* send = slot->send;
  if (send->remaining.fetch_sub(1) == 1) finishAndResume(send);
}

// Without an error callback librdkafka logs each error event a second time; its log lines
// already say what failed, so only what it will not recover from is reported here.
void onProducerError(rd_kafka_t* rk, int err, const char* reason, void*) {
  if (err != RD_KAFKA_RESP_ERR__FATAL) return;
  char fatal[512];
  rd_kafka_fatal_error(rk, fatal, sizeof fatal);
  Logger::get("kafka").log(LoggingLevel::Error,
                           fmt::format("Kafka producer: fatal: {} ({})", fatal, reason));
}

}  // namespace

Result<rd_kafka_t*> ProducerClient::started() {
  if (rd_kafka_t* rk = handle()) return rk;
  std::lock_guard lock(startMutex_);
  if (rd_kafka_t* rk = handle()) return rk;
  DROMEDARY_TRY(conf, makeConf(uri_, {&common_, &producer_}));
  rd_kafka_conf_set_dr_msg_cb(conf, &onDelivery);
  rd_kafka_conf_set_error_cb(conf, &onProducerError);
  installLogger(conf);
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("endpoint '{}': cannot create a Kafka producer: {}", uri_, error));
  }
  rk_.store(rk, std::memory_order_release);
  thread_ = std::thread([this] { run(); });
  return rk;
}

ProducerClient::~ProducerClient() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  if (rd_kafka_t* rk = handle()) rd_kafka_destroy(rk);
}

void ProducerClient::run() noexcept {
  rd_kafka_t* rk = handle();
  while (!stopping_.load(std::memory_order_relaxed)) {
    rd_kafka_poll(rk, 50);
    if (anyBlocked_.load(std::memory_order_relaxed)) retryBlocked(false);
  }
  // Reports still owed: served until librdkafka has none left (bounded by its timeouts).
  rd_kafka_flush(rk, 10000);
  rd_kafka_poll(rk, 0);
  retryBlocked(/*give_up=*/true);  // sends still waiting for room fail rather than hang
}

void ProducerClient::waitForRoom(Send* send, std::chrono::milliseconds max_block) {
  std::lock_guard lock(mutex_);
  blocked_.push_back({send, std::chrono::steady_clock::now() + max_block});
  anyBlocked_.store(true);
}

void ProducerClient::retryBlocked(bool give_up) noexcept {
  std::unique_lock lock(mutex_);
  auto now = std::chrono::steady_clock::now();
  while (!blocked_.empty()) {
    Blocked b = blocked_.front();
    if (give_up || !produceFrom(*b.send)) {
      if (!give_up && now < b.deadline) break;  // still full: the oldest goes first, so wait
      // Waited maxBlockMs: the records not handed over fail the exchange.
      for (size_t i = b.send->next; i < b.send->slots.size(); ++i) {
        b.send->slots[i].error = RD_KAFKA_RESP_ERR__QUEUE_FULL;
        b.send->remaining.fetch_sub(1);
      }
      b.send->next = b.send->slots.size();
    }
    blocked_.pop_front();
    lock.unlock();
    if (b.send->remaining.fetch_sub(1) == 1) finishAndResume(b.send);
    lock.lock();
  }
  anyBlocked_.store(!blocked_.empty());
}

void ProducerClient::flush(std::chrono::milliseconds timeout) noexcept {
  if (rd_kafka_t* rk = handle()) rd_kafka_flush(rk, static_cast<int>(timeout.count()));
}

KafkaProducer::KafkaProducer(const KafkaSettings& settings, ProducerClient& client)
    : settings_(settings), client_(client), maxBlock_(settings.maxBlock) {}

KafkaProducer::~KafkaProducer() {
  if (rd_kafka_topic_t* topic = topic_.load()) rd_kafka_topic_destroy(topic);
}

rd_kafka_topic_t* KafkaProducer::startTopic(Exchange& exchange) noexcept {
  std::lock_guard lock(startMutex_);
  if (rd_kafka_topic_t* topic = topic_.load(std::memory_order_acquire)) return topic;
  try {
    auto rk = client_.started();
    if (!rk) {
      exchange.failWithDetail(rk.error().code, "Kafka producer not started", rk.error().message);
      return nullptr;
    }
    rd_kafka_topic_t* topic = rd_kafka_topic_new(*rk, settings_.topics.front().c_str(), nullptr);
    topic_.store(topic, std::memory_order_release);
    return topic;
  } catch (...) {
    exchange.setException(std::current_exception());
    return nullptr;
  }
}

void KafkaProducer::stop() noexcept { client_.flush(settings_.shutdownTimeout); }

Status KafkaProducer::process(Exchange& exchange) noexcept {
  rd_kafka_topic_t* topic = topic_.load(std::memory_order_acquire);
  if (!topic) [[unlikely]] {
    topic = startTopic(exchange);
    if (!topic) return Status::Fail;
  }
  Send* send = nullptr;
  try {
    send = SendPool::take();
    send->exchange = &exchange;
    send->settings = &settings_;
    send->client = &client_;
    Message& message = exchange.message();
    if (const Value* override_topic = message.headers().get(header::kOverrideTopic);
        override_topic && !override_topic->isNull()) {
      send->overrideTopic = override_topic->toString();
      message.headers().remove(header::kOverrideTopic);
    } else {
      send->topic = topic;
    }
    const Value& body = message.body();
    size_t records = body.isList() ? body.getList().size() : 1;
    send->makeSlots(records);
    send->remaining.store(static_cast<int>(records) + 1);
  } catch (...) {
    if (send) SendPool::give(send);
    exchange.setException(std::current_exception());
    return Status::Fail;
  }
  if (!produceFrom(*send)) {
    // librdkafka's queue is full: the poll thread sends the rest as room appears.
    client_.waitForRoom(send, maxBlock_);
    return Status::Suspend;
  }
  if (send->remaining.fetch_sub(1) != 1) return Status::Suspend;
  // Every record was refused or already reported: the exchange goes on here.
  return finish(send) ? Status::Fail : Status::Continue;
}

}  // namespace dromedary::component::kafka
