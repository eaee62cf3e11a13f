// SPDX-License-Identifier: Apache-2.0
// Camel's JdbcAggregationRepository on a data source: open groups in table NAME, completed
// groups waiting for their steps in NAME_completed, both (id, exchange, version). Exchanges are
// stored in dromedary's own encoding (dromedary/sqlite/exchange_codec.h), not Java's.
//
// With the aggregator's optimisticLocking, several instances share the tables: a group is
// read with its version and written back only at that version (UPDATE ... WHERE version = $n,
// or INSERT ... ON CONFLICT DO NOTHING for a new one), and a completion moves the group to the
// completed table in one statement (PostgreSQL: DELETE ... RETURNING inside an INSERT) or one
// transaction (SQLite), so exactly one instance completes it.
#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/sqlite/exchange_codec.h>

#include "sql_repositories.h"

namespace dromedary::component::sql {

namespace {

class JdbcAggregationRepository final : public AggregationRepository {
 public:
  JdbcAggregationRepository(std::shared_ptr<Database> db, const std::string& t,
                            AggregationRecovery recovery)
      : db_(std::move(db)),
        name_(t),
        recovery_(std::move(recovery)),
        get_(fmt::format("SELECT exchange, version FROM {} WHERE id = $1", t)),
        insert_(fmt::format("INSERT INTO {} (id, exchange, version) VALUES ($1, $2, 1) "
                            "ON CONFLICT DO NOTHING",
                            t)),
        update_(fmt::format("UPDATE {} SET exchange = $2, version = version + 1 WHERE id = $1 "
                            "AND version = $3",
                            t)),
        upsert_(fmt::format("INSERT INTO {0} (id, exchange, version) VALUES ($1, $2, 1) "
                            "ON CONFLICT (id) DO UPDATE SET exchange = excluded.exchange, "
                            "version = {0}.version + 1",
                            t)),
        remove_(fmt::format("DELETE FROM {} WHERE id = $1", t)),
        removeCompleted_(fmt::format("DELETE FROM {}_completed WHERE id = $1", t)),
        removeAt_(fmt::format("DELETE FROM {} WHERE id = $1 AND ($2 < 0 OR version = $2)", t)),
        addCompleted_(fmt::format("INSERT INTO {}_completed (id, exchange, version) VALUES ($1, "
                                  "$2, 1)",
                                  t)),
        moveToCompleted_(fmt::format(
            "WITH gone AS (DELETE FROM {0} WHERE id = $1 AND ($2 < 0 OR version = $2) RETURNING "
            "id) INSERT INTO {0}_completed (id, exchange, version) SELECT $3::VARCHAR, $4::BYTEA, 1 "
            "WHERE "
            "EXISTS (SELECT 1 FROM gone) OR $2 <= 0",
            t)),
        scanOpen_(fmt::format("SELECT id, exchange FROM {}", t)),
        scanCompleted_(fmt::format("SELECT id, exchange FROM {}_completed", t)) {}

  bool supportsOptimisticLocking() const noexcept override { return true; }
  AggregationRecovery recovery() const override { return recovery_; }

  std::vector<std::pair<std::string, ExchangePtr>> completedGroups(Context& context) override {
    std::vector<std::pair<std::string, ExchangePtr>> out;
    for (const Value& row : run(scanCompleted_, {}).rows) {
      out.emplace_back(row.getMap()[0].second.toString(), decode(context, row.getMap()[1].second));
    }
    return out;
  }

  void add(std::string_view key, const Exchange& aggregate) override {
    run(upsert_, {Value(key), blob(aggregate)});
  }

  void remove(std::string_view key) override {
    run(remove_, {Value(key)});
    run(removeCompleted_, {Value(key)});
  }

  std::vector<std::pair<std::string, ExchangePtr>> recover(Context& context) override {
    std::vector<std::pair<std::string, ExchangePtr>> out;
    for (const StatementText* scan : {&scanOpen_, &scanCompleted_}) {
      QueryResult rows = run(*scan, {});
      for (const Value& row : rows.rows) {
        out.emplace_back(row.getMap()[0].second.toString(),
                         decode(context, row.getMap()[1].second));
      }
    }
    return out;
  }

