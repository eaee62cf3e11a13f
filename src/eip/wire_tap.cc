// SPDX-License-Identifier: Apache-2.0
// wireTap(uri): a copy of the exchange (InOnly, its own id) goes to the endpoint on one of
// the context's workers; the exchange itself goes on at once. A URI with ${...} is a Simple
// template, resolved per exchange through the producer cache, as Camel's wireTap does.
// The copy comes from the exchange pool and goes back to it when its send completes; a
// failed send is logged at WARN (it has nobody to return to).
#include <fmt/format.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/logging.h>
#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "core/scratch.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/exec_state.h"
#include "engine/producer_cache.h"
#include "engine/variables.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

const Logger& tapLog() {
  static const Logger log = Logger::get("dromedary.wiretap");
  return log;
}

void tapDone(Exchange& ex, void*) noexcept {
  if (ex.failed() && tapLog().enabled(LoggingLevel::Warn)) {
    try {
      const detail::FanOutState& s = *detail::exec(ex).fanOut;
      tapLog().log(LoggingLevel::Warn, fmt::format("Wire tap to {} failed: {}",
                                                   s.sendUri ? *s.sendUri : std::string(),
                                                   ex.error().message()));
    } catch (...) {
    }
  }
  ExchangeRecycler{}(&ex);
}

void sendTap(void* arg) noexcept {
  auto* ex = static_cast<Exchange*>(arg);
  processAsync(*ex, *detail::exec(*ex).fanOut->sendTarget, &tapDone, nullptr);
}

class WireTapStep final : public Step {
 public:
  WireTapStep(Context& context, Producer* producer, std::string uri,
              std::unique_ptr<Expression> dynamic, std::optional<detail::VariableName> send)
      : context_(context), producer_(producer), uri_(std::move(uri)), dynamic_(std::move(dynamic)),
        send_(std::move(send)) {}

  Status run(Exchange& ex) noexcept override {
    Producer* producer = producer_;
    if (dynamic_) {
      ScratchValue scratch;
      const Value* v = dynamic_->evaluate(ex, *scratch);
      if (!v) return Status::Fail;
      thread_local std::string buffer;
      producer = cachedProducer(context_, stringForm(*v, buffer), ex);
      if (!producer) return Status::Fail;
    }
    ExchangePtr tap = acquireExchange(&context_);
    try {
      tap->copyFrom(ex);
      if (send_) {  // Camel 4's variableSend: the tap's body is the variable's value
        Value body;
        detail::readVariable(ex, *send_, body);
        tap->message().setBody(std::move(body));
      }
      loadFileBody(tap->message().body());  // the file moves once `ex` completes
      tap->setPattern(Pattern::InOnly);
      detail::FanOutState& s = detail::fanOutState(*tap);
      s.sendTarget = producer;
      s.sendUri = &uri_;
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    context_.submit({&sendTap, tap.release()});
    return Status::Continue;
  }

 private:
  Context& context_;
  Producer* producer_;
  const std::string uri_;
  std::unique_ptr<Expression> dynamic_;
  std::optional<detail::VariableName> send_;
};

}  // namespace

Result<std::unique_ptr<Step>> WireTapModel::compile(RouteCompiler& compiler) const {
  std::optional<detail::VariableName> send;
  if (!variableSend.empty()) {
    auto name = detail::parseVariableName(variableSend);
    if (!name) return compiler.error(*this, name.error());
    send = std::move(*name);
  }
  if (uri.find("${") != std::string::npos) {
    auto e = simple(uri).compile(compiler.context());
    if (!e) return compiler.error(*this, e.error());
    return std::unique_ptr<Step>(
        new WireTapStep(compiler.context(), nullptr, uri, std::move(*e), std::move(send)));
  }
  auto producer = compiler.producer(uri);
  if (!producer) return compiler.error(*this, producer.error());
  return std::unique_ptr<Step>(
      new WireTapStep(compiler.context(), *producer, uri, nullptr, std::move(send)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kWireTapAliases[] = {"wire-tap"};
constexpr AttributeSchema kWireTapAttributes[] = {
    {"uri", AttributeType::Text, "", "The endpoint URI, as Simple", true},
    {"copy", AttributeType::Boolean, "true", "Accepted: the tap always gets a copy"},
    {"dynamicUri", AttributeType::Boolean, "true", "Accepted: the URI is always Simple"},
    {"variableSend", AttributeType::Text, "",
     "The variable whose value is the tap's body (Camel 4)"},
};
}  // namespace

extern const EipSchema kWireTapSchema{
    .key = "wireTap",
    .aliases = kWireTapAliases,
    .description = "Sends a copy of the exchange to an endpoint without waiting for it",
    .attributes = kWireTapAttributes,
    .shorthand = "uri",
};

}  // namespace dromedary::eip
