// SPDX-License-Identifier: Apache-2.0
#pragma once

// How a Kafka operation fails an exchange: an exception named as the Java client's
// (org.apache.kafka.common.KafkaException and its kinds), so routes written for Camel catch
// it as they did.

#include <librdkafka/rdkafka.h>

#include <stdexcept>
#include <string>

#include <dromedary/engine/exception_types.h>

namespace dromedary {
class Context;
}

namespace dromedary::component::kafka {

class KafkaFailure final : public std::runtime_error, public NamedTypeException {
 public:
  KafkaFailure(rd_kafka_resp_err_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  rd_kafka_resp_err_t code() const noexcept { return code_; }
  std::string_view exceptionType() const noexcept override;

 private:
  rd_kafka_resp_err_t code_;
};

/// Registers KafkaException and the kinds KafkaFailure names.
void registerKafkaExceptionTypes(Context& context);

}  // namespace dromedary::component::kafka
