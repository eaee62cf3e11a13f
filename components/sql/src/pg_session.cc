// SPDX-License-Identifier: Apache-2.0
#include "pg_session.h"

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <unordered_set>

#include <fmt/format.h>

#include "pg_values.h"

namespace dromedary::component::sql {

namespace {

class PgSession final : public Session {
 public:
  PgSession(PGconn* pg, std::string description) : pg_(pg), description_(std::move(description)) {}
  ~PgSession() override { PQfinish(pg_); }

  QueryOutcome execute(const StatementText& statement, std::span<const Value> params) override {
    PgParams p;
    p.assign(params);
    PGresult* res = nullptr;
    if (statement.id == 0) {
      res = PQexecParams(pg_, statement.sql.c_str(), p.count(), nullptr, p.values.data(),
                         p.lengths.data(), p.formats.data(), 0);
    } else {
      std::string name = fmt::format("dromedary_s{}", statement.id);
      if (!prepared_.contains(statement.id)) {
        PGresult* prep = PQprepare(pg_, name.c_str(), statement.sql.c_str(), 0, nullptr);
        if (PQresultStatus(prep) != PGRES_COMMAND_OK) return failed(prep);
        PQclear(prep);
        prepared_.insert(statement.id);
      }
      res = PQexecPrepared(pg_, name.c_str(), p.count(), p.values.data(), p.lengths.data(),
                           p.formats.data(), 0);
    }
    return outcome(res);
  }

  QueryOutcome run(std::string_view sql) override {
    return outcome(PQexec(pg_, std::string(sql).c_str()));
  }

  std::optional<SqlError> startRows(const StatementText& statement,
                                    std::span<const Value> params) override {
    PgParams p;
    p.assign(params);
    if (PQsendQueryParams(pg_, statement.sql.c_str(), p.count(), nullptr, p.values.data(),
                          p.lengths.data(), p.formats.data(), 0) != 1 ||
        PQsetSingleRowMode(pg_) != 1) {
      return pgConnectionError(pg_, "connection to " + description_);
    }
    return std::nullopt;
  }

  bool nextRow(Value& row, std::optional<SqlError>& error) override {
    for (;;) {
      PGresult* res = PQgetResult(pg_);
      if (!res) return false;
      ExecStatusType status = PQresultStatus(res);
      if (status == PGRES_SINGLE_TUPLE) {
        QueryResult one;
        appendPgResult(res, one);
        PQclear(res);
        row = std::move(one.rows.front());
        return true;
      }
      if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK && !error) {
        error = PQresultErrorField(res, PG_DIAG_SQLSTATE)
                    ? pgResultError(res)
                    : pgConnectionError(pg_, "connection to " + description_);
      }
      PQclear(res);  // the end (zero rows), or a failure: read on until libpq has no more
    }
  }

  bool alive(std::chrono::milliseconds timeout) override {
    // Asynchronously, so that a server that stopped answering (a network partition) cannot
    // hold the caller longer than `timeout`.
    if (PQstatus(pg_) != CONNECTION_OK || PQsendQuery(pg_, "SELECT 1") != 1) return false;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    bool ok = false;
    for (;;) {
      if (PQconsumeInput(pg_) != 1) return false;
      if (!PQisBusy(pg_)) {
        PGresult* res = PQgetResult(pg_);
        if (!res) break;
        ok = PQresultStatus(res) == PGRES_TUPLES_OK;
        PQclear(res);
        continue;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;  // the connection is dropped by its owner
      pollfd fd{PQsocket(pg_), POLLIN, 0};
      if (::poll(&fd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR) return false;
    }
    return ok;
  }

 private:
  QueryOutcome outcome(PGresult* res) {
    ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) return failed(res);
    QueryResult out;
    appendPgResult(res, out);
    PQclear(res);
    return out;
  }

  QueryOutcome failed(PGresult* res) {
    SqlError e = res && PQresultErrorField(res, PG_DIAG_SQLSTATE)
                     ? pgResultError(res)
                     : pgConnectionError(pg_, "connection to " + description_);
    PQclear(res);
    return e;
  }

  PGconn* pg_;
  std::string description_;
  std::unordered_set<uint64_t> prepared_;
};

}  // namespace

Result<std::unique_ptr<Session>> openPgSession(
    const std::vector<std::pair<std::string, std::string>>& keywords,
    const std::string& description) {
  std::vector<const char*> keys, values;
  for (const auto& [k, v] : keywords) {
    keys.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  // A session holds what a lost connection must give up soon (a master: lease, a consumer's
  // transaction): TCP keepalives notice a vanished server in about ten seconds. Settings the
  // data source gives itself win.
  for (const auto& [k, v] : {std::pair{"keepalives", "1"}, std::pair{"keepalives_idle", "5"},
                             std::pair{"keepalives_interval", "2"},
                             std::pair{"keepalives_count", "2"},
                             std::pair{"tcp_user_timeout", "10000"}}) {
    bool given = false;
    for (const auto& [key, value] : keywords) given = given || key == k;
    if (given) continue;
    keys.push_back(k);
    values.push_back(v);
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* pg = PQconnectdbParams(keys.data(), values.data(), 1);
  if (PQstatus(pg) != CONNECTION_OK) {
    SqlError e = pgConnectionError(pg, "cannot connect to " + description);
    PQfinish(pg);
    return makeError(ErrorCode::Io, e.message);
  }
  return std::unique_ptr<Session>(new PgSession(pg, description));
}

}  // namespace dromedary::component::sql
