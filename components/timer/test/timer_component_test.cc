// SPDX-License-Identifier: Apache-2.0
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

TEST(TimerComponentTest, FiresRepeatCountTimes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("timer:tick?period=10&delay=0&repeatCount=3").setBody(simple("tick")).to("mock:out");
  });
  h.mock("mock:out").expectedMessageCount(3);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 3u) << "no fire after repeatCount";
}

TEST(TimerComponentTest, IncludeMetadataSetsCamelsProperties) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("timer:meta?period=10&delay=0&repeatCount=2&includeMetadata=true")
        .setBody(simple("${exchangeProperty.CamelTimerName} #${exchangeProperty.CamelTimerCounter}"))
        .to("mock:out");
  });
  h.mock("mock:out").expectedBodiesReceived({Value("meta #1"), Value("meta #2")});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  const Exchange& first = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(*first.getProperty("CamelTimerPeriod"), Value(int64_t{10}));
  EXPECT_NE(first.message().getHeader("CamelMessageTimestamp"), nullptr);
  ASSERT_NE(first.message().getHeader("CamelTimerFiredTime"), nullptr);
  EXPECT_EQ(*first.message().getHeader("CamelTimerFiredTime"), *first.getProperty("CamelTimerFiredTime"));
}

TEST(TimerComponentTest, WithoutMetadataNoPropertiesAreSet) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("timer:bare?period=10&delay=0&repeatCount=1").to("mock:out");
  });
  h.mock("mock:out").expectedMessageCount(1);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().at(0)->getProperty("CamelTimerCounter"),
            nullptr);
}

TEST(TimerComponentTest, StopsFiringWhenTheContextStops) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("timer:t?period=5&delay=0").to("mock:out"); });
  h.mock("mock:out").expectedMinimumMessageCount(2);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  h.context.stop();
  size_t after_stop = h.mock("mock:out").receivedExchanges().size();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), after_stop);
}

TEST(TimerComponentTest, CannotBeSentTo) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) { b.from("direct:in").routeId("r").to("timer:x"); }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "the timer component only consumes: cannot send to 'timer://x' (in route 'r', step "
            "to[timer:x])");
}

TEST(TimerComponentTest, NeedsAName) {
  RouteHarness h;
  auto e = h.context.endpoint("timer:");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "a timer needs a name: timer:name, not 'timer:'");
}

TEST(TimerComponentTest, SchedulerNeedsAPositiveDelay) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("scheduler:s?delay=0").routeId("r");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "delay must be positive for 'scheduler://s?delay=0' (or repeatCount=1) "
            "(starting route 'r')");
}

TEST(TimerComponentTest, SchedulerCannotBeSentTo) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").to("scheduler:x");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "the scheduler component only consumes: cannot send to 'scheduler://x' (in route "
            "'r', step to[scheduler:x])");
}

}  // namespace
}  // namespace dromedary::testing
