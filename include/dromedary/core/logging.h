// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Logging: a small facade over spdlog, so that spdlog stays out of the public API.
///
/// A Logger is a cheap handle fetched once (at route start) by category name. Callers check
/// `enabled(level)` before building a line, so a disabled level costs one comparison and no
/// string is built that nobody prints.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dromedary {

enum class LoggingLevel : uint8_t { Trace, Debug, Info, Warn, Error, Off };

/// Parses "TRACE", "debug", "Info", "WARN", "ERROR", "OFF" (case-insensitive).
std::optional<LoggingLevel> parseLoggingLevel(std::string_view text) noexcept;
std::string_view loggingLevelName(LoggingLevel level) noexcept;

class Logger {
 public:
  /// The logger for a category (created on first use; thread-safe; not for the hot path).
  static Logger get(std::string_view category);
  /// The logger for a category whose text `category` holds, for as long as the logger is used
  /// (a route's id, for the route's log steps): nothing is interned, so a context of many
  /// routes, or one that reloads them, keeps no name per route beyond the route's own.
  static Logger named(const std::string& category) noexcept;

  bool enabled(LoggingLevel level) const noexcept;
  /// Writes one line. Thread-safe.
  void log(LoggingLevel level, std::string_view line) const noexcept;
  std::string_view category() const noexcept;

 private:
  explicit Logger(void* impl) noexcept : impl_(impl) {}
  void* impl_;
};

/// Receives every line that is logged (after the level check), on the logging thread.
using LogObserver = void (*)(std::string_view category, LoggingLevel level,
                             std::string_view line) noexcept;
/// Installs (or, with nullptr, removes) the observer: for tests and embedding applications
/// that want the lines as well as the log output.
void setLogObserver(LogObserver observer) noexcept;

/// The level below which nothing is logged, for every category.
void setLogLevel(LoggingLevel level) noexcept;
LoggingLevel logLevel() noexcept;

}  // namespace dromedary
