// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the sql component, the repositories and the master: lease need from a database,
// whichever it is (PostgreSQL through libpq, SQLite): statements prepared once, run with
// typed parameters, rows back as maps of typed Values.
//
// A Database is one data source (Camel's javax.sql.DataSource): a pool of connections.
// `execute` runs a statement on any pooled connection without holding the caller's thread
// where the driver allows it (PostgreSQL: libpq's asynchronous API on the pool's own thread);
// `openSession` gives a connection of its own, used synchronously, for what needs one
// connection throughout (a transaction, a session-scoped lock).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary::component::sql {

enum class Dialect : uint8_t { PostgreSQL, SQLite };

/// A statement in the drivers' parameter syntax ($1, $2 ...: SQLite binds them by name),
/// with a process-unique id under which each connection keeps its prepared form. `once`: a
/// statement made for one message (an IN list's), run without being prepared.
struct StatementText {
  explicit StatementText(std::string sql_text, bool once = false);
  uint64_t id;  // 0 when `once`
  std::string sql;
  /// The name it is prepared under ("dromedary_ID"), made once here rather than per send;
  /// empty when `once`.
  std::string name;
};

/// What a statement gave back.
struct QueryResult {
  bool returnedRows = false;  // a SELECT, or anything with RETURNING: `rows` holds them
  std::vector<std::string> columns;
  ValueList rows;             // each a ValueMap, columns in their order
  int64_t affected = 0;       // rows an INSERT / UPDATE / DELETE changed
  /// Asked for by the caller (QueryCallback::wantsOneValue) before the statement runs: a
  /// driver may then give a result of one column and at most one row as `one` rather than in
  /// `rows` (outputType=SelectOne, the commonest lookup: no list, map or column names made).
  bool oneValueWanted = false;
  bool hasOne = false;    // `one` holds the result: `rows` and `columns` are empty
  int64_t oneRows = 0;    // with hasOne: 0 (no row: `one` is null) or 1
  Value one;
};

/// How a statement failed: the driver's message and SQLSTATE ("42P01", "08006" ...).
struct SqlError {
  std::string sqlState;
  std::string message;
};

using QueryOutcome = std::variant<QueryResult, SqlError>;

/// What the thread calling Database::execute does until the statement is done.
enum class Caller : uint8_t {
  /// Goes on (a route's thread, whose exchange is parked): the statement must not hold it.
  MustNotBlock,
  /// Waits for the result anyway (a ProducerTemplate's caller, a repository's call): the
  /// driver may run the statement on it, as a bare client would, sparing two hand-offs.
  WillWait,
};

/// Called once when a statement finished: on the caller's thread before execute() returns
/// (SQLite always; PostgreSQL for a caller that WillWait when a connection is idle), or on
/// the pool's thread. Must not block: it hands the result on.
class QueryCallback {
 public:
  virtual void done(QueryOutcome&& outcome) noexcept = 0;
  /// Whether the caller reads a one-column, one-row result as its single value (see
  /// QueryResult::oneValueWanted); drivers may ignore it.
  virtual bool wantsOneValue() const noexcept { return false; }

 protected:
  ~QueryCallback() = default;
};

/// A connection of one's own, used synchronously by one thread at a time.
class Session {
 public:
  virtual ~Session() = default;
  virtual QueryOutcome execute(const StatementText& statement, std::span<const Value> params) = 0;
  /// Runs text without parameters (BEGIN, COMMIT, SET ...).
  virtual QueryOutcome run(std::string_view sql) = 0;
  /// Whether the connection is still up: a round trip to the server (PostgreSQL) that must
  /// come back within `timeout`, else the connection counts as lost.
  virtual bool alive(std::chrono::milliseconds timeout) = 0;
  /// Starts a query whose rows are then read one at a time by nextRow (outputType=
  /// StreamList): the server sends them as they are read (PostgreSQL's single-row mode;
  /// SQLite steps its statement), so their number is not bounded by memory. The session is
  /// busy with it until nextRow says the end, or until the session goes.
  virtual std::optional<SqlError> startRows(const StatementText& statement,
                                            std::span<const Value> params) = 0;
  /// The next row (a ValueMap, columns in their order) into `row`: false after the last or
  /// on a failure, which `error` then holds.
  virtual bool nextRow(Value& row, std::optional<SqlError>& error) = 0;
};

/// A statement's parameter sets: one per execution (several in a batch).
using ParamSets = std::span<const std::vector<Value>>;

class Database {
 public:
  virtual ~Database() = default;
  virtual Dialect dialect() const noexcept = 0;
  /// Where it is, without the password: for messages and `dromedary get`.
  virtual const std::string& describe() const noexcept = 0;
  /// Whether execute() may hold the calling thread until the statement is done (SQLite).
  virtual bool blocksCaller() const noexcept = 0;
  /// Runs `statement` once per parameter set on a pooled connection, all of them in one
  /// transaction when there are several (a batch: `affected` is their sum); `callback` is
  /// called exactly once. The parameter sets are read before execute() returns (what is kept
  /// is copied), so a caller may reuse their memory for its next statement.
  virtual void execute(const StatementText& statement, ParamSets param_sets,
                       QueryCallback& callback, Caller caller) noexcept = 0;
  /// A new connection of its own; fails saying why (the server cannot be reached ...).
  virtual Result<std::unique_ptr<Session>> openSession() = 0;

  /// execute() and wait for it.
  QueryOutcome executeAndWait(const StatementText& statement, std::vector<Value> params);
  /// Prepares `statement` on a pooled connection and waits: how a bad statement is found at
  /// route start (SQLSTATE class 42) rather than at the first message.
  QueryOutcome prepareAndWait(const StatementText& statement);
};

/// At route start: a statement the database cannot parse (a syntax error) fails, naming `what`
/// and the statement; a missing table or column and an unreachable database are only logged
/// (a migration or another route may make the table; the database may come up later, and the
/// first exchanges then go to the error handler).
Result<void> checkStatement(Database& database, const StatementText& statement,
                            std::string_view what);

/// The message of a failed outcome for the exchange or the log: "<what>: <driver message>
/// (SQLSTATE xxxxx)".
std::string describeError(const SqlError& error);

}  // namespace dromedary::component::sql
