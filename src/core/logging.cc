// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/logging.h>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>

#include "core/text.h"

namespace dromedary {

namespace {

spdlog::level::level_enum toSpd(LoggingLevel level) noexcept {
  switch (level) {
    case LoggingLevel::Trace: return spdlog::level::trace;
    case LoggingLevel::Debug: return spdlog::level::debug;
    case LoggingLevel::Info: return spdlog::level::info;
    case LoggingLevel::Warn: return spdlog::level::warn;
    case LoggingLevel::Error: return spdlog::level::err;
    case LoggingLevel::Off: return spdlog::level::off;
  }
  return spdlog::level::info;
}

std::atomic<LoggingLevel> global_level{LoggingLevel::Info};

// Camel's upper-case, right-aligned level ("  INFO", " WARN").
class UpperLevelFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    std::string_view name;
    switch (msg.level) {
      case spdlog::level::trace: name = "TRACE"; break;
      case spdlog::level::debug: name = "DEBUG"; break;
      case spdlog::level::info: name = " INFO"; break;
      case spdlog::level::warn: name = " WARN"; break;
      case spdlog::level::err: name = "ERROR"; break;
      default: name = "  OFF"; break;
    }
    dest.append(name.data(), name.data() + name.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<UpperLevelFlag>();
  }
};

// One sink and one formatter for every category. A category is only its interned name: a
// logger per category (spdlog's, with its own sink list, formatter and backtracer) cost ~500
// bytes each, and every route that logs has a category of its own (its id, as in Camel).
// A category's name is interned (internText): a Logger points at it.
struct Registry {
  std::shared_ptr<spdlog::sinks::sink> sink = makeSink();

  static std::shared_ptr<spdlog::sinks::sink> makeSink() {
    auto sink = std::make_shared<spdlog::sinks::stdout_sink_mt>();
    // Camel's default line shape: time, level, pid, thread, category, message.
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<UpperLevelFlag>('*').set_pattern(
        "%Y-%m-%d %H:%M:%S.%e %* %P --- [%t] %n : %v");
    sink->set_formatter(std::move(formatter));
    sink->set_level(spdlog::level::trace);  // the global level decides (one atomic read)
    return sink;
  }
};

Registry& registry() {
  static Registry* r = new Registry();  // lives through static destruction
  return *r;
}

}  // namespace

std::optional<LoggingLevel> parseLoggingLevel(std::string_view text) noexcept {
  static constexpr std::pair<std::string_view, LoggingLevel> kNames[] = {
      {"TRACE", LoggingLevel::Trace}, {"DEBUG", LoggingLevel::Debug},
      {"INFO", LoggingLevel::Info},   {"WARN", LoggingLevel::Warn},
      {"ERROR", LoggingLevel::Error}, {"OFF", LoggingLevel::Off}};
  for (const auto& [name, level] : kNames) {
    if (equalsIgnoreCaseAscii(name, text)) return level;
  }
  return std::nullopt;
}

std::string_view loggingLevelName(LoggingLevel level) noexcept {
  switch (level) {
    case LoggingLevel::Trace: return "TRACE";
    case LoggingLevel::Debug: return "DEBUG";
    case LoggingLevel::Info: return "INFO";
    case LoggingLevel::Warn: return "WARN";
    case LoggingLevel::Error: return "ERROR";
    case LoggingLevel::Off: return "OFF";
  }
  return "INFO";
}

Logger Logger::get(std::string_view category) {
  return Logger(const_cast<std::string*>(&internText(category)));
}

Logger Logger::named(const std::string& category) noexcept {
  return Logger(const_cast<std::string*>(&category));
}

bool Logger::enabled(LoggingLevel level) const noexcept {
  return level != LoggingLevel::Off && level >= global_level.load(std::memory_order_relaxed);
}

namespace {
std::atomic<LogObserver> log_observer{nullptr};
}  // namespace

void setLogObserver(LogObserver observer) noexcept { log_observer.store(observer); }

void Logger::log(LoggingLevel level, std::string_view line) const noexcept {
  if (!enabled(level)) return;
  if (LogObserver observer = log_observer.load(std::memory_order_relaxed)) {
    observer(category(), level, line);
  }
  try {
    // What spdlog::logger::log does for one sink that flushes every line.
    spdlog::details::log_msg msg(spdlog::source_loc{}, category(), toSpd(level),
                                 spdlog::string_view_t(line.data(), line.size()));
    spdlog::sinks::sink& sink = *registry().sink;
    sink.log(msg);
    sink.flush();
  } catch (...) {
    // Logging must never fail the exchange.
  }
}

std::string_view Logger::category() const noexcept {
  return *static_cast<const std::string*>(impl_);
}

void setLogLevel(LoggingLevel level) noexcept { global_level.store(level); }
LoggingLevel logLevel() noexcept { return global_level.load(); }

}  // namespace dromedary
