// SPDX-License-Identifier: Apache-2.0
#include "pg_session.h"

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
    p.point();
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

  bool alive() override {
    PGresult* res = PQexec(pg_, "SELECT 1");
    bool ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
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
