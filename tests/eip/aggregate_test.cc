// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"
#include "support/virtual_time_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;
using testing::VirtualTimeHarness;

std::vector<Value> bodies(component::mock::MockEndpoint& mock) {
  std::vector<Value> out;
  for (const auto& ex : mock.receivedExchanges()) out.push_back(ex->message().body());
  return out;
}

TEST(AggregateTest, CompletesBySizePerCorrelationKey) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionSize(2)
        .to("mock:out")
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b1", "id", "b"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a2", "id", "a"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"a1", "a2"}));
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedSize"), Value(2));
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedCompletedBy"), Value("size"));
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedCorrelationKey"), Value("a"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 3u);  // every incoming exchange goes on
}

TEST(AggregateTest, CompletesByPredicateOnTheAggregate) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(constant("all"), AggregationStrategies::string("+"))
        .completionPredicate(simple("${body} contains 'end'"))
        .to("mock:out")
        .end();
  });
  for (const char* body : {"a", "b", "end"}) ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  EXPECT_EQ(bodies(h.mock("mock:out")), (std::vector<Value>{Value("a+b+end")}));
}

TEST(AggregateTest, EagerCompletionSeesTheIncomingExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(constant("all"), AggregationStrategies::string("+"))
        .completionPredicate(simple("${body} == 'stop'"))
        .eagerCheckCompletion()
        .to("mock:out")
        .end();
  });
  for (const char* body : {"a", "stop"}) ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  EXPECT_EQ(bodies(h.mock("mock:out")), (std::vector<Value>{Value("a+stop")}));
}

TEST(AggregateTest, CompletesByTimeoutAfterInactivity) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionTimeout(std::chrono::seconds(5))
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  t.clock->advance(std::chrono::seconds(3));
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "a2", "id", "a"));
  t.clock->advance(std::chrono::seconds(4));  // 4 s since the last one: not yet
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 0u);
  t.clock->advance(std::chrono::seconds(2));
  auto got = t.routes.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"a1", "a2"}));
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedCompletedBy"), Value("timeout"));
}

TEST(AggregateTest, DiscardOnCompletionTimeoutDropsTheGroup) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionSize(3)
        .completionTimeout(std::chrono::seconds(1))
        .discardOnCompletionTimeout()
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  t.clock->advance(std::chrono::seconds(3));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 0u);
}

TEST(AggregateTest, CompletesEveryGroupAtTheInterval) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionInterval(std::chrono::seconds(10))
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "b1", "id", "b"));
  t.clock->advance(std::chrono::seconds(9));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 0u);
  t.clock->advance(std::chrono::seconds(1));
  auto got = t.routes.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedCompletedBy"), Value("interval"));
}

TEST(AggregateTest, CompletesFromABatchConsumer) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(constant("batch"), AggregationStrategies::groupedBody())
        .completionFromBatchConsumer()
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "1"));
  Exchange ex(&h.context);
  ex.message().setBody("2");
  ex.setProperty("CamelBatchComplete", true);
  ASSERT_TRUE(h.producer.send("direct:in", ex));
  EXPECT_EQ(bodies(h.mock("mock:out")), (std::vector<Value>{Value(ValueList{"1", "2"})}));
}

TEST(AggregateTest, ForcedCompletionOnStop) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionSize(10)
        .forceCompletionOnStop()
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  auto& out = h.mock("mock:out");
  h.context.stop();
  auto got = out.receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(*got[0]->getProperty("CamelAggregatedCompletedBy"), Value("force"));
}

TEST(AggregateTest, AClosedKeyRejectsLateExchanges) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionSize(1)
        .closeCorrelationKeyOnCompletion(100)
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  auto late = h.producer.sendBodyAndHeader("direct:in", "a2", "id", "a");
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("The correlation key [a] has been closed"),
            std::string::npos);
}

TEST(AggregateTest, AMissingCorrelationKeyFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .aggregate(header("id"), AggregationStrategies::groupedBody())
        .completionSize(2)
        .to("mock:out")
        .end();
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("Invalid correlation key"), std::string::npos);
}

TEST(AggregateTest, NeedsACompletionAndAStrategy) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").aggregate(header("id"), AggregationStrategies::useLatest()).end();
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("aggregate needs a completion"), std::string::npos);
}

TEST(AggregateTest, AnUnboundRepositoryNameFailsTheStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("id"), AggregationStrategies::useLatest())
        .completionSize(2)
        .aggregationRepositoryRef("missing")
        .end();
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("no aggregation repository bound as 'missing'"),
            std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary
