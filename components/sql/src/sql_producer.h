// SPDX-License-Identifier: Apache-2.0
#pragma once

// The sql: producer: finds a statement's parameter values in the exchange, hands the statement
// to the data source and parks the exchange until the result comes back (at once for SQLite,
// and for PostgreSQL when the calling thread waits for the exchange anyway),
// then maps the rows or the update count onto the message as Camel's SqlProducer does.

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <dromedary/spi/component.h>

#include "database.h"
#include "sql_query.h"

namespace dromedary::component::sql {

enum class OutputType : uint8_t { SelectList, SelectOne, StreamList };

/// What an endpoint's options decided, fixed when the endpoint is made.
struct ProducerConfig {
  Context* context = nullptr;
  std::shared_ptr<Database> database;
  ParsedQuery query;
  std::unique_ptr<StatementText> statement;  // null when the query has IN lists
  OutputType outputType = OutputType::SelectList;
  std::string outputHeader;
  bool batch = false;
  bool noop = false;
  bool useMessageBodyForSql = false;
  int parametersCount = 0;  // > 0: the number of values a statement takes, checked
  std::string placeholder;  // for queries from a header or the body; empty: `?` only
  char separator = ',';

  /// The statement with `RETURNING *`, for CamelSqlRetrieveGeneratedKeys (made on first use).
  const StatementText& returningStatement() const;

 private:
  mutable std::once_flag returningOnce_;
  mutable std::unique_ptr<StatementText> returning_;
};

class SqlProducer final : public Producer {
 public:
  SqlProducer(const ProducerConfig& config, std::string uri)
      : config_(config), uri_(std::move(uri)) {}
  /// Prepares the endpoint's statement: bad SQL fails the route's start.
  Result<void> start() override;
  Status process(Exchange& exchange) noexcept override;
  // PostgreSQL statements park the exchange (or run on the calling thread when it waits for
  // the exchange anyway: callerWaits); SQLite's run on the caller's thread, and so does
  // a StreamList's connection and query (the rows are then read as the body is).
  bool mayBlock() const noexcept override {
    return config_.database->blocksCaller() || config_.outputType == OutputType::StreamList;
  }

 private:
  const ProducerConfig& config_;
  std::string uri_;
};

/// Camel's SelectOne: null for no row, the value for one row of one column, the row's map
/// for one row of several; more rows fail (the message says how many).
Result<Value> selectOne(QueryResult& result);

}  // namespace dromedary::component::sql
