// SPDX-License-Identifier: Apache-2.0
#pragma once

// Records and messages, both ways, as Camel's kafka component maps them: the value is the
// body, the key kafka.KEY, the record's headers the message's (through the endpoint's header
// filter), and the record's place in kafka.TOPIC, kafka.PARTITION, kafka.OFFSET and
// kafka.TIMESTAMP. Header values go out as Camel's DefaultKafkaHeaderSerializer writes them
// (text as UTF-8, integers as 8 big-endian bytes, doubles as 8 bytes, booleans as text).

#include <string>

#include <dromedary/core/exchange.h>

#include "kafka_settings.h"

struct rd_kafka_message_s;
struct rd_kafka_headers_s;

namespace dromedary::component::kafka {

namespace header {
inline constexpr std::string_view kTopic = "kafka.TOPIC";
inline constexpr std::string_view kPartition = "kafka.PARTITION";
inline constexpr std::string_view kOffset = "kafka.OFFSET";
inline constexpr std::string_view kTimestamp = "kafka.TIMESTAMP";
inline constexpr std::string_view kKey = "kafka.KEY";
inline constexpr std::string_view kHeaders = "kafka.HEADERS";
inline constexpr std::string_view kPartitionKey = "kafka.PARTITION_KEY";
inline constexpr std::string_view kOverrideTopic = "kafka.OVERRIDE_TOPIC";
inline constexpr std::string_view kOverrideTimestamp = "kafka.OVERRIDE_TIMESTAMP";
inline constexpr std::string_view kRecordMeta = "kafka.RECORD_META";
inline constexpr std::string_view kManualCommit = "CamelKafkaManualCommit";
}  // namespace header

/// Sets `message` from a consumed record (not an error event).
void recordToMessage(const rd_kafka_message_s& record, const KafkaSettings& settings,
                     Message& message);

/// The bytes a header value goes out as; false for a value Camel's serializer skips (null,
/// a map, a list, an object).
bool headerBytes(const Value& value, std::string& out);

/// The record headers for `message`'s headers, and then a list element's `own` ones (may be
/// null), that the filter lets out; null when none. The caller owns the result (librdkafka
/// takes it with the record).
rd_kafka_headers_s* recordHeaders(const Headers& headers, const ValueMap* own,
                                  const HeaderFilterStrategy& filter);

/// The bytes a body or key goes out as: text and bytes as they are, a map or list as JSON,
/// a number or boolean as its text; false for null (a record without a value: a tombstone).
bool payloadBytes(const Value& value, std::string& scratch, std::string_view& out);

}  // namespace dromedary::component::kafka
