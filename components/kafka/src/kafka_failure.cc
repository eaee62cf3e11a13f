// SPDX-License-Identifier: Apache-2.0
#include "kafka_failure.h"

#include <dromedary/engine/context.h>

namespace dromedary::component::kafka {

namespace {
constexpr const char* kKafkaException = "org.apache.kafka.common.KafkaException";
constexpr const char* kTimeout = "org.apache.kafka.common.errors.TimeoutException";
constexpr const char* kTooLarge = "org.apache.kafka.common.errors.RecordTooLargeException";
constexpr const char* kUnknownTopic =
    "org.apache.kafka.common.errors.UnknownTopicOrPartitionException";
constexpr const char* kAuthorization =
    "org.apache.kafka.common.errors.TopicAuthorizationException";
}  // namespace

std::string_view KafkaFailure::exceptionType() const noexcept {
  switch (code_) {
    case RD_KAFKA_RESP_ERR__MSG_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__QUEUE_FULL:
      return kTimeout;
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
      return kTooLarge;
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
      return kUnknownTopic;
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
      return kAuthorization;
    default:
      return kKafkaException;
  }
}

void registerKafkaExceptionTypes(Context& context) {
  if (!context.registerExceptionType(kKafkaException, "std::runtime_error", nullptr)) {
    return;  // registered already
  }
  for (const char* kind : {kTimeout, kTooLarge, kUnknownTopic, kAuthorization}) {
    (void)context.registerExceptionType(kind, kKafkaException, nullptr);
  }
}

}  // namespace dromedary::component::kafka
