// SPDX-License-Identifier: Apache-2.0
// The camel.main.* and camel.trace.* properties the engine itself reads (message history, the
// shutdown timeout, stream caching, the two tracers) and dromedary.flightRecorder.size. Each value is checked; an error names the
// property and the value.
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <charconv>
#include <chrono>

#include "engine/context_impl.h"
#include "engine/tracer.h"
#include "engine/variables.h"

namespace dromedary::detail {

namespace {

class PropertyReader {
 public:
  explicit PropertyReader(Context& context) : context_(context) {}

  Result<void> flag(std::string_view key, bool& out) {
    DROMEDARY_TRY(text, value(key));
    if (!text) return {};
    if (*text != "true" && *text != "false") return bad(key, *text, "true or false");
    out = *text == "true";
    return {};
  }

  template <typename Int>
  Result<void> number(std::string_view key, Int& out) {
    DROMEDARY_TRY(text, value(key));
    if (!text) return {};
    Int n{};
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
    if (ec != std::errc() || end != text->data() + text->size()) {
      return bad(key, *text, "a whole number");
    }
    out = n;
    return {};
  }

  Result<void> text(std::string_view key, std::string& out) {
    DROMEDARY_TRY(v, value(key));
    if (v) out = std::move(*v);
    return {};
  }

 private:
  Result<std::optional<std::string>> value(std::string_view key) {
    auto raw = context_.properties().get(key);
    if (!raw) return std::optional<std::string>();
    DROMEDARY_TRY(resolved, context_.resolvePlaceholders(*raw));
    return std::optional<std::string>(std::move(resolved));
  }

  static Error bad(std::string_view key, std::string_view text, std::string_view expected) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("{} must be {}, not '{}'", key, expected, text));
  }

  Context& context_;
};

}  // namespace

Result<TracingOptions> tracingOptionsFromProperties(Context& context) {
  PropertyReader p(context);
  TracingOptions o;
  DROMEDARY_TRY_VOID(p.flag("camel.main.tracing", o.logging));
  DROMEDARY_TRY_VOID(p.flag("camel.main.tracingStandby", o.loggingStandby));
  DROMEDARY_TRY_VOID(p.text("camel.main.tracingPattern", o.loggingPattern));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.enabled", o.backlog));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.standby", o.backlogStandby));
  DROMEDARY_TRY_VOID(p.number("camel.trace.backlogSize", o.backlogSize));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.removeOnDump", o.removeOnDump));
  DROMEDARY_TRY_VOID(p.number("camel.trace.bodyMaxChars", o.bodyMaxChars));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.includeExchangeProperties", o.includeExchangeProperties));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.includeException", o.includeException));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.traceRests", o.traceRests));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.traceTemplates", o.traceTemplates));
  DROMEDARY_TRY_VOID(p.text("camel.trace.tracePattern", o.backlogPattern));
  DROMEDARY_TRY_VOID(p.text("camel.trace.traceFilter", o.backlogFilter));
  // Accepted for Camel's files, with nothing to do here: bodies are values, not streams.
  bool ignored = false;
  DROMEDARY_TRY_VOID(p.flag("camel.trace.bodyIncludeStreams", ignored));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.bodyIncludeFiles", ignored));
  DROMEDARY_TRY_VOID(p.flag("camel.trace.includeExchangeVariables", ignored));
  std::string format;
  DROMEDARY_TRY_VOID(p.text("camel.main.tracingLoggingFormat", format));
  if (!format.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("camel.main.tracingLoggingFormat '{}' is not supported: the "
                                 "trace log has Camel's default shape",
                                 format));
  }
  return o;
}

}  // namespace dromedary::detail

namespace dromedary {

Result<void> Context::applyMainProperties() {
  detail::PropertyReader p(*this);
  bool history = impl_->messageHistory;
  DROMEDARY_TRY_VOID(p.flag("camel.main.messageHistory", history));
  // camel.main.shutdownTimeout: whole seconds, as Camel's.
  if (auto raw = properties().get("camel.main.shutdownTimeout")) {
    int64_t seconds = -1;
    auto read = p.number("camel.main.shutdownTimeout", seconds);
    if (!read || seconds < 0 || seconds > 86'400) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("camel.main.shutdownTimeout must be whole seconds (0 to "
                                   "86400), not '{}'",
                                   *raw));
    }
    setShutdownTimeout(std::chrono::seconds(seconds));
  }
  uint32_t recorded = impl_->flightRecorderSize.load(std::memory_order_relaxed);
  DROMEDARY_TRY_VOID(p.number("dromedary.flightRecorder.size", recorded));
  if (recorded > 1000) {
    return makeError(
        ErrorCode::InvalidOption,
        fmt::format("dromedary.flightRecorder.size must be 0 to 1000, not {}", recorded));
  }
  StreamCachingOptions caching = streamCaching().options();
  DROMEDARY_TRY_VOID(p.flag("camel.main.streamCachingEnabled", caching.enabled));
  DROMEDARY_TRY_VOID(p.flag("camel.main.streamCachingSpoolEnabled", caching.spoolEnabled));
  DROMEDARY_TRY_VOID(p.text("camel.main.streamCachingSpoolDirectory", caching.spoolDirectory));
  DROMEDARY_TRY_VOID(p.number("camel.main.streamCachingSpoolThreshold", caching.spoolThreshold));
  DROMEDARY_TRY_VOID(p.number("camel.main.streamCachingBufferSize", caching.bufferSize));
  DROMEDARY_TRY_VOID(p.flag("camel.main.streamCachingRemoveSpoolDirectoryWhenStopping",
                            caching.removeSpoolDirectoryWhenStopping));
  if (!(caching == streamCaching().options())) {
    DROMEDARY_TRY_VOID(setStreamCaching(std::move(caching)));
  }
  DROMEDARY_TRY(options, detail::tracingOptionsFromProperties(*this));
  DROMEDARY_TRY_VOID(setTracing(std::move(options)));
  DROMEDARY_TRY_VOID(detail::applyVariableProperties(*this));
  setMessageHistory(history);
  setFlightRecorderSize(recorded);
  return {};
}

}  // namespace dromedary
