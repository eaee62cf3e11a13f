// SPDX-License-Identifier: Apache-2.0
// pollEnrich: a message polled from a seda queue folded into the exchange; timeouts, dynamic
// URIs, endpoints that cannot be polled, and a poll with no bound giving way to shutdown.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

Value bodyAt(component::mock::MockEndpoint& mock, size_t i) {
  return mock.receivedExchanges().at(i)->message().body();
}

TEST(PollEnrichTest, ThePolledMessageReplacesTheMessageWithoutAStrategy) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").pollEnrich("seda:resource", 1000).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("seda:resource", "data", "from", "resource"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "kept", "no"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value("data"));
  EXPECT_EQ(*got[0]->message().getHeader("from"), Value("resource"));
  EXPECT_EQ(got[0]->message().getHeader("kept"), nullptr);
}

// Camel 4's poll: the polled message replaces the exchange's, from a static or Simple URI;
// variableReceive keeps the message and puts the polled body in the variable.
TEST(PollEnrichTest, PollTakesTheMessageAndVariableReceiveKeepsTheExchangesOwn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").poll("seda:${header.queue}", 1000).to("mock:out");
    b.from("direct:var").poll("seda:q2", 1000).variableReceive("got").to("mock:var");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:q1", "polled"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "queue", "q1"));
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 0), Value("polled"));
  ASSERT_TRUE(h.producer.sendBody("seda:q2", "into the variable"));
  ASSERT_TRUE(h.producer.sendBody("direct:var", "kept"));
  auto got = h.mock("mock:var").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value("kept"));
  ASSERT_NE(got[0]->getVariable("got"), nullptr);
  EXPECT_EQ(*got[0]->getVariable("got"), Value("into the variable"));
}

TEST(PollEnrichTest, NothingToPollGivesANullBodyAndKeepsTheHeaders) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").pollEnrich("seda:empty", 0).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "kept", "yes"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0]->message().body().isNull());
  EXPECT_EQ(*got[0]->message().getHeader("kept"), Value("yes"));
}

TEST(PollEnrichTest, ATimeoutWaitsForAMessageThatComesWithinIt) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").pollEnrich("seda:soon", 10000).to("mock:out"); });
  std::thread soon([&] {
    std::this_thread::sleep_for(50ms);
    (void)h.producer.sendBody("seda:soon", "soon");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  soon.join();
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 0), Value("soon"));
}

TEST(PollEnrichTest, WithoutATimeoutItWaitsForAMessageThatComesLater) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").pollEnrich("seda:later").to("mock:out"); });
  std::thread late([&] {
    std::this_thread::sleep_for(50ms);
    (void)h.producer.sendBody("seda:later", "late");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  late.join();
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 0), Value("late"));
}

class MergeStrategy final : public AggregationStrategy {
 public:
  Exchange* aggregate(Exchange* original, Exchange& polled) override {
    original->message().setBody(original->message().body().as<std::string>() + ":" +
                                polled.message().body().as<std::string>());
    return original;
  }
  void noResource(Exchange& original) override { original.message().setHeader("polled", false); }
};

TEST(PollEnrichTest, TheStrategyCombinesAndHearsWhenNothingCame) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").pollEnrich("seda:resource", 0, std::make_shared<MergeStrategy>()).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:resource", "data"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "order"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "order"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->message().body(), Value("order:data"));
  EXPECT_EQ(got[1]->message().body(), Value("order"));
  EXPECT_EQ(*got[1]->message().getHeader("polled"), Value(false));
}

TEST(PollEnrichTest, ADynamicUriPollsTheQueueTheExchangeNames) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").pollEnrich(simple("seda:${header.queue}"), 0).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:a", "from a"));
  ASSERT_TRUE(h.producer.sendBody("seda:b", "from b"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "queue", "b"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "queue", "a"));
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 0), Value("from b"));
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 1), Value("from a"));
}

TEST(PollEnrichTest, AnEndpointThatCannotBePolledFailsTheRouteAtStart) {
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("enricher").pollEnrich("mock:nothing", 0);
  }));
  auto started = context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("endpoint 'mock://nothing' cannot be polled (the mock "
                                         "component has no polling consumer)"),
            std::string::npos)
      << started.error().toString();
}

TEST(PollEnrichTest, ADynamicUriThatCannotBePolledFailsTheExchangeOrIsSkipped) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:strict").errorHandler(noErrorHandler()).pollEnrich(header("uri"), 0).to("mock:strict");
    b.from("direct:lenient").pollEnrich(header("uri"), 0).ignoreInvalidEndpoints().to("mock:lenient");
  });
  auto sent = h.producer.sendBodyAndHeader("direct:strict", "x", "uri", "direct:nope");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("Cannot poll endpoint"), std::string::npos);
  EXPECT_NE(sent.error().message.find("'direct://nope' cannot be polled"), std::string::npos)
      << sent.error().message;
  EXPECT_EQ(h.mock("mock:strict").receivedCount(), 0u);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:lenient", "x", "uri", "unknown:x"));
  EXPECT_EQ(bodyAt(h.mock("mock:lenient"), 0), Value("x"));
}

TEST(PollEnrichTest, AProducerWaitingForItsMessageIsAnsweredWhenItIsPolled) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").pollEnrich("seda:requests", 2000).to("mock:out"); });
  auto request = std::async(std::launch::async, [&] {
    return h.producer.requestBody("seda:requests?timeout=5000", "question");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto reply = request.get();
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, Value("question"));
  EXPECT_EQ(bodyAt(h.mock("mock:out"), 0), Value("question"));
}

TEST(PollEnrichTest, APollWithoutATimeoutGivesWayWhenTheContextStops) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("seda:start").pollEnrich("seda:never").to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("seda:start", "x"));
  std::this_thread::sleep_for(100ms);  // the consumer is now waiting in the poll
  StopReport report = h.context.stop();  // would time out (5 s) if the poll held on
  EXPECT_TRUE(report.graceful);
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_TRUE(bodyAt(h.mock("mock:out"), 0).isNull());
}

}  // namespace
}  // namespace dromedary
