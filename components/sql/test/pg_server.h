// SPDX-License-Identifier: Apache-2.0
#pragma once

// The test PostgreSQL server (scripts/postgresql.sh, started by CTest's postgresql fixture):
// its URL, and SQL run on a connection of the test's own, outside the component.

#include <libpq-fe.h>

#include <cstdlib>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace dromedary::testing {

inline std::string serverUrl() {
  const char* port = std::getenv("DROMEDARY_PG_PORT");
  return fmt::format("postgresql://postgres@127.0.0.1:{}/postgres", port ? port : "25432");
}

inline void adminExec(const std::string& sql) {
  PGconn* c = PQconnectdb(serverUrl().c_str());
  ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
  PGresult* r = PQexec(c, sql.c_str());
  EXPECT_TRUE(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK)
      << sql << ": " << PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(c);
}

}  // namespace dromedary::testing
