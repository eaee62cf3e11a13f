// SPDX-License-Identifier: Apache-2.0
// multicast, pipeline, recipientList, routingSlip, dynamicRouter, wireTap and loop.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/log_capture.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

std::vector<std::string> bodies(component::mock::MockEndpoint& mock) {
  std::vector<std::string> out;
  for (const auto& ex : mock.receivedExchanges()) out.push_back(ex->message().body().as<std::string>());
  return out;
}

TEST(MulticastTest, EveryBranchGetsACopyOfTheInput) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").multicast().to("direct:a").to("direct:b").end().to("mock:after");
    b.from("direct:a").setBody(simple("${body}-a")).to("mock:a");
    b.from("direct:b").to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies(h.mock("mock:a")), (std::vector<std::string>{"x-a"}));
  EXPECT_EQ(bodies(h.mock("mock:b")), (std::vector<std::string>{"x"}));
  auto b = h.mock("mock:b").receivedExchanges();
  EXPECT_EQ(*b[0]->getProperty("CamelMulticastIndex"), Value(1));
  EXPECT_EQ(*b[0]->getProperty("CamelMulticastComplete"), Value(true));
}

TEST(MulticastTest, TheLastBranchsResultGoesOnByDefault) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").multicast().setBody(constant("one")).setBody(constant("two")).end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"two"}));
}

TEST(MulticastTest, APipelineIsOneBranch) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .multicast(AggregationStrategies::groupedBody())
        .pipeline().setBody(simple("${body}1")).setBody(simple("${body}2")).end()
        .setBody(simple("${body}3"))
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(),
            Value(ValueList{"x12", "x3"}));
}

TEST(MulticastTest, ParallelBranchesAllRun) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .multicast(AggregationStrategies::groupedBody())
        .parallelProcessing()
        .setBody(constant("a")).setBody(constant("b")).setBody(constant("c"))
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(),
            Value(ValueList{"a", "b", "c"}));
}

TEST(MulticastTest, StopOnExceptionSkipsLaterBranches) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .multicast()
        .stopOnException()
        .to("mock:a")
        .process([](Exchange&) { throw std::runtime_error("branch failed"); })
        .to("mock:c")
        .end();
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:c").receivedCount(), 0u);
}

TEST(RecipientListTest, SendsACopyToEachEndpointNamed) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").recipientList(header("to")).to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "to", "mock:a, mock:b"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 1u);
  EXPECT_EQ(*h.mock("mock:b").receivedExchanges()[0]->getProperty("CamelRecipientListEndpoint"),
            Value("mock:b"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(RecipientListTest, TakesAListAndACustomDelimiter) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:list").recipientList(header("to"));
    b.from("direct:semi").recipientList(header("to"), ";");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:list", "x", "to", Value(ValueList{"mock:a", "mock:b"})));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:semi", "x", "to", "mock:a;mock:b"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 2u);
}

TEST(RecipientListTest, AnInvalidEndpointFailsUnlessIgnored) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:strict").errorHandler(noErrorHandler()).recipientList(header("to"));
    b.from("direct:lenient").recipientList(header("to")).ignoreInvalidEndpoints();
  });
  auto sent = h.producer.sendBodyAndHeader("direct:strict", "x", "to", "mock:a,nope:x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("nope"), std::string::npos);
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 0u);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:lenient", "x", "to", "mock:a,nope:x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 1u);
}

TEST(RoutingSlipTest, TheExchangeGoesThroughEachInTurn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routingSlip(header("slip")).to("mock:after");
    b.from("direct:a").setBody(simple("${body}a"));
    b.from("direct:b").setBody(simple("${body}b"));
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "slip", "direct:a,direct:b,mock:end"));
  EXPECT_EQ(bodies(h.mock("mock:end")), (std::vector<std::string>{"xab"}));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"xab"}));
}

TEST(RoutingSlipTest, AnUnresolvableEndpointFailsUnlessIgnored) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:strict").errorHandler(noErrorHandler()).routingSlip(header("slip"));
    b.from("direct:lenient").routingSlip(header("slip")).ignoreInvalidEndpoints();
  });
  auto sent = h.producer.sendBodyAndHeader("direct:strict", "x", "slip", "nope:x,mock:end");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("Cannot resolve endpoint"), std::string::npos);
  EXPECT_EQ(h.mock("mock:end").receivedCount(), 0u);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:lenient", "x", "slip", "nope:x,mock:end"));
  EXPECT_EQ(h.mock("mock:end").receivedCount(), 1u);
}

TEST(DynamicRouterTest, AsksAgainAfterEachEndpointUntilNull) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .dynamicRouter(expression([](const Exchange& ex) -> Value {
          const Value* last = ex.getProperty("CamelSlipEndpoint");
          if (!last) return Value("direct:a");
          if (*last == Value("direct:a")) return Value("mock:b");
          return Value();
        }))
        .to("mock:after");
    b.from("direct:a").setBody(simple("${body}a"));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies(h.mock("mock:b")), (std::vector<std::string>{"xa"}));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"xa"}));
}

TEST(WireTapTest, SendsACopyAndGoesOnAtOnce) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").wireTap("mock:tap").setBody(constant("after")).to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto& tap = h.mock("mock:tap");
  for (int i = 0; i < 500 && tap.receivedCount() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(bodies(tap), (std::vector<std::string>{"x"}));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"after"}));
}

