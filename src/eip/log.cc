// SPDX-License-Identifier: Apache-2.0
// log(message): writes a line under a category (the route id unless given). The message is
// evaluated only when the level is enabled: nothing is built that nobody prints.
#include "core/scratch.h"
#include "core/text_expression.h"
#include <dromedary/core/value_compare.h>
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class LogStep final : public Step {
 public:
  LogStep(Logger logger, LoggingLevel level, std::unique_ptr<Expression> message)
      : logger_(logger),
        level_(level),
        message_(std::move(message)),
        text_(dynamic_cast<const TextExpression*>(message_.get())) {}

  Status run(Exchange& ex) noexcept override {
    if (!logger_.enabled(level_)) return Status::Continue;  // a disabled level: nothing built
    if (text_) {  // a template (most log messages): rendered straight into the line's buffer
      thread_local std::string line;
      line.clear();
      if (!text_->appendText(ex, line)) return Status::Fail;
      logger_.log(level_, line);
      return Status::Continue;
    }
    ScratchValue scratch;
    const Value* v = message_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    thread_local std::string buffer;
    logger_.log(level_, stringForm(*v, buffer));
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return message_->mayBlock(); }
 private:
  Logger logger_;
  LoggingLevel level_;
  std::unique_ptr<Expression> message_;
  const TextExpression* text_;  // message_, when it is a template
};

}  // namespace

Result<std::unique_ptr<Step>> LogModel::compile(RouteCompiler& compiler) const {
  auto e = message.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  // The route's id is the route's own string, which outlives its steps: not interned.
  Logger logger = logName.empty() ? Logger::named(compiler.route().id) : Logger::get(logName);
  return std::unique_ptr<Step>(new LogStep(logger, level, std::move(*e)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kLoggingLevels[] = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"};
constexpr AttributeSchema kLogAttributes[] = {
    {"message", AttributeType::Text, "", "The message, as Simple", true},
    {"loggingLevel", AttributeType::Enum, "INFO", "The level", false, kLoggingLevels},
    {"logName", AttributeType::Text, "", "The logger's name; default: the route id"},
};
}  // namespace

extern const EipSchema kLogSchema{
    .key = "log",
    .description = "Logs a message built with Simple",
    .attributes = kLogAttributes,
    .shorthand = "message",
};

}  // namespace dromedary::eip
