// SPDX-License-Identifier: Apache-2.0
#include "kafka_records.h"

#include <librdkafka/rdkafka.h>

#include <bit>
#include <cstring>

namespace dromedary::component::kafka {

namespace {

Value payloadValue(const void* data, size_t size, bool as_bytes) {
  if (!data) return Value();
  std::string_view text(static_cast<const char*>(data), size);
  if (as_bytes) return Value(Bytes(text));
  return Value(text);
}

void bigEndian(uint64_t bits, std::string& out) {
  out.resize(8);
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(bits & 0xff);
    bits >>= 8;
  }
}

}  // namespace

void recordToMessage(const rd_kafka_message_s& record, const KafkaSettings& settings,
                     Message& message) {
  // Names hashed once; text goes into the buffers a pooled exchange kept (Message::setBody,
  // and the strings its cleared header entries hold), so mapping a record of text allocates
  // nothing of ours once warm (librdkafka's header parse below allocates its own).
  static const HeaderKey topic_key{std::string(header::kTopic)};
  static const HeaderKey partition_key{std::string(header::kPartition)};
  static const HeaderKey offset_key{std::string(header::kOffset)};
  static const HeaderKey timestamp_key{std::string(header::kTimestamp)};
  static const HeaderKey key_key{std::string(header::kKey)};
  if (!record.payload) {
    message.setBody(Value());
  } else if (settings.valueBytes) {
    message.setBody(payloadValue(record.payload, record.len, true));
  } else {
    message.setBody(std::string_view(static_cast<const char*>(record.payload), record.len));
  }
  Headers& headers = message.headers();
  // A fresh exchange's message has no headers: each is added without looking for it first.
  const bool fresh = headers.empty();
  auto slot = [&](const HeaderKey& key) -> Value& {
    return fresh ? headers.addUnchecked(key) : headers.slot(key);
  };
  slot(topic_key).setString(rd_kafka_topic_name(record.rkt));
  slot(partition_key).setInt(record.partition);
  slot(offset_key).setInt(record.offset);
  rd_kafka_timestamp_type_t type;
  int64_t timestamp = rd_kafka_message_timestamp(&record, &type);
  if (type != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) slot(timestamp_key).setInt(timestamp);
  if (record.key) {
    if (settings.keyBytes) {
      slot(key_key) = payloadValue(record.key, record.key_len, true);
    } else {
      slot(key_key).setString({static_cast<const char*>(record.key), record.key_len});
    }
  }
  rd_kafka_headers_t* record_headers = nullptr;
  if (rd_kafka_message_headers(&record, &record_headers) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
  const char* name;
  const void* value;
  size_t size;
  ValueMap all;
  for (size_t i = 0; rd_kafka_header_get_all(record_headers, i, &name, &value, &size) ==
                     RD_KAFKA_RESP_ERR_NO_ERROR;
       ++i) {
    Value v = payloadValue(value, size, false);
    all.emplace_back(name, v);
    if (settings.filter->applyFilterToExternalHeaders(name, v)) continue;
    headers.set(name, std::move(v));
  }
  if (!all.empty()) headers.set(header::kHeaders, Value(std::move(all)));
}

bool headerBytes(const Value& value, std::string& out) {
  switch (value.type()) {
    case ValueType::String: out = value.getString(); return true;
    case ValueType::Bytes: out = value.getBytes().view(); return true;
    case ValueType::Int: bigEndian(static_cast<uint64_t>(value.getInt()), out); return true;
    case ValueType::Double: bigEndian(std::bit_cast<uint64_t>(value.getDouble()), out); return true;
    case ValueType::Bool: out = value.getBool() ? "true" : "false"; return true;
    default: return false;
  }
}

rd_kafka_headers_s* recordHeaders(const Headers& headers, const ValueMap* own,
                                  const HeaderFilterStrategy& filter) {
  rd_kafka_headers_t* out = nullptr;
  thread_local std::string bytes;
  auto add = [&](std::string_view name, const Value& value) {
    if (filter.applyFilterToCamelHeaders(name, value) || !headerBytes(value, bytes)) return;
    if (!out) out = rd_kafka_headers_new(8);
    rd_kafka_header_add(out, name.data(), static_cast<ssize_t>(name.size()), bytes.data(),
                        static_cast<ssize_t>(bytes.size()));
  };
  for (const Headers::Entry& h : headers) add(h.name, h.value);
  if (own) {
    for (const auto& [name, value] : *own) add(name, value);
  }
  return out;
}

bool payloadBytes(const Value& value, std::string& scratch, std::string_view& out) {
  switch (value.type()) {
    case ValueType::Null: return false;
    case ValueType::String: out = value.getString(); return true;
    case ValueType::Bytes: out = value.getBytes().view(); return true;
    default:
      scratch.clear();
      value.appendTo(scratch);  // maps and lists as JSON, scalars as text
      out = scratch;
      return true;
  }
}

}  // namespace dromedary::component::kafka
