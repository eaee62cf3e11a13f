// SPDX-License-Identifier: Apache-2.0
// An AggregationRepository in an SQLite table: (repository, key) -> the encoded exchange, so
// aggregate()'s groups, open or completed and not yet processed, survive a restart.
#include <mutex>

#include <dromedary/sqlite/sqlite_repositories.h>

#include <dromedary/sqlite/exchange_codec.h>
#include "sqlite/sqlite_database.h"

namespace dromedary {

namespace {

class SqliteAggregationRepository final : public AggregationRepository {
 public:
  SqliteAggregationRepository(sqlite::Database db, std::string name)
      : db_(std::move(db)), name_(std::move(name)) {}

  Result<void> prepare() {
    DROMEDARY_TRY_VOID(db_.exec(
        "CREATE TABLE IF NOT EXISTS dromedary_aggregation (repository TEXT NOT NULL, "
        "key TEXT NOT NULL, exchange BLOB NOT NULL, PRIMARY KEY (repository, key))"));
    DROMEDARY_TRY(put, db_.prepare("INSERT OR REPLACE INTO dromedary_aggregation "
                                   "(repository, key, exchange) VALUES (?, ?, ?)"));
    DROMEDARY_TRY(remove, db_.prepare("DELETE FROM dromedary_aggregation "
                                      "WHERE repository = ? AND key = ?"));
    DROMEDARY_TRY(scan, db_.prepare("SELECT key, exchange FROM dromedary_aggregation "
                                    "WHERE repository = ? ORDER BY rowid"));
    put_ = std::move(put);
    remove_ = std::move(remove);
    scan_ = std::move(scan);
    return {};
  }

  void add(std::string_view key, const Exchange& aggregate) override {
    std::string blob = sqlite::encodeExchange(aggregate);
    std::lock_guard lock(mutex_);
    put_.bind({name_, key});
    sqlite3_bind_blob(put_.get(), 3, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
    check(put_.step(), "storing a group");
  }
  void remove(std::string_view key) override {
    std::lock_guard lock(mutex_);
    check(remove_.bind({name_, key}).step(), "removing a group");
  }
  std::vector<std::pair<std::string, ExchangePtr>> recover(Context& context) override {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, ExchangePtr>> out;
    scan_.bind({name_});
    int rc;
    while ((rc = scan_.step()) == SQLITE_ROW) {
      auto* key = reinterpret_cast<const char*>(sqlite3_column_text(scan_.get(), 0));
      auto* data = static_cast<const char*>(sqlite3_column_blob(scan_.get(), 1));
      int size = sqlite3_column_bytes(scan_.get(), 1);
      ExchangePtr ex = acquireExchange(&context);
      if (!key || !sqlite::decodeExchange(std::string_view(data ? data : "", size), *ex)) {
        throw DromedaryException(makeError(
            ErrorCode::Io, "an aggregation repository row is not a stored exchange"));
      }
      out.emplace_back(key, std::move(ex));
    }
    check(rc, "reading the groups");
    return out;
  }

 private:
  void check(int rc, std::string_view what) const {
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) throw DromedaryException(db_.error(what));
  }

  sqlite::Database db_;
  std::string name_;
  std::mutex mutex_;
  sqlite::Statement put_, remove_, scan_;
};

}  // namespace

Result<std::shared_ptr<AggregationRepository>> sqliteAggregationRepository(
    const std::string& path, std::string repository_name) {
  DROMEDARY_TRY(db, sqlite::Database::open(path));
  auto repo =
      std::make_shared<SqliteAggregationRepository>(std::move(db), std::move(repository_name));
  DROMEDARY_TRY_VOID(repo->prepare());
  return std::shared_ptr<AggregationRepository>(std::move(repo));
}

}  // namespace dromedary
