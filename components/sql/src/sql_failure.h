// SPDX-License-Identifier: Apache-2.0
#pragma once

// How a statement fails an exchange: an exception named as Camel's (Spring JDBC's
// DataAccessException kinds, chosen by SQLSTATE class), under java.sql.SQLException, so that
// `onException` clauses written for Camel catch it as they did.

#include <stdexcept>
#include <string>

#include <dromedary/engine/exception_types.h>

#include "database.h"

namespace dromedary {
class Context;
}

namespace dromedary::component::sql {

class SqlFailure final : public std::runtime_error, public NamedTypeException {
 public:
  SqlFailure(std::string sql_state, const std::string& message)
      : std::runtime_error(message), sqlState_(std::move(sql_state)) {}
  const std::string& sqlState() const noexcept { return sqlState_; }
  std::string_view exceptionType() const noexcept override;

 private:
  std::string sqlState_;
};

/// Registers java.sql.SQLException, DataAccessException and the kinds SqlFailure names.
void registerSqlExceptionTypes(Context& context);

/// `error` as the exception an exchange fails with, its message naming `query`.
std::exception_ptr sqlFailure(const SqlError& error, std::string_view query);

}  // namespace dromedary::component::sql
