// SPDX-License-Identifier: Apache-2.0
// enrich(uri, strategy): a copy of the exchange (InOut) goes to the resource endpoint, and
// `strategy.aggregate(exchange, reply)` decides what goes on; without a strategy the reply's
// message replaces the exchange's, as in Camel. A failed reply fails the exchange unless
// aggregateOnException lets the strategy see it. The URI is an expression (constant or Simple)
// resolved through the per-thread producer cache.
//
// The copy comes from the exchange pool; the reply's message is swapped in, not copied. The
// step waits for the resource on this thread when the resource suspends (a seda request).
#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "eip/aggregation.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/producer_cache.h"
#include "engine/variables.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

Status enrichWith(Exchange& ex, Exchange& resource, AggregationStrategy* strategy,
                  bool on_exception) noexcept {
  if (resource.failed() && !on_exception) {
    ex.mutableErrorForEngine() = std::move(resource.mutableErrorForEngine());
    return Status::Fail;
  }
  try {
    Exchange* got = strategy ? strategy->aggregate(&ex, resource) : &resource;
    if (got == &resource) {
      std::swap(ex.message(), resource.messageForEngine());
      if (resource.failed()) ex.mutableErrorForEngine() = std::move(resource.mutableErrorForEngine());
    } else if (got != &ex) {
      ex.fail(ErrorCode::InvalidRoute,
              "The aggregation strategy returned an exchange other than the two it was given");
    }
  } catch (...) {
    ex.setException(std::current_exception());
  }
  return ex.failed() ? Status::Fail : Status::Continue;
}

namespace {

// Camel 4's variableSend / variableReceive on enrich (and on to and toD, which are made of
// this step when they name variables): the copy's body from a variable, and the reply's body
// and headers into variables, the message left as it was.
struct VariableOptions {
  std::optional<detail::VariableName> send, receive;
  int pattern = -1;  // the copy's pattern (-1: the exchange's; enrich gives InOut)
};

class EnrichStep final : public Step {
 public:
  EnrichStep(Context& context, std::unique_ptr<Expression> uri,
             std::shared_ptr<AggregationStrategy> strategy, bool on_exception, bool ignore_invalid,
             VariableOptions variables = {})
      : context_(context), uri_(std::move(uri)), strategy_(std::move(strategy)),
        onException_(on_exception), ignoreInvalid_(ignore_invalid),
        variables_(std::move(variables)) {}

  Status run(Exchange& ex) noexcept override {
    Producer* producer;
    {
      Value scratch;
      const Value* v = uri_->evaluate(ex, scratch);
      if (!v) return Status::Fail;
      thread_local std::string buffer;
      std::string_view uri = stringForm(*v, buffer);
      producer = cachedProducer(context_, uri, ex, ignoreInvalid_);
      if (!producer) return ex.failed() ? Status::Fail : Status::Continue;
    }
    ExchangePtr reply = acquireExchange(&context_);
    try {
      reply->resetAsCopyOf(ex, !variables_.send);
      reply->setPattern(variables_.pattern < 0 ? ex.pattern()
                                               : static_cast<Pattern>(variables_.pattern));
      if (variables_.send) {
        Value& body = reply->messageForEngine().body();
        if (!detail::readVariable(ex, *variables_.send, body)) body.reset();
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    processAndWait(*reply, *producer);
    if (!variables_.receive) return enrichWith(ex, *reply, strategy_.get(), onException_);
    if (reply->failed()) {
      ex.mutableErrorForEngine() = std::move(reply->mutableErrorForEngine());
      return Status::Fail;
    }
    try {
      detail::setVariableFromMessage(ex, *variables_.receive, reply->message());
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

 private:
  Context& context_;
  std::unique_ptr<Expression> uri_;
  std::shared_ptr<AggregationStrategy> strategy_;
  bool onException_;
  bool ignoreInvalid_;
  VariableOptions variables_;
};

Result<VariableOptions> variableOptions(RouteCompiler& compiler, const StepModel& step,
                                        const std::string& send, const std::string& receive,
                                        int pattern) {
  VariableOptions o;
  o.pattern = pattern;
  for (auto [text, target] : {std::pair{&send, &o.send}, std::pair{&receive, &o.receive}}) {
    if (text->empty()) continue;
    auto resolved = compiler.context().resolvePlaceholders(*text);
    if (!resolved) return compiler.error(step, resolved.error());
    auto name = detail::parseVariableName(*resolved);
    if (!name) return compiler.error(step, name.error());
    *target = std::move(*name);
  }
  return o;
}

}  // namespace

Result<std::unique_ptr<Step>> EnrichModel::compile(RouteCompiler& compiler) const {
  if (poll) return compilePoll(compiler);
  auto u = uri.compile(compiler.context());
  if (!u) return compiler.error(*this, u.error());
  auto resolved = resolveStrategy(compiler, *this, strategy, strategyRef);
  if (!resolved) return resolved.error();
  // enrich is request-reply, whatever the exchange's pattern.
  auto variables = variableOptions(compiler, *this, variableSend, variableReceive,
                                   static_cast<int>(Pattern::InOut));
  if (!variables) return variables.error();
  return std::unique_ptr<Step>(new EnrichStep(compiler.context(), std::move(*u),
                                              *resolved, aggregateOnException,
                                              ignoreInvalidEndpoint, std::move(*variables)));
}

Result<std::unique_ptr<Step>> sendWithVariables(RouteCompiler& compiler, const StepModel& step,
                                                const ExpressionDefinition& uri, int pattern,
                                                const std::string& variable_send,
                                                const std::string& variable_receive) {
  auto u = uri.compile(compiler.context());
  if (!u) return compiler.error(step, u.error());
  auto variables = variableOptions(compiler, step, variable_send, variable_receive, pattern);
  if (!variables) return variables.error();
  return std::unique_ptr<Step>(new EnrichStep(compiler.context(), std::move(*u), nullptr, false,
                                              false, std::move(*variables)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kEnrichAttributes[] = {
    {"aggregationStrategy", AttributeType::Text, "",
     "How the answer is merged: a bound strategy or one of Camel's class names; default: the "
     "answer replaces the message"},
    {"strategyRef", AttributeType::Text, "", "Camel's older name for aggregationStrategy"},
    {"aggregateOnException", AttributeType::Boolean, "false", "Merge a failed answer too"},
    {"ignoreInvalidEndpoint", AttributeType::Boolean, "false",
     "Skip a URI that names no endpoint rather than fail"},
    {"cacheSize", AttributeType::Integer, "1000", "Endpoints kept per thread (-1: no bound)"},
    {"variableSend", AttributeType::Text, "",
     "The variable whose value is sent as the body (Camel 4)"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the answer's body goes to (its headers to header:NAME.KEY); the message "
     "stays as it was"},
};
}  // namespace

extern const EipSchema kEnrichSchema{
    .key = "enrich",
    .description = "Asks the endpoint the expression names and merges its answer into the exchange",
    .attributes = kEnrichAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
