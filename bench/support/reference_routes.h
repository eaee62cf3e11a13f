// SPDX-License-Identifier: Apache-2.0
#pragma once

// The routes of the reference scenarios (shared/reference/000), defined once: the
// benchmarks time them and tests/engine/zero_allocation_test.cc asserts that they allocate
// nothing per exchange, so both speak of the same routes.

#include <memory>

#include <dromedary/dromedary.h>

namespace dromedary::bench {

class NoOp final : public Processor {
 public:
  Status process(Exchange&) override { return Status::Continue; }
};

/// direct_1: direct:one -> 1 no-op processor.
inline void direct1Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:one").process(noop);
}

/// direct_10: direct:ten -> 10 no-op processors.
inline void direct10Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  RouteDefinition& r = b.from("direct:ten");
  for (int i = 0; i < 10; ++i) r.process(noop);
}

/// redelivery_10: direct_10 under an error handler that may redeliver 3 times (Camel copies
/// the message before every node for this; here the success path must cost nothing).
inline void redelivery10Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  RouteDefinition& r = b.from("direct:redelivery")
                           .errorHandler(defaultErrorHandler().maximumRedeliveries(3));
  for (int i = 0; i < 10; ++i) r.process(noop);
}

/// Fails an exchange's first two deliveries (recording the failure, as a built-in step
/// would: no C++ exception), then succeeds.
class FailTwice final : public Processor {
 public:
  Status process(Exchange& ex) override {
    const Value* counter = ex.message().getHeader("CamelRedeliveryCounter");
    if (!counter || counter->as<int64_t>() < 2) {
      ex.fail(ErrorCode::ProcessorFailed, "Simulated failure");
      return Status::Fail;
    }
    return Status::Continue;
  }
};

/// failure_redelivered: a node fails twice then succeeds, no delay, between no-op nodes.
inline void failureRedeliveredRoute(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:flaky")
      .errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(
          std::chrono::milliseconds(0)))
      .process(noop)
      .setHeader("step", constant(1))
      .process(std::make_shared<FailTwice>())
      .process(noop);
}

/// typical: a filter on a header predicate, a choice with two whens and otherwise,
/// setHeader, then on to `direct:next` (which the caller defines). Simple expressions, as a
/// Camel route file would have them.
inline void typicalRoute(RouteBuilder& b) {
  b.from("direct:typical")
      .filter(simple("${header.type} == 'order'"))
        .choice()
          .when(simple("${header.amount} > 1000")).setHeader("priority", constant("high"))
          .when(simple("${header.region} == 'EU'")).setHeader("priority", constant("eu"))
          .otherwise().setHeader("priority", constant("normal"))
        .end()
        .setHeader("routedBy", simple("dromedary ${header.region}"))
        .to("direct:next")
      .end();
}

/// camel_e: exactly the route of scenario e in Camel's harness (shared/reference/000's
/// "typical route"), so that the ratio to Camel's figure is exact: a filter on a header,
/// a choice whose branch sets a header from a template, the other a constant, then on to
/// `direct:sink` (which the caller defines). Sent with headers foo=bar and kind=gold.
inline void camelERoute(RouteBuilder& b) {
  b.from("direct:camel-e")
      .filter(simple("${header.foo} == 'bar'"))
        .choice()
          .when(simple("${header.kind} == 'gold'"))
            .setHeader("tier", simple("premium-${header.kind}"))
          .otherwise()
            .setHeader("tier", constant("standard"))
        .end()
        .to("direct:sink")
      .end();
}

/// The Simple scenarios (Camel's figures: OGNL 361 ns and 3.8 KB, date 532 ns and 2 KB):
/// the text, and whether it is a predicate.
struct SimpleCase {
  const char* text;
  bool predicate;
};
inline constexpr SimpleCase kSimplePredicate{"${header.foo} == 'bar'", true};
inline constexpr SimpleCase kSimpleTemplate{"Hello ${body} at ${header.x}", false};
inline constexpr SimpleCase kSimpleOgnl{"${body.name}", false};
inline constexpr SimpleCase kSimpleDate{"${date:now:yyyyMMdd}", false};
inline constexpr SimpleCase kSimpleNumeric{"${header.amount} > 1000", true};

/// The message the Simple scenarios read: headers foo, x and amount; a text body, or with
/// `map_body` a map with a name (for the OGNL case).
inline void fillSimpleMessage(Exchange& ex, bool map_body) {
  ex.message().setHeader("foo", Value("bar"));
  ex.message().setHeader("x", Value("noon"));
  ex.message().setHeader("amount", Value(1500));
  if (map_body) {
    ex.message().setBody(Value(ValueMap{{"id", Value(7)}, {"name", Value("Camel")}}));
  } else {
    ex.message().setBody("World");
  }
}

// split_100: a 100-item list split into one no-op processor, sequential.
inline void split100Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:split").split(body()).process(noop).end();
}

// split_100_streaming_tokenize: a 100-line text, tokenized on newlines, streaming.
inline void splitTokenizeRoute(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:lines").split(tokenize("\n")).streaming().process(noop).end();
}

// multicast_3: three branches, each a no-op processor; the last one's result goes on.
inline void multicast3Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:multicast").multicast().process(noop).process(noop).process(noop).end();
}

// aggregate_10: groups of 10 messages by a correlation header, completed by size; the last
// one's message goes on (UseLatest) into a no-op processor.
inline void aggregate10Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:aggregate")
      .aggregate(header("group"), AggregationStrategies::useLatest())
      .completionSize(10)
      .process(noop)
      .end();
}

inline Value hundredItems() {
  ValueList list;
  for (int i = 0; i < 100; ++i) list.push_back(Value("item-" + std::to_string(i)));
  return Value(std::move(list));
}

inline Value hundredLines() {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "line-" + std::to_string(i) + "\n";
  return Value(std::move(text));
}

}  // namespace dromedary::bench