TEST(WireTapTest, ADynamicUriIsASimpleTemplate) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").wireTap("mock:${header.to}"); });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "to", "t1"));
  auto& tap = h.mock("mock:t1");
  for (int i = 0; i < 500 && tap.receivedCount() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(tap.receivedCount(), 1u);
}

TEST(WireTapTest, AFailedTapIsLoggedAndTheExchangeGoesOn) {
  testing::LogCapture logs;
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").wireTap("direct:broken?block=false").to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  for (int i = 0; i < 500 && logs.find(LoggingLevel::Warn, "Wire tap to").empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  auto warned = logs.find(LoggingLevel::Warn, "Wire tap to direct:broken?block=false failed: No "
                                              "consumers available");
  EXPECT_EQ(warned.size(), 1u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(LoopTest, RunsItsStepsCountTimesOnTheSameExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loop(3).setBody(simple("${body}+")).to("mock:iter").end().to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies(h.mock("mock:iter")), (std::vector<std::string>{"x+", "x++", "x+++"}));
  auto got = h.mock("mock:iter").receivedExchanges();
  EXPECT_EQ(*got[2]->getProperty("CamelLoopIndex"), Value(2));
  EXPECT_EQ(*got[2]->getProperty("CamelLoopSize"), Value(3));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"x+++"}));
}

TEST(LoopTest, CopyStartsEachIterationFromTheInput) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loop(3).copy().setBody(simple("${body}+")).to("mock:iter").end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies(h.mock("mock:iter")), (std::vector<std::string>{"x+", "x+", "x+"}));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"x+"}));
}

TEST(LoopTest, DoWhileLoopsWhileThePredicateHolds) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loopDoWhile(simple("${body} != 'abxxx'")).setBody(simple("${body}x")).end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "ab"));
  EXPECT_EQ(bodies(h.mock("mock:after")), (std::vector<std::string>{"abxxx"}));
}

TEST(LoopTest, NestedLoopsCountSeparately) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loop(2).loop(3).to("mock:inner").end().to("mock:outer").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:inner").receivedCount(), 6u);
  EXPECT_EQ(h.mock("mock:outer").receivedCount(), 2u);
}

TEST(LoopTest, ABadCountFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").errorHandler(noErrorHandler()).loop(header("n")).to("mock:iter").end();
  });
  auto sent = h.producer.sendBodyAndHeader("direct:in", "x", "n", "many");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("loop count"), std::string::npos);
}

TEST(FanOutDslTest, OptionsWithoutTheirStepAreReported) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").to("mock:a").parallelProcessing();
  });
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("parallelProcessing() needs a split, multicast or "
                                       "recipientList before it"),
            std::string::npos);
}

}  // namespace
}  // namespace dromedary

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(EnrichTest, TheReplyReplacesTheMessageWithoutAStrategy) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").enrich("direct:resource").to("mock:out");
    b.from("direct:resource").setBody(simple("resource for ${body}"));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().body(), Value("resource for x"));
}

TEST(EnrichTest, TheStrategyCombinesTheExchangeAndTheReply) {
  RouteHarness h;
  auto merge = aggregationStrategy([](Exchange* original, Exchange& reply) -> Exchange* {
    original->message().setHeader("price", reply.message().body());
    return original;
  });
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").enrich(simple("direct:${header.kind}"), merge).to("mock:out");
    b.from("direct:prices").setBody(constant(42));
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "order", "kind", "prices"));
  auto got = h.mock("mock:out").receivedExchanges();
  EXPECT_EQ(got[0]->message().body(), Value("order"));
  EXPECT_EQ(*got[0]->message().getHeader("price"), Value(42));
}

// A grouping strategy given an exchange it did not start (enrich's own) groups it first,
// rather than assume a list or a group is already there (it crashed before).
TEST(EnrichTest, GroupingStrategiesTakeTheExchangeAsTheirFirstPart) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:resource").setBody(constant("reply"));
    b.from("direct:body")
        .enrich("direct:resource", AggregationStrategies::groupedBody())
        .to("mock:body");
    b.from("direct:exchange")
        .enrich("direct:resource", AggregationStrategies::groupedExchange())
        .to("mock:exchange");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:body", "mine"));
  EXPECT_EQ(h.mock("mock:body").receivedExchanges().at(0)->message().body().toString(),
            "[\"mine\",\"reply\"]");
  ASSERT_TRUE(h.producer.sendBody("direct:exchange", "mine"));
  const auto* group =
      h.mock("mock:exchange").receivedExchanges().at(0)->message().body().getIf<GroupedExchanges>();
  ASSERT_NE(group, nullptr);
  ASSERT_EQ(group->exchanges.size(), 2u);
  EXPECT_EQ(group->exchanges[0]->message().body().as<std::string>(), "mine");
  EXPECT_EQ(group->exchanges[1]->message().body().as<std::string>(), "reply");
}

TEST(EnrichTest, AnUnresolvableUriIsSkippedWithIgnoreInvalidEndpoints) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").enrich("nope:x").ignoreInvalidEndpoints().to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().body(), Value("x"));
}

TEST(EnrichTest, AFailedReplyFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").errorHandler(noErrorHandler()).enrich("direct:broken").to("mock:out");
    b.from("direct:broken").process([](Exchange&) { throw std::runtime_error("no resource"); });
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("no resource"), std::string::npos);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
}

}  // namespace
}  // namespace dromedary
