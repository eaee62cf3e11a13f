// SPDX-License-Identifier: Apache-2.0
// log:category?level=INFO&showHeaders=true ...: logs each exchange in Camel's shape. The
// line is built only when the level is enabled, into a per-thread buffer that keeps its
// capacity, so a warm log endpoint allocates nothing of its own per message.
#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>

#include "exchange_formatter.h"

namespace dromedary {
namespace component::log {

namespace {

constexpr OptionSpec kOptions[] = {
    {"level", OptionType::Enum, "INFO", "Logging level", "TRACE,DEBUG,INFO,WARN,ERROR,OFF"},
    {"showAll", OptionType::Bool, "false", "Turn every show option on (not multiline/maxChars)"},
    {"showBody", OptionType::Bool, "true", "Show the message body"},
    {"showBodyType", OptionType::Bool, "true", "Show the body type"},
    {"showExchangePattern", OptionType::Bool, "true", "Show the exchange pattern"},
    {"showHeaders", OptionType::Bool, "false", "Show the message headers"},
    {"showProperties", OptionType::Bool, "false", "Show the exchange properties"},
    {"showExchangeId", OptionType::Bool, "false", "Show the exchange id"},
    {"showRouteId", OptionType::Bool, "false", "Show the id of the route"},
    {"showException", OptionType::Bool, "false", "Show the failure, if the exchange has one"},
    {"showStackTrace", OptionType::Bool, "false", "Show the stack trace of a failure"},
    {"multiline", OptionType::Bool, "false", "Put each field on its own line"},
    {"skipBodyLineSeparator", OptionType::Bool, "true", "Log the body on one line"},
    {"maxChars", OptionType::Int, "10000", "Cut each field after this many characters"},
    {"plain", OptionType::Bool, "false", "Log only the body"},
    {"style", OptionType::Enum, "Default", "Output style", "Default,Tab,Fixed"},
    {"logMask", OptionType::Bool, "false",
     "Mask the values of passwords, passphrases and secret keys (key=value, JSON \"key\": \"value\")"},
    {"showAllProperties", OptionType::Bool, "false", "Show every exchange property"},
    {"marker", OptionType::String, "",
     "Accepted for Camel's files (an SLF4J marker): the line is the same without one"},
    {"showFiles", OptionType::Bool, "false",
     "Show the content of a file body (read whole); else \"[Body is file based: ...]\""},
    {"showStreams", OptionType::Bool, "false",
     "Accepted for Camel's files: bodies here are values, never one-shot streams"},
    {"showCachedStreams", OptionType::Bool, "true",
     "Accepted for Camel's files: bodies here are values, never one-shot streams"},
};

class LogProducer final : public Producer {
 public:
  LogProducer(Logger logger, LoggingLevel level, FormatOptions options, bool mask)
      : logger_(logger), level_(level), formatter_(options), mask_(mask) {}
  bool mayBlock() const noexcept override { return false; }  // a log line, as log() writes

  Status process(Exchange& ex) noexcept override {
    if (!logger_.enabled(level_)) return Status::Continue;
    thread_local std::string line;
    line.clear();
    try {
      formatter_.format(ex, line);
      if (mask_) maskSecrets(line);
    } catch (...) {
      return Status::Continue;  // out of memory while formatting: logging never fails a route
    }
    logger_.log(level_, line);
    return Status::Continue;
  }

 private:
  Logger logger_;
  LoggingLevel level_;
  ExchangeFormatter formatter_;
  bool mask_;
};

class LogEndpoint final : public Endpoint {
 public:
  using Endpoint::Endpoint;

  Result<std::unique_ptr<Producer>> createProducer() override {
    const EndpointOptions& o = options();
    FormatOptions f;
    f.showAll = o.getBool("showAll");
    f.showBody = o.getBool("showBody");
    f.showBodyType = o.getBool("showBodyType");
    f.showFiles = o.getBool("showFiles");
    f.showExchangePattern = o.getBool("showExchangePattern");
    f.showHeaders = o.getBool("showHeaders");
    f.showProperties = o.getBool("showProperties") || o.getBool("showAllProperties");
    f.showExchangeId = o.getBool("showExchangeId");
    f.showRouteId = o.getBool("showRouteId");
    f.showException = o.getBool("showException");
    f.showStackTrace = o.getBool("showStackTrace");
    f.multiline = o.getBool("multiline");
    f.skipBodyLineSeparator = o.getBool("skipBodyLineSeparator");
    f.maxChars = o.getInt("maxChars");
    f.plain = o.getBool("plain");
    const std::string& style = o.getString("style");
    f.style = style == "Tab"     ? FormatOptions::Style::Tab
              : style == "Fixed" ? FormatOptions::Style::Fixed
                                 : FormatOptions::Style::Default;
    LoggingLevel level = *parseLoggingLevel(o.getString("level"));
    return std::unique_ptr<Producer>(
        new LogProducer(Logger::get(parsedUri().path()), level, f, o.getBool("logMask")));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor&) override {
    return makeError(ErrorCode::InvalidUri,
                     "the log component only sends: '" + uri() + "' cannot start a route");
  }
};

class LogComponent final : public Component {
 public:
  std::string_view scheme() const override { return "log"; }
  std::string_view syntax() const override { return "log:loggerName"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri, "log endpoint '" + uri.text() +
                                                  "' has no category (expected 'log:name')");
    }
    return std::unique_ptr<Endpoint>(new LogEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace
}  // namespace component::log

void registerLogComponent(Context& context) {
  context.addComponent(std::make_unique<component::log::LogComponent>());
}

}  // namespace dromedary
