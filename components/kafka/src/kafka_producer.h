// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kafka producer: one librdkafka producer per distinct configuration (ProducerClient),
// shared by every endpoint that has it, with a thread of its own serving delivery reports.
// A send hands the records to librdkafka and parks the exchange; the delivery report of its
// last record resumes it, on that thread when what follows cannot block, else on a worker.

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <dromedary/spi/component.h>

#include "kafka_settings.h"

struct rd_kafka_s;
struct rd_kafka_topic_s;

namespace dromedary::component::kafka {

struct Send;

class ProducerClient {
 public:
  /// A producer with `common` and `producer` properties, not connected yet: it starts on its
  /// first send (so that `dromedary validate` and routes that never send connect nowhere).
  ProducerClient(Context& context, std::string uri, Properties common, Properties producer)
      : context_(context), uri_(std::move(uri)), common_(std::move(common)),
        producer_(std::move(producer)) {}
  ~ProducerClient();

  /// Starts the librdkafka producer and its thread, once; errors name the endpoint.
  Result<rd_kafka_s*> started();
  /// After started().
  rd_kafka_s* handle() const noexcept { return rk_.load(std::memory_order_acquire); }
  Context& context() const noexcept { return context_; }
  /// Takes a send that found librdkafka's queue full: the poll thread sends the rest of its
  /// records as room appears, or fails it after `max_block`.
  void waitForRoom(Send* send, std::chrono::milliseconds max_block);
  /// Waits up to `timeout` for every record handed over to be acknowledged.
  void flush(std::chrono::milliseconds timeout) noexcept;

 private:
  void run() noexcept;
  // Sends the blocked sends' records as room appears; fails what waited past its deadline,
  // or everything with `give_up` (the client is going away).
  void retryBlocked(bool give_up) noexcept;

  Context& context_;
  const std::string uri_;
  const Properties common_, producer_;
  std::mutex startMutex_;
  std::atomic<rd_kafka_s*> rk_{nullptr};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;  // blocked_ (the rare full-queue path only)
  struct Blocked {
    Send* send;
    std::chrono::steady_clock::time_point deadline;
  };
  std::deque<Blocked> blocked_;
  std::atomic<bool> anyBlocked_{false};
  std::thread thread_;
};

class KafkaProducer final : public Producer {
 public:
  KafkaProducer(const KafkaSettings& settings, ProducerClient& client);
  ~KafkaProducer() override;
  Status process(Exchange& exchange) noexcept override;
  bool mayBlock() const noexcept override { return false; }
  void stop() noexcept override;

 private:
  // The endpoint's topic, made with the client on the first send.
  rd_kafka_topic_s* startTopic(Exchange& exchange) noexcept;

  const KafkaSettings& settings_;
  ProducerClient& client_;
  std::mutex startMutex_;
  std::atomic<rd_kafka_topic_s*> topic_{nullptr};
  std::chrono::milliseconds maxBlock_;
};

}  // namespace dromedary::component::kafka
