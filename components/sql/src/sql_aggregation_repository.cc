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
//
// With a memberId expression, the members folded are kept too, in NAME_members (member, id,
// createdAt): a group is written only if the member is not there, and the member is written
// with it, in the same statement (PostgreSQL) or transaction (SQLite). A record delivered twice
// is then folded once, whichever instance gets it and whenever.
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
                            AggregationRecovery recovery, std::unique_ptr<Expression> member_id)
      : db_(std::move(db)),
        name_(t),
        recovery_(std::move(recovery)),
        memberId_(std::move(member_id)),
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
        scanCompleted_(fmt::format("SELECT id, exchange FROM {}_completed", t)),
        // PostgreSQL, with members: the group is written only if the member is new, the
        // member only if the group was written; the counts say what happened.
        putNewMember_(fmt::format(
            "WITH w AS (INSERT INTO {0} (id, exchange, version) SELECT $1::VARCHAR, $2::BYTEA, 1 "
            "WHERE NOT EXISTS (SELECT 1 FROM {0}_members WHERE member = $3::TEXT) ON CONFLICT "
            "DO NOTHING RETURNING id), {1}",
            t, memberTail(t, "$3"))),
        putMember_(fmt::format(
            "WITH w AS (UPDATE {0} SET exchange = $2::BYTEA, version = version + 1 WHERE id = "
            "$1::VARCHAR AND version = $4::BIGINT AND NOT EXISTS (SELECT 1 FROM {0}_members "
            "WHERE member = $3::TEXT) RETURNING id), {1}",
            t, memberTail(t, "$3"))),
        completeMember_(fmt::format(
            "WITH gone AS (DELETE FROM {0} WHERE id = $1::VARCHAR AND ($2::BIGINT < 0 OR version "
            "= $2::BIGINT) AND NOT EXISTS (SELECT 1 FROM {0}_members WHERE member = $5::TEXT) "
            "RETURNING id), w AS (INSERT INTO {0}_completed (id, exchange, version) SELECT "
            "$3::VARCHAR, $4::BYTEA, 1 WHERE (EXISTS (SELECT 1 FROM gone) OR $2::BIGINT <= 0) AND "
            "NOT EXISTS (SELECT 1 FROM {0}_members WHERE member = $5::TEXT) RETURNING $1::VARCHAR "
            "AS id), {1}",
            t, memberTail(t, "$5"))),
        memberSeen_(fmt::format("SELECT COUNT(*) FROM {}_members WHERE member = $1", t)),
        addMember_(fmt::format("INSERT INTO {}_members (member, id) VALUES ($1, $2)", t)) {}

  const Expression* memberId() const noexcept override { return memberId_.get(); }

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

  Write put(std::string_view key, const Exchange& aggregate, int64_t version,
            std::string_view member) override {
    if (!member.empty() && db_->dialect() == Dialect::PostgreSQL) {
      if (version == 0) {
        return outcome(run(putNewMember_, {Value(key), blob(aggregate), Value(member)}));
      }
      return outcome(
          run(putMember_, {Value(key), blob(aggregate), Value(member), Value(version)}));
    }
    if (!member.empty()) {
      // Two literal lists, not one grown by push_back: GCC 12 at -O3 warns (falsely) that the
      // pushed Value may be read uninitialised, and the build treats warnings as errors.
      return inTransaction(member, key, [&](Session& s) {
        if (version == 0) {
          return check(s.execute(insert_, std::vector<Value>{Value(key), blob(aggregate)}))
                     .affected == 1;
        }
        return check(s.execute(update_, std::vector<Value>{Value(key), blob(aggregate),
                                                           Value(version)}))
                   .affected == 1;
      });
    }
    if (version == 0) return written(run(insert_, {Value(key), blob(aggregate)}).affected == 1);
    return written(run(update_, {Value(key), blob(aggregate), Value(version)}).affected == 1);
  }

  Write complete(std::string_view key, int64_t version, std::string_view completed_key,
                 const Exchange& aggregate, std::string_view member) override {
    if (db_->dialect() == Dialect::PostgreSQL) {
      if (!member.empty()) {
        return outcome(run(completeMember_, {Value(key), Value(version), Value(completed_key),
                                             blob(aggregate), Value(member)}));
      }
      // One statement: the insert happens only if the delete found the group at its version
      // (or there was none to find: a group complete with its first exchange).
      QueryResult r = run(moveToCompleted_,
                          {Value(key), Value(version), Value(completed_key), blob(aggregate)});
      return written(r.affected == 1);
    }
    // SQLite: a transaction on a connection of its own.
    return inTransaction(member, key, [&](Session& s) {
      QueryResult gone =
          check(s.execute(removeAt_, std::vector<Value>{Value(key), Value(version)}));
      if (version > 0 && gone.affected != 1) return false;
      check(s.execute(addCompleted_, std::vector<Value>{Value(completed_key), blob(aggregate)}));
      return true;
    });
  }

 private:
  static Value blob(const Exchange& exchange) { return Value(Bytes(sqlite::encodeExchange(exchange))); }
  static Write written(bool ok) { return ok ? Write::Written : Write::Conflict; }

  // The end of a PostgreSQL statement with members, after a CTE `w` that wrote the group
  // (returning its id, or nothing): the member goes in if the group was written; the answer
  // is (groups written, members seen before this statement).
  static std::string memberTail(const std::string& t, const char* member) {
    return fmt::format("m AS (INSERT INTO {0}_members (member, id) SELECT {1}::TEXT, id FROM w "
                       "ON CONFLICT DO NOTHING RETURNING 1) SELECT (SELECT COUNT(*) FROM w), "
                       "(SELECT COUNT(*) FROM {0}_members WHERE member = {1}::TEXT)",
                       t, member);
  }
  // Written; else the member was there before (a duplicate), or the group changed (a
  // conflict: the caller reads and folds again).
  static Write outcome(const QueryResult& r) {
    const ValueMap& row = r.rows.at(0).getMap();
    if (row[0].second.as<int64_t>() == 1) return Write::Written;
    return row[1].second.as<int64_t>() > 0 ? Write::Duplicate : Write::Conflict;
  }

  // SQLite: `write` in a transaction on a connection of its own (false: a conflict, rolled
  // back), with the member checked first and written with it.
  template <class F>
  Write inTransaction(std::string_view member, std::string_view key, F&& write) {
    auto session = db_->openSession();
    if (!session) fail(SqlError{"08001", session.error().message});
    Session& s = **session;
    check(s.run("BEGIN IMMEDIATE"));
    try {
      if (!member.empty()) {
        QueryResult seen = check(s.execute(memberSeen_, std::vector<Value>{Value(member)}));
        if (seen.rows.at(0).getMap()[0].second.as<int64_t>() > 0) {
          check(s.run("ROLLBACK"));
          return Write::Duplicate;
        }
      }
      if (!write(s)) {
        check(s.run("ROLLBACK"));
        return Write::Conflict;
      }
      if (!member.empty()) {
        check(s.execute(addMember_, std::vector<Value>{Value(member), Value(key)}));
      }
      check(s.run("COMMIT"));
      return Write::Written;
    } catch (...) {
      (void)s.run("ROLLBACK");
      throw;
    }
  }

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
  std::unique_ptr<Expression> memberId_;  // null: members are not kept
  StatementText get_, insert_, update_, upsert_, remove_, removeCompleted_, removeAt_,
      addCompleted_, moveToCompleted_, scanOpen_, scanCompleted_, putNewMember_, putMember_,
      completeMember_, memberSeen_, addMember_;
};

}  // namespace

