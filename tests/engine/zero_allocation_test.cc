// SPDX-License-Identifier: Apache-2.0
// A message sent with ProducerTemplate through direct and built-in steps allocates nothing
// once warm. Allocation counts are deterministic, so this is a test, not a benchmark.
#include <gtest/gtest.h>

#include "alloc_counter.h"
#include "reference_routes.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using bench::NoOp;
using dromedary::testing::AllocationScope;
using dromedary::testing::RouteHarness;

uint64_t allocationsPerSend(RouteHarness& h, std::string_view uri, const Headers* headers) {
  auto send = [&] {
    auto r = headers ? h.producer.sendBodyAndHeaders(uri, "order-1", *headers)
                     : h.producer.sendBody(uri, "order-1");
    EXPECT_TRUE(r) << r.error().message;
  };
  for (int i = 0; i < 100; ++i) send();  // warm-up: pools, caches, capacities
  AllocationScope scope;
  for (int i = 0; i < 1000; ++i) send();
  return scope.allocations();
}

TEST(ZeroAllocationTest, DirectToOneProcessor) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::direct1Route(b, noop); });
  EXPECT_EQ(allocationsPerSend(h, "direct:one", nullptr), 0u);
}

TEST(ZeroAllocationTest, DirectToTenProcessors) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::direct10Route(b, noop); });
  EXPECT_EQ(allocationsPerSend(h, "direct:ten", nullptr), 0u);
}

TEST(ZeroAllocationTest, RedeliveryEnabledSuccessPath) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::redelivery10Route(b, noop); });
  EXPECT_EQ(allocationsPerSend(h, "direct:redelivery", nullptr), 0u);
}

TEST(ZeroAllocationTest, FailingTwiceThenRedelivered) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::failureRedeliveredRoute(b, noop); });
  EXPECT_EQ(allocationsPerSend(h, "direct:flaky", nullptr), 0u);
}

// Split and multicast: the sub-exchanges are reused from item to item and from exchange to
// exchange (kept with the pooled exchange), so the steady state allocates nothing either.
uint64_t allocationsPerBodySend(RouteHarness& h, std::string_view uri, const Value& body) {
  auto send = [&] {
    auto r = h.producer.sendBody(uri, body);
    EXPECT_TRUE(r) << r.error().message;
  };
  for (int i = 0; i < 100; ++i) send();
  AllocationScope scope;
  for (int i = 0; i < 1000; ++i) send();
  return scope.allocations();
}

TEST(ZeroAllocationTest, SplitOfAHundredItems) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::split100Route(b, noop); });
  EXPECT_EQ(allocationsPerBodySend(h, "direct:split", bench::hundredItems()), 0u);
}

TEST(ZeroAllocationTest, StreamingTokenizedSplit) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::splitTokenizeRoute(b, noop); });
  EXPECT_EQ(allocationsPerBodySend(h, "direct:lines", bench::hundredLines()), 0u);
}

TEST(ZeroAllocationTest, MulticastOfASmallMessage) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) { bench::multicast3Route(b, noop); });
  Headers headers{{"type", "order"}, {"amount", 500}};
  EXPECT_EQ(allocationsPerSend(h, "direct:multicast", &headers), 0u);
}

TEST(ZeroAllocationTest, TypicalRouteOfBuiltinSteps) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) {
    bench::typicalRoute(b);  // the benchmark's route, with more built-in steps after it
    b.from("direct:next")
        .removeHeaders("Internal*")
        .setProperty("seen", header("priority"))
        .process(noop);
  });
  Headers headers{{"type", "order"}, {"amount", 1500}, {"region", "EU"}, {"InternalId", 7}};
  EXPECT_EQ(allocationsPerSend(h, "direct:typical", &headers), 0u);
}

