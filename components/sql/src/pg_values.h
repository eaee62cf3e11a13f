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

/// One execution's parameters in libpq's arrays. Owns the texts it points at; not to be
/// copied once assigned (a move keeps the pointers valid: the texts' vector hands its buffer
/// over, and the strings in it, short ones' characters included, stay where they are).
struct PgParams {
  std::vector<std::string> texts;
  std::vector<const char*> values;  // into texts; null for SQL NULL
  std::vector<int> lengths;
  std::vector<int> formats;  // 1: binary (bytes), 0: text

  /// Texts and libpq's arrays for `params`.
  void assign(std::span<const Value> params);
  int count() const noexcept { return static_cast<int>(texts.size()); }
};

/// Adds a PGRES_TUPLES_OK or PGRES_COMMAND_OK result to `out`.
void appendPgResult(const PGresult* result, QueryResult& out);
SqlError pgResultError(const PGresult* result);
SqlError pgConnectionError(const PGconn* conn, std::string_view what);

/// Whether a connection's failure is the connection's (SQLSTATE class 08 or no SQLSTATE).
bool isConnectionFailure(const SqlError& error) noexcept;

}  // namespace dromedary::component::sql