Result<std::shared_ptr<AggregationRepository>> openAggregationRepository(
    std::shared_ptr<Database> database, const std::string& name, AggregationRecovery recovery,
    std::unique_ptr<Expression> member_id) {
  if (recovery.maximumRedeliveries > 0 && recovery.deadLetterUri.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     "maximumRedeliveries needs a deadLetterUri for the groups that reach it");
  }
  DROMEDARY_TRY_VOID(
      checkTableName(name, "repositoryName", database->dialect(), "_completed"));
  const char* blob = database->dialect() == Dialect::PostgreSQL ? "BYTEA" : "BLOB";
  for (const std::string& table : {name, name + "_completed"}) {
    StatementText create(fmt::format("CREATE TABLE IF NOT EXISTS {} (id VARCHAR(255) NOT NULL "
                                     "PRIMARY KEY, exchange {} NOT NULL, version BIGINT NOT NULL)",
                                     table, blob),
                         /*once=*/true);
    DROMEDARY_TRY_VOID(createTable(*database, create, table));
  }
  if (member_id) {
    const std::string table = name + "_members";
    StatementText create(fmt::format("CREATE TABLE IF NOT EXISTS {} (member TEXT NOT NULL "
                                     "PRIMARY KEY, id VARCHAR(255) NOT NULL, createdAt TIMESTAMP "
                                     "DEFAULT CURRENT_TIMESTAMP)",
                                     table),
                         /*once=*/true);
    DROMEDARY_TRY_VOID(createTable(*database, create, table));
  }
  return std::shared_ptr<AggregationRepository>(std::make_shared<JdbcAggregationRepository>(
      std::move(database), name, std::move(recovery), std::move(member_id)));
}

}  // namespace dromedary::component::sql
