// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The kafka component: `kafka:TOPIC[,TOPIC2]?brokers=host:port&groupId=...`, Camel's
/// camel-kafka on librdkafka (docs/kafka.md: options, headers, commits, what the test cluster
/// does not cover).
///
/// A consumed record's exchange is committed only once it has completed: the offset of a
/// partition moves past a record when its exchange and every earlier one of the partition are
/// done, so an instance that dies loses nothing (its uncommitted records go to the group's
/// other members). With `autoCommitEnable=false&allowManualCommit=true` nothing is committed
/// unless a step calls KafkaManualCommit::commit():
///
///   b.from("kafka:orders?brokers=127.0.0.1:9092&groupId=billing&autoCommitEnable=false"
///          "&allowManualCommit=true")
///       .process([](Exchange& ex) {
///         if (auto* commit = kafkaManualCommit(ex)) {
///           if (auto ok = commit->commit(); !ok) ex.fail(...);
///         }
///       });
///
/// Registered with every built-in component, or alone: registerKafkaComponent(context).

#include <cstdint>
#include <string>

#include <dromedary/core/result.h>

namespace dromedary {

class Exchange;

/// Camel's KafkaManualCommit: commits the offset after its exchange's record.
class KafkaManualCommit {
 public:
  virtual ~KafkaManualCommit() = default;
  /// Commits, waiting for the group coordinator's answer (Camel's commit()/commitSync()).
  /// An error when Kafka refused it, or when the consumer has stopped.
  virtual Result<void> commit() const = 0;
  virtual const std::string& topic() const noexcept = 0;
  virtual int32_t partition() const noexcept = 0;
  virtual int64_t offset() const noexcept = 0;
};

/// The exchange's KafkaManualCommit (the header CamelKafkaManualCommit), or nullptr when its
/// endpoint was not given allowManualCommit=true.
const KafkaManualCommit* kafkaManualCommit(const Exchange& exchange) noexcept;

}  // namespace dromedary
