// SPDX-License-Identifier: Apache-2.0
#include "pg_values.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace dromedary::component::sql {

namespace {

// Type OIDs from PostgreSQL's pg_type.dat (stable across versions).
constexpr Oid kBool = 16, kBytea = 17, kInt8 = 20, kInt2 = 21, kInt4 = 23, kOid = 26,
              kFloat4 = 700, kFloat8 = 701, kNumeric = 1700;

Value cellValue(const PGresult* result, int row, int column) {
  if (PQgetisnull(result, row, column)) return Value();
  const char* text = PQgetvalue(result, row, column);
  int length = PQgetlength(result, row, column);
  std::string_view view(text, static_cast<size_t>(length));
  switch (PQftype(result, column)) {
    case kBool:
      return Value(view == "t");
    case kInt2:
    case kInt4:
    case kInt8:
    case kOid: {
      int64_t n = 0;
      std::from_chars(view.data(), view.data() + view.size(), n);
      return Value(n);
    }
    case kNumeric: {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), n);
      if (ec == std::errc() && end == view.data() + view.size()) return Value(n);
      [[fallthrough]];
    }
    case kFloat4:
    case kFloat8:
      return Value(std::strtod(text, nullptr));
    case kBytea: {
      size_t size = 0;
      unsigned char* raw =
          PQunescapeBytea(reinterpret_cast<const unsigned char*>(text), &size);
      if (!raw) return Value(std::string(view));
      Value v(Bytes(std::string(reinterpret_cast<const char*>(raw), size)));
      PQfreemem(raw);
      return v;
    }
    default:
      return Value(std::string(view));
  }
}

}  // namespace

void PgParams::assign(std::span<const Value> params) {
  // Each text is refilled in place: a PgParams used again (a connection's) keeps its strings'
  // capacity, so a statement's parameters allocate nothing once warm. libpq's arrays are filled
  // in the same pass, once the texts are in place (a text's characters do not move after).
  const size_t n = params.size();
  texts.resize(n);
  values.resize(n);
  lengths.resize(n);
  formats.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Value& v = params[i];
    std::string& text = texts[i];
    text.clear();
    bool null = false;
    int format = 0;
    if (v.isNull()) {
      null = true;
    } else if (v.isBool()) {
      text = v.getBool() ? "true" : "false";
    } else if (v.isBytes()) {
      text = v.getBytes().view();
      format = 1;
    } else if (v.isDouble()) {
      fmt::format_to(std::back_inserter(text), "{}", v.getDouble());
    } else if (v.isString()) {
      text = v.getString();
    } else if (v.isInt()) {
      char digits[24];
      auto end = std::to_chars(digits, digits + sizeof digits, v.getInt()).ptr;
      text.assign(digits, end);
    } else {
      text = v.toString();
    }
    values[i] = null ? nullptr : text.c_str();
    lengths[i] = static_cast<int>(text.size());
    formats[i] = format;
  }
}

void appendPgResult(const PGresult* result, QueryResult& out) {
  ExecStatusType status = PQresultStatus(result);
  if (status == PGRES_TUPLES_OK || status == PGRES_SINGLE_TUPLE) {
    out.returnedRows = true;
    int columns = PQnfields(result);
    int rows = PQntuples(result);
    if (out.oneValueWanted && !out.hasOne && out.rows.empty() && columns == 1 && rows <= 1) {
      out.hasOne = true;
      out.oneRows = rows;
      out.affected += rows;  // what PQcmdTuples says of a SELECT, without parsing it
      if (rows == 1) out.one = cellValue(result, 0, 0);
      return;
    }
    if (out.hasOne) {  // a second result after a single value: both become rows
      out.hasOne = false;
      if (out.oneRows == 1) {
        out.rows.emplace_back(ValueMap{{PQfname(result, 0), std::move(out.one)}});
      }
      out.one = Value();
    }
    if (out.columns.empty()) {
      for (int c = 0; c < columns; ++c) out.columns.emplace_back(PQfname(result, c));
    }
    out.rows.reserve(out.rows.size() + static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r) {
      ValueMap row;
      row.reserve(static_cast<size_t>(columns));
      for (int c = 0; c < columns; ++c) row.emplace_back(out.columns[c], cellValue(result, r, c));
      out.rows.emplace_back(std::move(row));
    }
  }
  const char* changed = PQcmdTuples(const_cast<PGresult*>(result));
  if (changed && *changed) {
    int64_t n = 0;  // digits only ("" when the command counts nothing): from_chars, not strtoll
    std::from_chars(changed, changed + std::strlen(changed), n);
    out.affected += n;
  }
}

SqlError pgResultError(const PGresult* result) {
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const char* primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
  std::string message = primary ? primary : PQresultErrorMessage(result);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return SqlError{state ? state : "", std::move(message)};
}

SqlError pgConnectionError(const PGconn* conn, std::string_view what) {
  std::string message = conn ? PQerrorMessage(conn) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  // 08006: connection_failure, as the JDBC driver reports a lost connection.
  return SqlError{"08006", fmt::format("{}: {}", what, message)};
}

bool isConnectionFailure(const SqlError& error) noexcept {
  return error.sqlState.empty() || error.sqlState.rfind("08", 0) == 0 ||
         error.sqlState.rfind("57P", 0) == 0;
}

}  // namespace dromedary::component::sql
