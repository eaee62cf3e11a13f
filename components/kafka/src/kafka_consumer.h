// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kafka consumer: consumersCount members of the endpoint's group, each a librdkafka
// consumer with a thread of its own, on which its records' routes run (as Camel runs them on
// its consumer's thread).
//
// A member runs one exchange per partition at a time, in offset order (Camel's per-partition
// order), and partitions side by side: a route that waits for I/O (a reply, a delay) holds up
// its own partition only. Records of a busy partition wait in librdkafka's queue for that
// partition, which librdkafka stops filling when it is full (queued.min.messages,
// queued.max.messages.kbytes): nothing is buffered without bound. An exchange's offset is
// stored only once the exchange has completed, and librdkafka commits stored offsets in the
// background (autoCommitEnable), when partitions are revoked and when the consumer stops: a
// member that dies loses nothing; its uncommitted records go to the member that takes its
// partitions.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <dromedary/spi/component.h>

#include "kafka_settings.h"

namespace dromedary::component::kafka {

class GroupMember;

class KafkaConsumer final : public Consumer {
 public:
  KafkaConsumer(Context& context, const KafkaSettings& settings, Processor& route);
  ~KafkaConsumer() override;
  Result<void> start() override;
  /// Stops taking records; each member then waits (up to shutdownTimeout) for its exchanges
  /// in flight, commits them and leaves the group (joined when the consumer is destroyed).
  void stop() noexcept override;
  /// The context's shutdown timeout passed: the members stop waiting for their exchanges
  /// (their records stay uncommitted, to be consumed again) and leave the group now. Records
  /// not yet in a route are librdkafka's, not held here: 0.
  size_t abandonPending() noexcept override;
  std::string healthProblem() const override;

 private:
  Context& context_;
  const KafkaSettings& settings_;
  Processor& route_;
  std::vector<std::unique_ptr<GroupMember>> members_;
};

}  // namespace dromedary::component::kafka
