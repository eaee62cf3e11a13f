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

class EnrichStep final : public Step {
 public:
  EnrichStep(Context& context, std::unique_ptr<Expression> uri,
             std::shared_ptr<AggregationStrategy> strategy, bool on_exception, bool ignore_invalid)
      : context_(context), uri_(std::move(uri)), strategy_(std::move(strategy)),
        onException_(on_exception), ignoreInvalid_(ignore_invalid) {}

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
      reply->resetAsCopyOf(ex, true);
      reply->setPattern(Pattern::InOut);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    processAndWait(*reply, *producer);
    return enrichWith(ex, *reply, strategy_.get(), onException_);
  }

 private:
  Context& context_;
  std::unique_ptr<Expression> uri_;
  std::shared_ptr<AggregationStrategy> strategy_;
  bool onException_;
  bool ignoreInvalid_;
};

}  // namespace

Result<std::unique_ptr<Step>> EnrichModel::compile(RouteCompiler& compiler) const {
  if (poll) return compilePoll(compiler);
  auto u = uri.compile(compiler.context());
  if (!u) return compiler.error(*this, u.error());
  auto resolved = resolveStrategy(compiler, *this, strategy, strategyRef);
  if (!resolved) return resolved.error();
  return std::unique_ptr<Step>(new EnrichStep(compiler.context(), std::move(*u),
                                              *resolved, aggregateOnException,
                                              ignoreInvalidEndpoint));
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
};
}  // namespace

extern const EipSchema kEnrichSchema{
    .key = "enrich",
    .description = "Asks the endpoint the expression names and merges its answer into the exchange",
    .attributes = kEnrichAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