// Camel's scenario e, both branches of its choice.
TEST(ZeroAllocationTest, CamelScenarioE) {
  RouteHarness h;
  auto noop = std::make_shared<NoOp>();
  h.start([&](RouteBuilder& b) {
    bench::camelERoute(b);
    b.from("direct:sink").process(noop);
  });
  Headers gold{{"foo", "bar"}, {"kind", "gold"}};
  EXPECT_EQ(allocationsPerSend(h, "direct:camel-e", &gold), 0u);
  Headers silver{{"foo", "bar"}, {"kind", "silver"}};
  EXPECT_EQ(allocationsPerSend(h, "direct:camel-e", &silver), 0u);
}

// A template longer than a string's inline size, set as a header: rendered into a buffer that
// trades places with the header's own, so neither allocates once warm.
TEST(ZeroAllocationTest, SetHeaderFromALongTemplate) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:long")
        .setHeader("tier", simple("premium customer of kind ${header.kind}, order ${body}"))
        .setProperty("seen", simple("seen ${header.tier} at the gateway of region ${header.kind}"));
  });
  Headers gold{{"foo", "bar"}, {"kind", "gold"}};
  EXPECT_EQ(allocationsPerSend(h, "direct:long", &gold), 0u);
}

}  // namespace
}  // namespace dromedary

namespace dromedary {
namespace {

// The Simple scenarios evaluate without allocating once warm (the scratch keeps capacity).
uint64_t allocationsPerEvaluation(const bench::SimpleCase& c, bool map_body) {
  Context context;
  ExchangePtr ex = acquireExchange(&context);
  bench::fillSimpleMessage(*ex, map_body);
  Language* simple = context.language("simple");
  std::unique_ptr<Predicate> predicate;
  std::unique_ptr<Expression> expression;
  if (c.predicate) {
    predicate = std::move(simple->createPredicate(c.text, context).value());
  } else {
    expression = std::move(simple->createExpression(c.text, context).value());
  }
  Value scratch;
  auto once = [&] {
    bool ok = predicate ? predicate->matches(*ex) : expression->evaluate(*ex, scratch) != nullptr;
    EXPECT_TRUE(ok) << c.text;
  };
  for (int i = 0; i < 100; ++i) once();
  testing::AllocationScope scope;
  for (int i = 0; i < 1000; ++i) once();
  return scope.allocations();
}

TEST(ZeroAllocationTest, SimplePredicateOnHeaders) {
  EXPECT_EQ(allocationsPerEvaluation(bench::kSimplePredicate, false), 0u);
}

TEST(ZeroAllocationTest, SimpleTemplate) {
  EXPECT_EQ(allocationsPerEvaluation(bench::kSimpleTemplate, false), 0u);
}

TEST(ZeroAllocationTest, SimpleOgnlOnMapBody) {
  EXPECT_EQ(allocationsPerEvaluation(bench::kSimpleOgnl, true), 0u);
}

TEST(ZeroAllocationTest, SimpleNumericComparison) {
  EXPECT_EQ(allocationsPerEvaluation(bench::kSimpleNumeric, false), 0u);
}

TEST(ZeroAllocationTest, SimpleDate) {
  EXPECT_EQ(allocationsPerEvaluation(bench::kSimpleDate, false), 0u);
}

}  // namespace
}  // namespace dromedary

#include <dromedary/engine/virtual_scheduler.h>

namespace dromedary {
namespace {

// A timer -> log route allocates nothing per message once warm (virtual time: deterministic).
TEST(ZeroAllocationTest, TimerToLog) {
  auto clock = std::make_shared<VirtualScheduler>();
  testing::RouteHarness h;
  h.context.setScheduler(clock);
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=1&delay=0&includeMetadata=true").routeId("r")
        .setHeader("n", simple("${exchangeProperty.CamelTimerCounter}"))
        .to("log:t?level=DEBUG");
  });
  clock->advance(std::chrono::milliseconds(200));  // warm-up
  testing::AllocationScope scope;
  clock->advance(std::chrono::milliseconds(1000));
  EXPECT_EQ(scope.allocations(), 0u);
  ASSERT_TRUE(h.context.stopRoute("r"));
}

}  // namespace
}  // namespace dromedary
