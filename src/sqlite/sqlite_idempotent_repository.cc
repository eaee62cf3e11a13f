// SPDX-License-Identifier: Apache-2.0
// An IdempotentRepository in an SQLite table: (processor, key) rows, so keys survive a restart
// and several consumers can share one file. Every call is one prepared statement under the
// repository's lock. A database error is thrown (the idempotent consumer step turns it into
// the exchange's failure), never taken for "new" or "duplicate".
#include <mutex>

#include <dromedary/core/result.h>
#include <dromedary/sqlite/sqlite_repositories.h>

#include "sqlite/sqlite_database.h"

namespace dromedary {

namespace {

class SqliteIdempotentRepository final : public IdempotentRepository {
 public:
  SqliteIdempotentRepository(sqlite::Database db, std::string processor)
      : db_(std::move(db)), processor_(std::move(processor)) {}

  Result<void> prepare() {
    DROMEDARY_TRY_VOID(db_.exec(
        "CREATE TABLE IF NOT EXISTS dromedary_idempotent (processor TEXT NOT NULL, "
        "key TEXT NOT NULL, created INTEGER NOT NULL DEFAULT (strftime('%s','now')), "
        "PRIMARY KEY (processor, key))"));
    DROMEDARY_TRY(insert, db_.prepare("INSERT OR IGNORE INTO dromedary_idempotent "
                                      "(processor, key) VALUES (?, ?)"));
    DROMEDARY_TRY(select, db_.prepare("SELECT 1 FROM dromedary_idempotent "
                                      "WHERE processor = ? AND key = ?"));
    DROMEDARY_TRY(remove, db_.prepare("DELETE FROM dromedary_idempotent "
                                      "WHERE processor = ? AND key = ?"));
    DROMEDARY_TRY(clear, db_.prepare("DELETE FROM dromedary_idempotent WHERE processor = ?"));
    insert_ = std::move(insert);
    select_ = std::move(select);
    remove_ = std::move(remove);
    clear_ = std::move(clear);
    return {};
  }

  bool add(std::string_view key) override {
    std::lock_guard lock(mutex_);
    check(insert_.bind({processor_, key}).step(), "adding a key");
    return db_.changes() == 1;
  }
  bool contains(std::string_view key) override {
    std::lock_guard lock(mutex_);
    int rc = select_.bind({processor_, key}).step();
    check(rc, "looking up a key");
    return rc == SQLITE_ROW;
  }
  bool remove(std::string_view key) override {
    std::lock_guard lock(mutex_);
    check(remove_.bind({processor_, key}).step(), "removing a key");
    return db_.changes() == 1;
  }
  void clear() override {
    std::lock_guard lock(mutex_);
    check(clear_.bind({processor_}).step(), "clearing keys");
  }

 private:
  void check(int rc, std::string_view what) const {
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) throw DromedaryException(db_.error(what));
  }

  sqlite::Database db_;
  std::string processor_;
  std::mutex mutex_;
  sqlite::Statement insert_, select_, remove_, clear_;
};

}  // namespace

Result<std::shared_ptr<IdempotentRepository>> sqliteIdempotentRepository(
    const std::string& path, std::string processor_name) {
  DROMEDARY_TRY(db, sqlite::Database::open(path));
  auto repo = std::make_shared<SqliteIdempotentRepository>(std::move(db), std::move(processor_name));
  DROMEDARY_TRY_VOID(repo->prepare());
  return std::shared_ptr<IdempotentRepository>(std::move(repo));
}

}  // namespace dromedary
