// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(ToDynamicTest, SendsToTheUriComputedPerExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").toD(expression([](const Exchange& ex) {
      return Value{"mock:" + ex.message().getHeader("target")->as<std::string>()};
    }));
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "target", "one"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "target", "two"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "c", "target", "one"));
  EXPECT_EQ(h.mock("mock:one").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:two").receivedCount(), 1u);
}

TEST(ToDynamicTest, ReachesDirectRoutes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").toD(header("next")).to("mock:after");
    b.from("direct:step").setHeader("visited", constant(true));
  });
  auto& mock = h.mock("mock:after");
  mock.expectedHeaderReceived("visited", true);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "next", "direct:step"));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(ToDynamicTest, UnresolvableUriFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").toD(header("next")); });
  auto sent = h.producer.sendBodyAndHeader("direct:in", "x", "next", "nosuch:thing");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "Cannot resolve endpoint: unknown component 'nosuch' in endpoint 'nosuch:thing'; "
            "known components: activemq, amqp, bean, cron, direct, file, http, https, jms, kafka, kamelet, log, master, mock, platform-http, rest, scheduler, seda, sjms, sjms2, sql, stream, timer");
}

}  // namespace
}  // namespace dromedary

namespace dromedary::testing {
namespace {

TEST(ToDynamicSimpleTest, TextUriIsASimpleTemplate) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").toD("mock:${header.region}");
  });
  h.mock("mock:eu").expectedBodiesReceived({Value("a")});
  h.mock("mock:us").expectedBodiesReceived({Value("b")});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("a"), "region", Value("eu")));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("b"), "region", Value("us")));
  EXPECT_TRUE(h.mock("mock:eu").assertIsSatisfied());
  EXPECT_TRUE(h.mock("mock:us").assertIsSatisfied());
}

}  // namespace
}  // namespace dromedary::testing
