// SPDX-License-Identifier: Apache-2.0
#include "database.h"

#include <condition_variable>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include <dromedary/core/logging.h>

#include "sql_failure.h"

namespace dromedary::component::sql {

namespace {
std::atomic<uint64_t> next_statement_id{1};
}  // namespace

StatementText::StatementText(std::string sql_text, bool once)
    : id(once ? 0 : next_statement_id.fetch_add(1, std::memory_order_relaxed)),
      sql(std::move(sql_text)),
      name(id != 0 ? "dromedary_" + std::to_string(id) : std::string()) {}

namespace {

// Waits for one statement on the calling thread.
class Waiter final : public QueryCallback {
 public:
  void done(QueryOutcome&& outcome) noexcept override {
    std::lock_guard lock(mutex_);
    outcome_.emplace(std::move(outcome));
    ready_.notify_one();
  }
  QueryOutcome wait() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return outcome_.has_value(); });
    return std::move(*outcome_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::optional<QueryOutcome> outcome_;
};

}  // namespace

QueryOutcome Database::executeAndWait(const StatementText& statement, std::vector<Value> params) {
  Waiter waiter;
  std::vector<std::vector<Value>> sets;
  sets.push_back(std::move(params));
  execute(statement, sets, waiter, Caller::WillWait);
  return waiter.wait();
}

QueryOutcome Database::prepareAndWait(const StatementText& statement) {
  Waiter waiter;
  execute(statement, {}, waiter, Caller::WillWait);  // no executions: the prepare alone
  return waiter.wait();
}

std::string describeError(const SqlError& error) {
  if (error.sqlState.empty()) return error.message;
  return fmt::format("{} (SQLSTATE {})", error.message, error.sqlState);
}

std::exception_ptr sqlFailure(const SqlError& error, std::string_view query) {
  // Our own errors (a parameter not found ...) name the query already, as Camel's do; the
  // database's get it added.
  bool named = error.message.find(query) != std::string::npos;
  return std::make_exception_ptr(SqlFailure(
      error.sqlState, named ? error.message
                            : fmt::format("{} (query: {})", describeError(error), query)));
}

}  // namespace dromedary::component::sql

namespace dromedary::component::sql {

Result<void> checkStatement(Database& database, const StatementText& statement,
                            std::string_view what) {
  QueryOutcome outcome = database.prepareAndWait(statement);
  const auto* error = std::get_if<SqlError>(&outcome);
  if (!error) return {};
  // Bad SQL (a syntax error, SQLSTATE 42601) fails the start; a table or column that does not
  // exist yet (42P01, 42703 ...) may be made by another route or a migration: a warning.
  if (error->sqlState == "42601") {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("{}: the database {} refuses the statement '{}': {}", what,
                                 database.describe(), statement.sql, describeError(*error)));
  }
  Logger::get("dromedary.sql").log(
      LoggingLevel::Warn, fmt::format("{}: cannot check the statement '{}' now: {}", what,
                                      statement.sql, describeError(*error)));
  return {};
}

}  // namespace dromedary::component::sql
