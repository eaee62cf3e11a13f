// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a kafka: endpoint's options decide, fixed when the endpoint is created: the librdkafka
// properties of its consumers and producer (Camel's option names mapped onto librdkafka's,
// plus additionalProperties.* passed through) and the knobs the component itself acts on.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/core/uri.h>
#include <dromedary/spi/header_filter_strategy.h>
#include <dromedary/spi/option_table.h>

struct rd_kafka_conf_s;

namespace dromedary {
class Context;
}

namespace dromedary::component::kafka {

using Properties = std::vector<std::pair<std::string, std::string>>;

enum class SeekTo { None, Beginning, End };
enum class CommitOnStop { Sync, Async, None };

struct KafkaSettings {
  std::string uri;                  // the endpoint's, for errors and log lines
  std::vector<std::string> topics;  // the path, split at commas
  bool topicIsPattern = false;

  Properties common;    // every client of the endpoint
  Properties consumer;  // consumers only
  Properties producer;  // the producer only

  // Consumer.
  int consumersCount = 1;
  int maxPollRecords = 500;  // records of one partition run in a row
  std::chrono::milliseconds pollTimeout{5000};
  bool autoCommit = true;
  bool allowManualCommit = false;
  bool breakOnFirstError = false;
  CommitOnStop commitOnStop = CommitOnStop::Sync;
  SeekTo seekTo = SeekTo::None;
  bool keyBytes = false;    // ByteArrayDeserializer: kafka.KEY as bytes
  bool valueBytes = false;  // ByteArrayDeserializer: the body as bytes
  std::chrono::milliseconds shutdownTimeout{30000};
  std::string groupId;  // as given, or generated

  // Producer.
  std::optional<std::string> key;
  std::optional<int32_t> partitionKey;
  bool recordMetadata = true;
  bool batchWithIndividualHeaders = false;
  std::chrono::milliseconds maxBlock{60000};  // a send waiting for room in a full queue

  std::shared_ptr<const HeaderFilterStrategy> filter;
};

/// The component's option table (Camel's names and defaults).
std::span<const OptionSpec> kafkaOptions() noexcept;

/// The settings of endpoint `uri`, whose `options` the table validated; `extra` are the options
/// the table does not name (additionalProperties.* only; any other is refused). Every
/// librdkafka property is tried on a configuration here, so that a bad value fails now,
/// naming the endpoint and the option.
Result<KafkaSettings> kafkaSettings(Context& context, const Uri& uri,
                                    const EndpointOptions& options,
                                    const std::vector<Uri::Option>& extra);

/// A librdkafka configuration holding `groups` of properties, in order. Error: the property
/// librdkafka refused, and why, naming `uri`.
Result<rd_kafka_conf_s*> makeConf(const std::string& uri,
                                  std::initializer_list<const Properties*> groups);

/// Routes librdkafka's log lines to the "kafka" logger.
void installLogger(rd_kafka_conf_s* conf) noexcept;

/// The user name and password in a Kafka JAAS line (PlainLoginModule / ScramLoginModule
/// `required username="u" password="p";`), nullopt when it has neither.
std::optional<std::pair<std::string, std::string>> jaasCredentials(std::string_view jaas);

}  // namespace dromedary::component::kafka
