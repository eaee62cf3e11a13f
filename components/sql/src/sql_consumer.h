// SPDX-License-Identifier: Apache-2.0
#pragma once

// The sql: consumer (Camel's SqlConsumer): polls a query every `delay` on a thread of its own
// with a connection of its own, feeds each row into the route as a map (or the whole result
// as a list), and after each exchange runs `onConsume` (it completed) or `onConsumeFailed`,
// then `onConsumeBatchComplete` after the batch. With `transacted`, one poll is one
// transaction (its row locks held, its onConsume updates committed at the end, after their
// exchanges completed); a failed exchange stops the batch, and its row, not marked, is read
// again by a later poll.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <dromedary/core/logging.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/consumer_waits.h>

#include "database.h"
#include "sql_query.h"

namespace dromedary::component::sql {

struct ConsumerConfig {
  std::string uri;  // for messages
  std::shared_ptr<Database> database;
  ParsedQuery query;
  std::optional<ParsedQuery> onConsume, onConsumeFailed, onConsumeBatchComplete;
  std::chrono::milliseconds initialDelay{1000}, delay{500};
  int64_t repeatCount = 0;     // polls; 0: for ever
  int64_t maxMessagesPerPoll = 0;
  int64_t expectedUpdateCount = -1;
  bool useIterator = true;
  bool routeEmptyResultSet = false;
  bool sendEmptyMessageWhenIdle = false;
  bool transacted = false;
  bool breakBatchOnConsumeFail = false;
  bool greedy = false;
};

class SqlConsumer final : public Consumer {
 public:
  SqlConsumer(Context& context, const ConsumerConfig& config, Processor& processor);
  ~SqlConsumer() override;
  Result<void> start() override;
  /// Takes no more rows; the row in the route finishes, and its onConsume and the poll's
  /// commit run (the context waits for them: completing()).
  void stop() noexcept override;
  /// A poll under way (it ends after the row in the route, once stopped).
  size_t completing() const noexcept override {
    return polling_.load(std::memory_order_acquire) ? 1 : 0;
  }
  std::string healthProblem() const override;

 private:
  enum class Outcome : uint8_t { Completed, Failed, Abandoned };

  void run();
  /// One poll; the number of rows it routed, or nullopt when the database failed.
  std::optional<size_t> poll();
  /// Routes `exchange` and waits for it; Abandoned when the consumer went first (the
  /// context's stop timed out): the exchange finishes alone, and its row is not marked.
  Outcome process(ExchangePtr& exchange);
  /// Runs an onConsume-style statement with the row's values; false when it failed or its
  /// update count is not the expected one (logged).
  bool afterRow(const ParsedQuery& statement, const StatementText& text, Exchange& exchange,
                const Value& row, bool check_count);
  bool sleepFor(std::chrono::milliseconds wait);

  Context& context_;
  const ConsumerConfig& config_;
  Processor& processor_;
  Logger log_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<StatementText> select_, onConsume_, onConsumeFailed_, batchComplete_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  ConsumerWaits waits_;
  ConsumerWaits::Slot* slot_ = nullptr;  // the poll thread's
  std::atomic<bool> polling_{false};
  std::string problem_;  // under mutex_
};

}  // namespace dromedary::component::sql