  std::pair<ExchangePtr, int64_t> get(Context& context, std::string_view key) override {
    QueryResult r = run(get_, {Value(key)});
    if (r.rows.empty()) return {ExchangePtr(), 0};
    const ValueMap& row = r.rows[0].getMap();
    return {decode(context, row[0].second), row[1].second.as<int64_t>()};
  }

  bool put(std::string_view key, const Exchange& aggregate, int64_t version) override {
    if (version == 0) return run(insert_, {Value(key), blob(aggregate)}).affected == 1;
    return run(update_, {Value(key), blob(aggregate), Value(version)}).affected == 1;
  }

  bool complete(std::string_view key, int64_t version, std::string_view completed_key,
                const Exchange& aggregate) override {
    if (db_->dialect() == Dialect::PostgreSQL) {
      // One statement: the insert happens only if the delete found the group at its version
      // (or there was none to find: a group complete with its first exchange).
      QueryResult r = run(moveToCompleted_,
                          {Value(key), Value(version), Value(completed_key), blob(aggregate)});
      return r.affected == 1;
    }
    // SQLite: a transaction on a connection of its own.
    auto session = db_->openSession();
    if (!session) fail(SqlError{"08001", session.error().message});
    Session& s = **session;
    check(s.run("BEGIN IMMEDIATE"));
    QueryResult gone = check(s.execute(removeAt_, std::vector<Value>{Value(key), Value(version)}));
    if (version > 0 && gone.affected != 1) {
      check(s.run("ROLLBACK"));
      return false;
    }
    check(s.execute(addCompleted_, std::vector<Value>{Value(completed_key), blob(aggregate)}));
    check(s.run("COMMIT"));
    return true;
  }

 private:
  static Value blob(const Exchange& exchange) { return Value(Bytes(sqlite::encodeExchange(exchange))); }

  ExchangePtr decode(Context& context, const Value& data) {
    ExchangePtr ex = acquireExchange(&context);
    std::string text = data.isBytes() ? std::string(data.getBytes().view()) : data.toString();
    if (!sqlite::decodeExchange(text, *ex)) {
      fail(SqlError{"22000", "a row is not a stored exchange"});
    }
    return ex;
  }

  // Failures throw: the exchange being aggregated fails, naming the repository.
  [[noreturn]] void fail(const SqlError& error) const {
    throw DromedaryException(makeError(
        ErrorCode::Io, fmt::format("aggregation repository '{}' in {}: {}", name_,
                                   db_->describe(), describeError(error))));
  }
  QueryResult check(QueryOutcome&& outcome) const {
    if (auto* error = std::get_if<SqlError>(&outcome)) fail(*error);
    return std::move(std::get<QueryResult>(outcome));
  }
  QueryResult run(const StatementText& s, std::vector<Value> params) {
    return check(db_->executeAndWait(s, std::move(params)));
  }

  std::shared_ptr<Database> db_;
  std::string name_;
  AggregationRecovery recovery_;
  StatementText get_, insert_, update_, upsert_, remove_, removeCompleted_, removeAt_,
      addCompleted_, moveToCompleted_, scanOpen_, scanCompleted_;
};

}  // namespace

Result<std::shared_ptr<AggregationRepository>> openAggregationRepository(
    std::shared_ptr<Database> database, const std::string& name, AggregationRecovery recovery) {
  if (recovery.maximumRedeliveries > 0 && recovery.deadLetterUri.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     "maximumRedeliveries needs a deadLetterUri for the groups that reach it");
  }
  if (!validTableName(name)) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("repositoryName '{}' is not a table name (letters, digits, _ "
                                 "and .)",
                                 name));
  }
  const char* blob = database->dialect() == Dialect::PostgreSQL ? "BYTEA" : "BLOB";
  for (const std::string& table : {name, name + "_completed"}) {
    StatementText create(fmt::format("CREATE TABLE IF NOT EXISTS {} (id VARCHAR(255) NOT NULL "
                                     "PRIMARY KEY, exchange {} NOT NULL, version BIGINT NOT NULL)",
                                     table, blob),
                         /*once=*/true);
    DROMEDARY_TRY_VOID(createTable(*database, create, table));
  }
  return std::shared_ptr<AggregationRepository>(
      std::make_shared<JdbcAggregationRepository>(std::move(database), name,
                                                  std::move(recovery)));
}

}  // namespace dromedary::component::sql
