// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Exception types as routes name them: how `onException` and `doCatch` say which failures
/// they take.
///
/// A failure on an exchange is either an engine error (an ErrorCode, no C++ exception) or a
/// C++ exception thrown by user code. Both have a type in one hierarchy rooted at
/// `java.lang.Exception` (also spelled `Exception`, `java.lang.Throwable`): the standard
/// exceptions (`std::exception`, `std::runtime_error`, `std::logic_error`,
/// `std::invalid_argument` ...), the engine's errors (`dromedary.ExchangeTimedOutException`
/// ...), each also under the Camel name a Camel route would use
/// (`org.apache.camel.ExchangeTimedOutException`, `java.io.IOException`,
/// `java.lang.IllegalArgumentException` ...); docs/error-handling.md has the table. An
/// application adds its own exception classes with `Context::registerExceptionType`:
///
///   struct PaymentDeclined : std::runtime_error { using std::runtime_error::runtime_error; };
///   context.registerExceptionType<PaymentDeclined>("com.acme.PaymentDeclined",
///                                                   "std::runtime_error");
///   ... onException({"com.acme.PaymentDeclined"}).handled(true) ...
///
/// The closest type wins, as in Camel: a failure of type PaymentDeclined goes to a clause
/// for PaymentDeclined before one for std::runtime_error, and that before one for Exception.
/// Names are resolved when routes start; matching a failure walks the hierarchy once, on
/// the failure path only.

#include <exception>
#include <string>
#include <string_view>

namespace dromedary {

/// An exception that names its registered type itself: for a failure whose place in the
/// hierarchy its C++ class cannot say (a component's connection failure, a std::runtime_error
/// in C++, is a java.net.ConnectException under java.io.IOException to the routes). The name
/// is looked up when a failure is matched; an unregistered name falls back to the C++ class.
class NamedTypeException {
 public:
  virtual ~NamedTypeException() = default;
  virtual std::string_view exceptionType() const noexcept = 0;
};

/// Tells whether an exception is of a given C++ type (rethrows and catches it).
using ExceptionMatcher = bool (*)(const std::exception_ptr& exception) noexcept;

template <class T>
bool exceptionIs(const std::exception_ptr& exception) noexcept {
  try {
    std::rethrow_exception(exception);
  } catch (const T&) {
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace dromedary
