// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Result<T>: the return type of everything that can fail at load or start time.
///
/// It has the shape of `std::expected<T, Error>` (C++23), which GCC 12 in C++20 mode does
/// not provide; keeping `has_value()`, `value()`, `error()` and `operator*` means a later
/// switch is mechanical. Errors carry a code, a message that says what, where and what was
/// expected, and an optional source position (file, line, column, offending text).
///
/// Example:
///   Result<Uri> uri = Uri::parse("direct:a?timout=5");
///   if (!uri) std::cerr << uri.error().toString() << "\n";

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace dromedary {

/// What kind of failure. Stable: tests and error handlers switch on it.
enum class ErrorCode : uint16_t {
  Ok = 0,
  InvalidUri,
  UnknownComponent,
  UnknownOption,
  InvalidOption,
  UnknownProperty,
  InvalidExpression,
  EvaluationFailed,   ///< an expression failed on a message (bad conversion, null navigation)
  InvalidRoute,
  DuplicateRoute,
  DuplicateConsumer,
  NoConsumers,
  TypeConversion,
  Timeout,
  ProcessorFailed,
  RouteNotStarted,
  NotFound,
  Io,
  LimitExceeded,
  Internal,
};

/// The name of an error code, e.g. "NoConsumers".
std::string_view errorCodeName(ErrorCode code) noexcept;

/// A source's name (a route file's path), interned: every SourceRef naming the same file
/// shares one copy, so a route's model, which keeps one SourceRef per step, pays a pointer for
/// it rather than a string of its own. Reads as the `const std::string&` it names. Interned
/// names are kept for the process's life (there are as many as files loaded).
class SourceFile {
 public:
  SourceFile() noexcept = default;
  SourceFile(std::string_view name);  // NOLINT: implicit, as the std::string it replaces
  SourceFile(const std::string& name) : SourceFile(std::string_view(name)) {}  // NOLINT
  SourceFile(const char* name) : SourceFile(std::string_view(name)) {}  // NOLINT

  const std::string& str() const noexcept { return name_ ? *name_ : empty_; }
  operator const std::string&() const noexcept { return str(); }  // NOLINT
  bool empty() const noexcept { return name_ == nullptr; }
  const char* c_str() const noexcept { return str().c_str(); }

  friend bool operator==(const SourceFile& a, const SourceFile& b) noexcept {
    return a.name_ == b.name_;  // one copy per name
  }
  friend bool operator==(const SourceFile& a, std::string_view b) noexcept {
    return std::string_view(a.str()) == b;
  }
  friend bool operator==(const SourceFile& a, const std::string& b) noexcept {
    return a.str() == b;
  }
  friend bool operator==(const SourceFile& a, const char* b) noexcept {
    return std::string_view(a.str()) == b;
  }
  friend std::ostream& operator<<(std::ostream& out, const SourceFile& file);

 private:
  static const std::string empty_;
  const std::string* name_ = nullptr;  // interned; null for none
};

struct SourcePlace;

/// Where in a source (route file, URI, expression) an error was found.
struct SourceRef {
  SourceFile file;      ///< empty when not from a file
  uint32_t line = 0;    ///< 1-based; 0 = unknown
  uint32_t column = 0;  ///< 1-based; 0 = unknown
  std::string snippet;  ///< the offending text
  operator SourcePlace() const noexcept;  // NOLINT: implicit, its snippet left out
};

/// Where something was written, without a snippet: what a route file's sources and compiled
/// steps keep of each position (a big file has many, and a snippet is for errors only).
struct SourcePlace {
  SourceFile file;
  uint32_t line = 0;
  uint32_t column = 0;
  operator SourceRef() const { return SourceRef{file, line, column, {}}; }  // NOLINT: implicit
};

inline SourceRef::operator SourcePlace() const noexcept { return SourcePlace{file, line, column}; }

/// A load/start-time failure. Allocation is fine here: this is never the per-message path.
struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  SourceRef where;

  /// The message, prefixed with `file:line:column: ` when a position is known.
  std::string toString() const;
};

/// Makes an Error from a code and a message.
inline Error makeError(ErrorCode code, std::string message) {
  return Error{code, std::move(message), {}};
}

/// Thrown by `Result::value()` on an error, and by user-facing conveniences that throw.
class DromedaryException : public std::runtime_error {
 public:
  explicit DromedaryException(Error error)
      : std::runtime_error(error.toString()), error_(std::move(error)) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

/// Either a T or an Error.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & { check(); return std::get<0>(state_); }
  const T& value() const& { check(); return std::get<0>(state_); }
  T&& value() && { check(); return std::get<0>(std::move(state_)); }
  T& operator*() & noexcept { return std::get<0>(state_); }
  const T& operator*() const& noexcept { return std::get<0>(state_); }
  T* operator->() noexcept { return &std::get<0>(state_); }
  const T* operator->() const noexcept { return &std::get<0>(state_); }
  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }

  const Error& error() const& noexcept { return std::get<1>(state_); }
  Error&& error() && noexcept { return std::get<1>(std::move(state_)); }

 private:
  void check() const {
    if (!has_value()) throw DromedaryException(std::get<1>(state_));
  }
  std::variant<T, Error> state_;
};

/// Success or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  // User-provided, not defaulted: `return {};` would otherwise value-initialize, zeroing all
  // 120 bytes of the empty optional (a `rep stos` on every successful send).
  Result() noexcept {}  // NOLINT(modernize-use-equals-default)
  Result(Error error) : error_(std::move(error)) {}  // NOLINT

  bool has_value() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  void value() const {
    if (error_) throw DromedaryException(*error_);
  }
  const Error& error() const& noexcept { return *error_; }
  Error&& error() && noexcept { return std::move(*error_); }

 private:
  std::optional<Error> error_;  // empty on success: nothing to construct or destroy
};

/// Propagates an error from a Result-returning call: `DROMEDARY_TRY(x, parse(text));`
#define DROMEDARY_TRY(var, expr)              \
  auto var##_result_ = (expr);                \
  if (!var##_result_) return std::move(var##_result_).error(); \
  auto var = std::move(*var##_result_)

/// Propagates an error, or assigns the value to an existing `target`:
/// `DROMEDARY_TRY_ASSIGN(options.size, number(text));`
#define DROMEDARY_TRY_ASSIGN(target, expr)                                \
  do {                                                                    \
    auto dromedary_result_ = (expr);                                      \
    if (!dromedary_result_) return std::move(dromedary_result_).error(); \
    (target) = std::move(*dromedary_result_);                             \
  } while (0)

/// Propagates an error from a Result<void>-returning call.
#define DROMEDARY_TRY_VOID(expr)                              \
  do {                                                        \
    auto dromedary_result_ = (expr);                          \
    if (!dromedary_result_) return std::move(dromedary_result_).error(); \
  } while (0)

}  // namespace dromedary
