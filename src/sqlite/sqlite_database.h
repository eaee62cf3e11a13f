// SPDX-License-Identifier: Apache-2.0
#pragma once

// A small RAII layer over the SQLite C API: a connection and prepared statements.

#include <sqlite3.h>

#include <string>
#include <string_view>

#include <dromedary/core/result.h>

namespace dromedary::sqlite {

class Statement {
 public:
  Statement() = default;
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  Statement(Statement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  Statement& operator=(Statement&& other) noexcept;
  ~Statement();

  /// Resets and binds text parameters (1-based, in order).
  Statement& bind(std::initializer_list<std::string_view> texts);
  /// Runs to completion; returns the result code of the last step (SQLITE_DONE / _ROW).
  int step();
  sqlite3_stmt* get() const noexcept { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class Database {
 public:
  /// Opens (creating) the file in WAL mode with a 5 s busy timeout.
  static Result<Database> open(const std::string& path);
  Database(Database&& other) noexcept : db_(other.db_), path_(std::move(other.path_)) {
    other.db_ = nullptr;
  }
  Database& operator=(Database&&) = delete;
  ~Database();

  Result<void> exec(const char* sql);
  Result<Statement> prepare(const char* sql);
  int changes() const noexcept { return sqlite3_changes(db_); }
  /// "<what> in <path>: <sqlite message>".
  Error error(std::string_view what) const;

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

}  // namespace dromedary::sqlite
