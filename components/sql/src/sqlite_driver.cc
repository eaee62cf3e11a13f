// SPDX-License-Identifier: Apache-2.0
#include "sqlite_driver.h"

#include <sqlite3.h>

#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace dromedary::component::sql {

namespace {

// One connection and the statements prepared on it.
class Connection {
 public:
  explicit Connection(sqlite3* db) : db_(db) {}
  ~Connection() {
    finishRows();
    for (auto& [id, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  QueryOutcome execute(const StatementText& statement, ParamSets param_sets) {
    sqlite3_stmt* stmt = nullptr;
    if (statement.id != 0) {
      auto it = statements_.find(statement.id);
      if (it != statements_.end()) stmt = it->second;
    }
    if (!stmt) {
      if (sqlite3_prepare_v2(db_, statement.sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        return error();
      }
      if (statement.id != 0) statements_[statement.id] = stmt;
    }
    bool batch = param_sets.size() > 1;
    if (batch && sqlite3_get_autocommit(db_)) run("BEGIN");
    QueryResult out;
    std::optional<SqlError> failure;
    for (const auto& params : param_sets) {
      sqlite3_reset(stmt);
      sqlite3_clear_bindings(stmt);
      if (!bind(stmt, params) || !step(stmt, out)) {
        failure = currentError();
        break;
      }
    }
    sqlite3_reset(stmt);
    if (statement.id == 0) sqlite3_finalize(stmt);
    if (batch) run(failure ? "ROLLBACK" : "COMMIT");
    if (failure) return *failure;
    return out;
  }

  // outputType=StreamList: the statement prepared for this query alone, stepped row by row.
  std::optional<SqlError> startRows(const StatementText& statement,
                                    const std::vector<Value>& params) {
    finishRows();
    if (sqlite3_prepare_v2(db_, statement.sql.c_str(), -1, &rows_, nullptr) != SQLITE_OK ||
        !bind(rows_, params)) {
      SqlError e = currentError();
      finishRows();
      return e;
    }
    rowColumns_.clear();
    for (int c = 0; c < sqlite3_column_count(rows_); ++c) {
      rowColumns_.emplace_back(sqlite3_column_name(rows_, c));
    }
    return std::nullopt;
  }

  bool nextRow(Value& row, std::optional<SqlError>& error) {
    if (!rows_) return false;
    int rc = sqlite3_step(rows_);
    if (rc != SQLITE_ROW) {
      if (rc != SQLITE_DONE) error = currentError();
      finishRows();
      return false;
    }
    ValueMap map;
    map.reserve(rowColumns_.size());
    for (size_t c = 0; c < rowColumns_.size(); ++c) {
      map.emplace_back(rowColumns_[c], cell(rows_, static_cast<int>(c)));
    }
    row = Value(std::move(map));
    return true;
  }

  void finishRows() noexcept {
    if (rows_) sqlite3_finalize(rows_);
    rows_ = nullptr;
  }

  QueryOutcome run(std::string_view sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
      SqlError e{code(), message ? message : sqlite3_errmsg(db_)};
      sqlite3_free(message);
      return e;
    }
    QueryResult out;
    out.affected = sqlite3_changes(db_);
    return out;
  }

 private:
  bool bind(sqlite3_stmt* stmt, const std::vector<Value>& params) {
    // $1, $2 ... are named parameters to SQLite: bound by name, whatever their order.
    for (size_t i = 0; i < params.size(); ++i) {
      std::string name = fmt::format("${}", i + 1);
      int index = sqlite3_bind_parameter_index(stmt, name.c_str());
      if (index == 0) continue;
      const Value& v = params[i];
      int rc = SQLITE_OK;
      if (v.isNull()) {
        rc = sqlite3_bind_null(stmt, index);
      } else if (v.isBool()) {
        rc = sqlite3_bind_int64(stmt, index, v.getBool() ? 1 : 0);
      } else if (v.isInt()) {
        rc = sqlite3_bind_int64(stmt, index, v.getInt());
      } else if (v.isDouble()) {
        rc = sqlite3_bind_double(stmt, index, v.getDouble());
      } else if (v.isBytes()) {
        rc = sqlite3_bind_blob64(stmt, index, v.getBytes().data(), v.getBytes().size(),
                                 SQLITE_TRANSIENT);
      } else {
        std::string text = v.toString();
        rc = sqlite3_bind_text64(stmt, index, text.data(), text.size(), SQLITE_TRANSIENT,
                                 SQLITE_UTF8);
      }
      if (rc != SQLITE_OK) return false;
    }
    return true;
  }

  bool step(sqlite3_stmt* stmt, QueryResult& out) {
    int columns = sqlite3_column_count(stmt);
    if (columns > 0) {
      out.returnedRows = true;
      if (out.columns.empty()) {
        for (int c = 0; c < columns; ++c) out.columns.emplace_back(sqlite3_column_name(stmt, c));
      }
    }
    for (;;) {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return false;
      ValueMap row;
      row.reserve(static_cast<size_t>(columns));
      for (int c = 0; c < columns; ++c) row.emplace_back(out.columns[c], cell(stmt, c));
      out.rows.emplace_back(std::move(row));
    }
    if (columns == 0 || sqlite3_stmt_readonly(stmt) == 0) out.affected += sqlite3_changes(db_);
    return true;
  }

  static Value cell(sqlite3_stmt* stmt, int c) {
    switch (sqlite3_column_type(stmt, c)) {
      case SQLITE_INTEGER:
        return Value(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
      case SQLITE_FLOAT:
        return Value(sqlite3_column_double(stmt, c));
      case SQLITE_BLOB: {
        const char* data = static_cast<const char*>(sqlite3_column_blob(stmt, c));
        return Value(Bytes(std::string(data ? data : "", sqlite3_column_bytes(stmt, c))));
      }
      case SQLITE_NULL:
        return Value();
      default:
        return Value(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                                 sqlite3_column_bytes(stmt, c)));
    }
  }

  // SQLite has no SQLSTATE; its constraint failures get class 23 (integrity constraint
  // violation) so that repositories and routes can tell a duplicate key from other failures.
  // PostgreSQL's codes for the same faults, so that callers tell them apart alike.
  std::string code() const {
    int rc = sqlite3_errcode(db_);
    if (rc == SQLITE_CONSTRAINT) return "23000";
    if (rc == SQLITE_ERROR) {
      std::string_view message = sqlite3_errmsg(db_);
      if (message.find("syntax error") != std::string_view::npos ||
          message.find("incomplete input") != std::string_view::npos) {
        return "42601";
      }
      if (message.starts_with("no such table")) return "42P01";
      if (message.starts_with("no such column")) return "42703";
      return "42000";
    }
    return "HY000";
  }
  SqlError currentError() const { return SqlError{code(), sqlite3_errmsg(db_)}; }
  QueryOutcome error() const { return currentError(); }

  sqlite3* db_;
  std::unordered_map<uint64_t, sqlite3_stmt*> statements_;
  sqlite3_stmt* rows_ = nullptr;  // a StreamList being read
  std::vector<std::string> rowColumns_;
};

Result<std::unique_ptr<Connection>> openConnection(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return makeError(ErrorCode::Io,
                     fmt::format("cannot open the SQLite database '{}': {}", path, message));
  }
  sqlite3_busy_timeout(db, 5000);
  sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
  return std::make_unique<Connection>(db);
}

class SessionOnConnection final : public Session {
 public:
  explicit SessionOnConnection(std::unique_ptr<Connection> c) : c_(std::move(c)) {}
  QueryOutcome execute(const StatementText& statement, std::span<const Value> params) override {
    std::vector<std::vector<Value>> sets(1, std::vector<Value>(params.begin(), params.end()));
    return c_->execute(statement, sets);
  }
  QueryOutcome run(std::string_view sql) override { return c_->run(sql); }
  bool alive(std::chrono::milliseconds) override { return true; }
  std::optional<SqlError> startRows(const StatementText& statement,
                                    std::span<const Value> params) override {
    return c_->startRows(statement, std::vector<Value>(params.begin(), params.end()));
  }
  bool nextRow(Value& row, std::optional<SqlError>& error) override {
    return c_->nextRow(row, error);
  }

 private:
  std::unique_ptr<Connection> c_;
};

class SqliteDatabase final : public Database {
 public:
  SqliteDatabase(std::string path, int pool_size)
      : path_(std::move(path)), description_("jdbc:sqlite:" + path_), poolSize_(pool_size) {}

  Dialect dialect() const noexcept override { return Dialect::SQLite; }
  const std::string& describe() const noexcept override { return description_; }
  bool blocksCaller() const noexcept override { return true; }

  void execute(const StatementText& statement, ParamSets param_sets,
               QueryCallback& callback, Caller) noexcept override {
    std::unique_ptr<Connection> c;
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        c = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    if (!c) {
      auto opened = openConnection(path_);
      if (!opened) {
        callback.done(SqlError{"08001", opened.error().message});
        return;
      }
      c = std::move(*opened);
    }
    QueryOutcome outcome = c->execute(statement, param_sets);
    {
      std::lock_guard lock(mutex_);
      if (idle_.size() < static_cast<size_t>(poolSize_)) idle_.push_back(std::move(c));
    }
    callback.done(std::move(outcome));
  }

  Result<std::unique_ptr<Session>> openSession() override {
    DROMEDARY_TRY(c, openConnection(path_));
    return std::unique_ptr<Session>(new SessionOnConnection(std::move(c)));
  }

 private:
  std::string path_;
  std::string description_;
  int poolSize_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace

Result<std::shared_ptr<Database>> openSQLite(const std::string& path, int pool_size) {
  DROMEDARY_TRY_VOID(openConnection(path));  // fails now, at route start, naming the file
  return std::shared_ptr<Database>(std::make_shared<SqliteDatabase>(path, pool_size));
}

}  // namespace dromedary::component::sql
