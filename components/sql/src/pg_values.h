// SPDX-License-Identifier: Apache-2.0
#pragma once

// Between Values and libpq: parameters as text (bytes as binary), rows typed by their
// column's type (bool, integers, floating point and numeric, bytea; the rest as text).

#include <libpq-fe.h>

#include <span>
#include <string>
#include <vector>

#include "database.h"

namespace dromedary::component::sql {

/// One execution's parameters in libpq's arrays. Owns the texts it points at; not copyable
/// once pointed (moves keep the pointers valid: the strings' buffers move with them only
/// when long, so `point()` is called after the last move).
struct PgParams {
  std::vector<std::string> texts;
  std::vector<char> isNull;
  std::vector<char> isBinary;
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;

  void assign(std::span<const Value> params);
  void point();  // fills values/lengths/formats from texts
  int count() const noexcept { return static_cast<int>(texts.size()); }
};

/// Adds a PGRES_TUPLES_OK or PGRES_COMMAND_OK result to `out`.
void appendPgResult(const PGresult* result, QueryResult& out);
SqlError pgResultError(const PGresult* result);
SqlError pgConnectionError(const PGconn* conn, std::string_view what);

/// Whether a connection's failure is the connection's (SQLSTATE class 08 or no SQLSTATE).
bool isConnectionFailure(const SqlError& error) noexcept;

}  // namespace dromedary::component::sql
