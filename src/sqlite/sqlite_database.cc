// SPDX-License-Identifier: Apache-2.0
#include "sqlite/sqlite_database.h"

#include <fmt/format.h>

namespace dromedary::sqlite {

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    other.stmt_ = nullptr;
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(std::initializer_list<std::string_view> texts) {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  int i = 1;
  for (std::string_view t : texts) {
    sqlite3_bind_text(stmt_, i++, t.data(), static_cast<int>(t.size()), SQLITE_TRANSIENT);
  }
  return *this;
}

int Statement::step() { return sqlite3_step(stmt_); }

Result<Database> Database::open(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return makeError(ErrorCode::Io, fmt::format("cannot open SQLite database '{}': {}", path,
                                                message));
  }
  Database d(db, path);
  sqlite3_busy_timeout(db, 5000);
  DROMEDARY_TRY_VOID(d.exec("PRAGMA journal_mode=WAL"));
  return d;
}

Database::~Database() { sqlite3_close(db_); }

Result<void> Database::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    Error e = makeError(ErrorCode::Io, fmt::format("SQLite '{}' failed in '{}': {}", sql, path_,
                                                   message ? message : "unknown error"));
    sqlite3_free(message);
    return e;
  }
  return {};
}

Result<Statement> Database::prepare(const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    return error(fmt::format("preparing '{}'", sql));
  }
  return Statement(stmt);
}

Error Database::error(std::string_view what) const {
  return makeError(ErrorCode::Io, fmt::format("{} in '{}': {}", what, path_, sqlite3_errmsg(db_)));
}

}  // namespace dromedary::sqlite
