// SPDX-License-Identifier: Apache-2.0
// pollEnrich(uri, timeout, strategy): the next message of a pollable endpoint (its polling
// consumer, Camel's PollingConsumer) is folded into the exchange as enrich folds a reply.
// timeout < 0 waits until a message comes (Camel's receive()), 0 takes one only if it is
// there (receiveNoWait()), > 0 waits up to that many milliseconds. Nothing polled: the
// strategy's noResource() is called; without a strategy the body becomes null and headers
// stay, as Camel's default. The wait holds the calling thread, as Camel's does.
//
// A constant URI is resolved at route start (an endpoint that cannot be polled fails the route
// there); a dynamic one per exchange through a one-entry per-thread cache (a hit costs a string
// compare; a miss resolves through the context).
#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "eip/aggregation.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/expression_spec.h"
#include "engine/variables.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

Result<PollingConsumer*> resolvePolling(Context& context, std::string_view uri) {
  DROMEDARY_TRY(endpoint, context.endpoint(uri));
  return endpoint->pollingConsumer();
}

// The polling consumer last resolved on this thread, by context and URI text.
PollingConsumer* cachedPolling(Context& context, std::string_view uri, Exchange& ex,
                               bool ignore_invalid) noexcept {
  struct Last {
    uint64_t contextUid = 0;
    std::string uri;
    PollingConsumer* consumer = nullptr;
  };
  thread_local Last last;
  if (last.consumer && last.contextUid == context.uid() && last.uri == uri) {
    return last.consumer;
  }
  try {
    auto consumer = resolvePolling(context, uri);
    if (!consumer) {
      if (!ignore_invalid) {
        ex.failWithDetail(consumer.error().code, "Cannot poll endpoint", consumer.error().message);
      }
      return nullptr;
    }
    last.contextUid = context.uid();
    last.uri.assign(uri.data(), uri.size());
    last.consumer = *consumer;
    return *consumer;
  } catch (...) {
    if (!ignore_invalid) ex.setException(std::current_exception());
    return nullptr;
  }
}

class PollEnrichStep final : public Step {
 public:
  PollEnrichStep(Context& context, std::unique_ptr<Expression> uri, PollingConsumer* fixed,
                 std::chrono::milliseconds timeout, std::shared_ptr<AggregationStrategy> strategy,
                 bool on_exception, bool ignore_invalid,
                 std::optional<detail::VariableName> receive)
      : context_(context), uri_(std::move(uri)), fixed_(fixed), timeout_(timeout),
        strategy_(std::move(strategy)), onException_(on_exception),
        ignoreInvalid_(ignore_invalid), receive_(std::move(receive)) {}

  Status run(Exchange& ex) noexcept override {
    PollingConsumer* consumer = fixed_;
    if (!consumer) {
      Value scratch;
      const Value* v = uri_->evaluate(ex, scratch);
      if (!v) return Status::Fail;
      thread_local std::string buffer;
      consumer = cachedPolling(context_, stringForm(*v, buffer), ex, ignoreInvalid_);
      if (!consumer) return ex.failed() ? Status::Fail : Status::Continue;
    }
    ExchangePtr polled = consumer->receive(timeout_);
    if (receive_) return receiveIntoVariable(ex, polled.get());
    if (polled) return enrichWith(ex, *polled, strategy_.get(), onException_);
    try {
      if (strategy_) {
        strategy_->noResource(ex);
      } else {
        ex.message().setBody(Value());
      }
    } catch (...) {
      ex.setException(std::current_exception());
    }
    return ex.failed() ? Status::Fail : Status::Continue;
  }

 private:
  // Camel 4's variableReceive: the polled body into the variable (its headers to
  // header:NAME.KEY), nothing polled: null; the message stays as it was.
  Status receiveIntoVariable(Exchange& ex, Exchange* polled) noexcept {
    try {
      if (polled && polled->failed()) {
        ex.mutableErrorForEngine() = std::move(polled->mutableErrorForEngine());
        return Status::Fail;
      }
      if (polled) {
        detail::setVariableFromMessage(ex, *receive_, polled->message());
      } else {
        detail::writeVariable(ex, *receive_, Value());
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  Context& context_;
  std::unique_ptr<Expression> uri_;
  PollingConsumer* fixed_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<AggregationStrategy> strategy_;
  bool onException_;
  bool ignoreInvalid_;
  std::optional<detail::VariableName> receive_;
};

}  // namespace

Result<std::unique_ptr<Step>> EnrichModel::compilePoll(RouteCompiler& compiler) const {
  Context& context = compiler.context();
  auto u = uri.compile(context);
  if (!u) return compiler.error(*this, u.error());
  auto resolved = resolveStrategy(compiler, *this, strategy, strategyRef);
  if (!resolved) return resolved.error();
  std::optional<detail::VariableName> receive;
  if (!variableReceive.empty()) {
    auto name = detail::parseVariableName(variableReceive);
    if (!name) return compiler.error(*this, name.error());
    receive = std::move(*name);
  }
  PollingConsumer* fixed = nullptr;
  if (uri.spec()->isConstant()) {
    ExchangePtr probe = acquireExchange(&context);
    Value scratch;
    const Value* v = (*u)->evaluate(*probe, scratch);
    std::string buffer;
    std::string_view text = v ? stringForm(*v, buffer) : std::string_view();
    auto consumer = resolvePolling(context, text);
    if (!consumer) {
      if (!ignoreInvalidEndpoint) return compiler.error(*this, consumer.error());
    } else {
      fixed = *consumer;
    }
  }
  return std::unique_ptr<Step>(new PollEnrichStep(
      context, std::move(*u), fixed, std::chrono::milliseconds(timeoutMillis), *resolved,
      aggregateOnException, ignoreInvalidEndpoint, std::move(receive)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kPollEnrichAliases[] = {"poll-enrich"};
constexpr AttributeSchema kPollEnrichAttributes[] = {
    {"timeout", AttributeType::Duration, "-1",
     "How long to wait for a message: -1 until one comes, 0 not at all"},
    {"aggregationStrategy", AttributeType::Text, "",
     "How the message is merged: a bound strategy or one of Camel's class names; default: it "
     "replaces the message"},
    {"strategyRef", AttributeType::Text, "", "Camel's older name for aggregationStrategy"},
    {"aggregateOnException", AttributeType::Boolean, "false", "Merge a failed poll too"},
    {"ignoreInvalidEndpoint", AttributeType::Boolean, "false",
     "Skip a URI that names no endpoint rather than fail"},
    {"cacheSize", AttributeType::Integer, "1000", "Endpoints kept per thread (-1: no bound)"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the polled body goes to (its headers to header:NAME.KEY); the message "
     "stays as it was (Camel 4)"},
};
constexpr AttributeSchema kPollAttributes[] = {
    {"uri", AttributeType::Text, "", "The endpoint to poll (Simple when it holds ${...})", true},
    {"timeout", AttributeType::Duration, "20000",
     "How long to wait for a message: -1 until one comes, 0 not at all"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the polled body goes to (its headers to header:NAME.KEY); the message "
     "stays as it was"},
};
}  // namespace

extern const EipSchema kPollSchema{
    .key = "poll",
    .description = "Takes a message from the endpoint and makes it the exchange's message (Camel "
                   "4's simpler pollEnrich)",
    .attributes = kPollAttributes,
    .shorthand = "uri",
};

extern const EipSchema kPollEnrichSchema{
    .key = "pollEnrich",
    .aliases = kPollEnrichAliases,
    .description = "Takes a message from the endpoint the expression names and merges it into the "
                   "exchange",
    .attributes = kPollEnrichAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
