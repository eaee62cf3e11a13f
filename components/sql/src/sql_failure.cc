// SPDX-License-Identifier: Apache-2.0
#include "sql_failure.h"

#include <dromedary/engine/context.h>

namespace dromedary::component::sql {

namespace {

constexpr const char* kSqlException = "java.sql.SQLException";
constexpr const char* kDataAccess = "org.springframework.dao.DataAccessException";
constexpr const char* kBadGrammar = "org.springframework.jdbc.BadSqlGrammarException";
constexpr const char* kIntegrity = "org.springframework.dao.DataIntegrityViolationException";
constexpr const char* kDuplicateKey = "org.springframework.dao.DuplicateKeyException";
constexpr const char* kResourceFailure =
    "org.springframework.dao.DataAccessResourceFailureException";
constexpr const char* kTimeout = "org.springframework.dao.QueryTimeoutException";
constexpr const char* kConcurrency =
    "org.springframework.dao.ConcurrencyFailureException";

}  // namespace

std::string_view SqlFailure::exceptionType() const noexcept {
  std::string_view state = sqlState_;
  if (state == "23505") return kDuplicateKey;
  if (state.starts_with("23")) return kIntegrity;
  if (state.starts_with("42")) return kBadGrammar;
  if (state.starts_with("08") || state.starts_with("57P")) return kResourceFailure;
  if (state == "57014") return kTimeout;
  if (state.starts_with("40")) return kConcurrency;  // serialization failure, deadlock
  return kDataAccess;
}

void registerSqlExceptionTypes(Context& context) {
  if (!context.registerExceptionType(kSqlException, "std::runtime_error", nullptr)) return;
  (void)context.registerExceptionType(kDataAccess, kSqlException, nullptr);
  (void)context.registerExceptionType(kBadGrammar, kDataAccess, nullptr);
  (void)context.registerExceptionType(kIntegrity, kDataAccess, nullptr);
  (void)context.registerExceptionType(kDuplicateKey, kIntegrity, nullptr);
  (void)context.registerExceptionType(kResourceFailure, kDataAccess, nullptr);
  (void)context.registerExceptionType(kTimeout, kDataAccess, nullptr);
  (void)context.registerExceptionType(kConcurrency, kDataAccess, nullptr);
}

}  // namespace dromedary::component::sql
