// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Exceptions that expression languages can look into: Camel routes read a failure's details
/// through its getters (`${exception.statusCode}` on Camel's HttpOperationFailedException);
/// an exception class that also derives from ExceptionWithFields answers those names here.
///
/// Example:
///   class QuotaExceeded : public std::runtime_error, public ExceptionWithFields {
///    public:
///     const Value* field(std::string_view name) const noexcept override {
///       return name == "limit" ? &limit_ : nullptr;
///     }
///     std::string_view fieldNames() const noexcept override { return "limit"; }
///     ...
///   };
///   ... onException("com.acme.QuotaExceeded").log("over ${exception.limit}") ...

#include <string_view>

#include <dromedary/core/value.h>

namespace dromedary {

class ExceptionWithFields {
 public:
  virtual ~ExceptionWithFields() = default;
  /// The value of the field `name` (as Camel's getter names it: statusCode for
  /// getStatusCode()), or nullptr when there is none. Called from any thread.
  virtual const Value* field(std::string_view name) const noexcept = 0;
  /// The names field() answers, comma-separated, for error messages.
  virtual std::string_view fieldNames() const noexcept = 0;
};

}  // namespace dromedary
