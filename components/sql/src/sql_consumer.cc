// SPDX-License-Identifier: Apache-2.0
#include "sql_consumer.h"

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "sql_failure.h"

namespace dromedary::component::sql {

namespace {

std::unique_ptr<StatementText> textOf(const std::optional<ParsedQuery>& q) {
  return q ? std::make_unique<StatementText>(q->statementSql()) : nullptr;
}

}  // namespace

SqlConsumer::SqlConsumer(Context& context, const ConsumerConfig& config, Processor& processor)
    : context_(context),
      config_(config),
      processor_(processor),
      log_(Logger::get("dromedary.sql")),
      select_(std::make_unique<StatementText>(config.query.statementSql())),
      onConsume_(textOf(config.onConsume)),
      onConsumeFailed_(textOf(config.onConsumeFailed)),
      batchComplete_(textOf(config.onConsumeBatchComplete)) {}

// Past a stop's timeout, the row in the route is left to finish alone: the poll thread stops
// waiting for it, so that the consumer goes now (the shutdown timeout holds), and its row,
// not marked, is read again by the next poll (here after a restart, or by another instance).
SqlConsumer::~SqlConsumer() {
  stop();
  waits_.abandon();
  if (thread_.joinable()) thread_.join();
}

Result<void> SqlConsumer::start() {
  // Bad SQL fails the route's start, as the producer's does.
  const std::string what = "endpoint '" + config_.uri + "'";
  for (const StatementText* text : {select_.get(), onConsume_.get(), onConsumeFailed_.get()}) {
    if (text) DROMEDARY_TRY_VOID(checkStatement(*config_.database, *text, what));
  }
  // A restart after stop(): the previous poll finishes its row first.
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  waits_.reset();
  thread_ = std::thread([this] {
    ConsumerWaits::Member member(waits_);
    slot_ = &member.slot();
    run();
  });
  return {};
}

void SqlConsumer::stop() noexcept {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

std::string SqlConsumer::healthProblem() const {
  std::lock_guard lock(mutex_);
  return problem_;
}

bool SqlConsumer::sleepFor(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  wake_.wait_for(lock, wait, [&] { return stopping_; });
  return !stopping_;
}

void SqlConsumer::run() {
  if (!sleepFor(config_.initialDelay)) return;
  for (int64_t polls = 0; config_.repeatCount <= 0 || polls < config_.repeatCount; ++polls) {
    std::optional<size_t> routed = poll();
    // greedy: poll again at once after a poll that found rows.
    if (config_.greedy && routed && *routed > 0) {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      continue;
    }
    if (!sleepFor(config_.delay)) return;
  }
}

SqlConsumer::Outcome SqlConsumer::process(ExchangePtr& exchange) {
  Exchange* ex = exchange.release();
  const ConsumerWaits::Outcome outcome =
      waits_.process(*slot_, *ex, processor_, &ConsumerWaits::recycle, nullptr);
  if (outcome == ConsumerWaits::Outcome::Abandoned) return Outcome::Abandoned;
  exchange.reset(ex);
  switch (outcome) {
    case ConsumerWaits::Outcome::Completed: return Outcome::Completed;
    case ConsumerWaits::Outcome::Failed: return Outcome::Failed;
    default: return Outcome::Abandoned;  // refused: not routed, the consumer is going
  }
}

bool SqlConsumer::afterRow(const ParsedQuery& statement, const StatementText& text,
                           Exchange& exchange, const Value& row, bool check_count) {
  std::vector<Value> values;
  auto found = statement.values(exchange, row, values, nullptr);
  if (!found) {
    log_.log(LoggingLevel::Warn, fmt::format("sql consumer {}: {}", config_.uri,
                                             found.error().message));
    return false;
  }
  QueryOutcome outcome = session_->execute(text, values);
  if (auto* error = std::get_if<SqlError>(&outcome)) {
    log_.log(LoggingLevel::Warn, fmt::format("sql consumer {}: '{}' failed: {}", config_.uri,
                                             statement.original(), describeError(*error)));
    return false;
  }
  int64_t count = std::get<QueryResult>(outcome).affected;
  if (check_count && config_.expectedUpdateCount >= 0 && count != config_.expectedUpdateCount) {
    log_.log(LoggingLevel::Warn,
             fmt::format("sql consumer {}: Expected update count {} but was {} executing query: "
                         "{}",
                         config_.uri, config_.expectedUpdateCount, count, statement.original()));
    return false;
  }
  return true;
}

std::optional<size_t> SqlConsumer::poll() {
  // A stopping context waits for the poll under way: its row, onConsume and commit.
  polling_.store(true, std::memory_order_relaxed);
  struct PollEnd {
    std::atomic<bool>& polling;
    ~PollEnd() { polling.store(false, std::memory_order_release); }
  } poll_end{polling_};
  auto fail = [&](const std::string& why) -> std::optional<size_t> {
    log_.log(LoggingLevel::Warn, fmt::format("sql consumer {}: {}", config_.uri, why));
    std::lock_guard lock(mutex_);
    problem_ = why;
    session_.reset();  // a new connection next time
    return std::nullopt;
  };
  if (!session_) {
    auto opened = config_.database->openSession();
    if (!opened) return fail(opened.error().message);
    session_ = std::move(*opened);
  }
  if (config_.transacted) {
    QueryOutcome begun = session_->run("BEGIN");
    if (auto* error = std::get_if<SqlError>(&begun)) return fail(describeError(*error));
  }
  // The query's expression parameters see an exchange of their own (Camel's consumer has no
  // message either).
  ExchangePtr scratch = context_.createExchange();
  std::vector<Value> params;
  if (auto found = config_.query.values(*scratch, Value(), params, nullptr); !found) {
    return fail(found.error().message);
  }
  QueryOutcome selected = session_->execute(*select_, params);
  if (auto* error = std::get_if<SqlError>(&selected)) {
    std::string why = fmt::format("the query '{}' failed: {}", config_.query.original(),
                                  describeError(*error));
    if (config_.transacted) session_->run("ROLLBACK");
    return fail(why);
  }
  {
    std::lock_guard lock(mutex_);
    problem_.clear();
  }
  ValueList& rows = std::get<QueryResult>(selected).rows;
  if (config_.maxMessagesPerPoll > 0 && rows.size() > static_cast<size_t>(config_.maxMessagesPerPoll)) {
    rows.resize(static_cast<size_t>(config_.maxMessagesPerPoll));
  }
  const int64_t total = static_cast<int64_t>(rows.size());
  bool abandoned = false;
  if (rows.empty()) {
    if (config_.sendEmptyMessageWhenIdle || (config_.routeEmptyResultSet && !config_.useIterator)) {
      ExchangePtr exchange = context_.createExchange();
      if (!config_.sendEmptyMessageWhenIdle) exchange->message().setBody(Value(ValueList()));
      abandoned = process(exchange) == Outcome::Abandoned;
    }
  } else if (!config_.useIterator) {
    ExchangePtr exchange = context_.createExchange();
    exchange->message().setHeader("CamelSqlRowCount", Value(total));
    exchange->message().setBody(Value(std::move(rows)));
    abandoned = process(exchange) == Outcome::Abandoned;
  } else {
    for (int64_t i = 0; i < total; ++i) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) break;  // the rest are read again by the next poll, here or elsewhere
      }
      const Value& row = rows[static_cast<size_t>(i)];
      ExchangePtr exchange = context_.createExchange();
      exchange->setProperty("CamelBatchIndex", Value(i));
      exchange->setProperty("CamelBatchSize", Value(total));
      exchange->setProperty("CamelBatchComplete", Value(i + 1 == total));
      exchange->message().setHeader("CamelSqlRowCount", Value(total));
      exchange->message().setBody(row);
      const Outcome outcome = process(exchange);
      if (outcome == Outcome::Abandoned) {
        abandoned = true;
        break;
      }
      if (outcome == Outcome::Completed) {
        if (onConsume_ && !afterRow(*config_.onConsume, *onConsume_, *exchange, row, true) &&
            config_.breakBatchOnConsumeFail) {
          break;
        }
      } else {
        if (onConsumeFailed_) {
          afterRow(*config_.onConsumeFailed, *onConsumeFailed_, *exchange, row, false);
        }
        // Transacted, the batch stops at a failed exchange (as Camel's). Its row was not
        // marked consumed, so a later poll reads it again; the rows before it, whose exchanges
        // completed, keep their onConsume (Camel would roll them back and route them again).
        if (config_.transacted) break;
      }
    }
  }
  if (abandoned) {  // the consumer is going: no batch end, and nothing of it committed
    if (config_.transacted) session_->run("ROLLBACK");
    return static_cast<size_t>(total);
  }
  if (batchComplete_ && total > 0) {
    QueryOutcome done = session_->run(config_.onConsumeBatchComplete->statementSql());
    if (auto* error = std::get_if<SqlError>(&done)) {
      log_.log(LoggingLevel::Warn,
               fmt::format("sql consumer {}: onConsumeBatchComplete failed: {}", config_.uri,
                           describeError(*error)));
    }
  }
  if (config_.transacted) {
    QueryOutcome ended = session_->run("COMMIT");
    if (auto* error = std::get_if<SqlError>(&ended)) return fail(describeError(*error));
  }
  return static_cast<size_t>(total);
}

}  // namespace dromedary::component::sql
