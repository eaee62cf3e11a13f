// SPDX-License-Identifier: Apache-2.0
#pragma once

// The context's exception types (include/dromedary/engine/exception_types.h): a tree rooted
// at "Exception" whose nodes match C++ exceptions (by rethrowing and catching) or engine
// error codes. Filled at configuration time; read without locks once routes run.

#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/engine/exception_types.h>

namespace dromedary::detail {

struct ExceptionType {
  std::string name;
  const ExceptionType* parent = nullptr;
  ExceptionMatcher matcher = nullptr;  // null: matched by error code only (or the root)
  std::vector<const ExceptionType*> children;
};

/// What throwException throws: a std::runtime_error that says which registered type it is,
/// so that a failure of a type with no C++ class of its own here (java.io.IOException, an
/// application's) is matched as that type.
class ThrownException final : public std::runtime_error {
 public:
  ThrownException(const ExceptionType& type, const std::string& message)
      : std::runtime_error(message), type_(&type) {}
  const ExceptionType& type() const noexcept { return *type_; }

 private:
  const ExceptionType* type_;
};

class ExceptionRegistry {
 public:
  ExceptionRegistry();

  /// Adds a type under `parent` (a registered name or alias).
  Result<void> add(std::string name, std::string_view parent, ExceptionMatcher matcher);
  /// Another name for a registered type (e.g. a Camel class name).
  Result<void> alias(std::string alias, std::string_view name);

  const ExceptionType* find(std::string_view name) const noexcept;
  const ExceptionType* root() const noexcept { return root_; }
  /// Every name and alias, for suggestions in errors.
  std::vector<std::string> names() const;

  /// The most specific type of a failure: its exception's, else its error code's.
  const ExceptionType* typeOf(const ExchangeError& error) const noexcept;
  /// Whether `type` is `ancestor` or below it; how many levels apart, or -1.
  static int distance(const ExceptionType* type, const ExceptionType* ancestor) noexcept;

 private:
  ExceptionType* addType(std::string name, ExceptionType* parent, ExceptionMatcher matcher);

  std::deque<ExceptionType> types_;
  std::map<std::string, ExceptionType*, std::less<>> by_name_;
  ExceptionType* root_ = nullptr;
  std::map<ErrorCode, const ExceptionType*> by_code_;
};

}  // namespace dromedary::detail
