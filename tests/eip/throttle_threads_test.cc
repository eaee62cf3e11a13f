// SPDX-License-Identifier: Apache-2.0
// throttle() on a virtual clock (counts, never timings) and threads() in real time.
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include <dromedary/engine/virtual_scheduler.h>

#include "support/virtual_time_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

class ThrottleTest : public ::testing::Test {
 protected:
  // `count` timers that each fire once, at 0, into direct:throttled.
  static void burst(RouteBuilder& b, int count) {
    for (int i = 0; i < count; ++i) {
      b.from(fmt::format("timer:t{}?delay=0&repeatCount=1", i)).to("direct:throttled");
    }
  }
  size_t received() { return h.mock("mock:out").receivedExchanges().size(); }

  VirtualTimeHarness harness;
  std::shared_ptr<VirtualScheduler>& clock = harness.clock;
  RouteHarness& h = harness.routes;
};

TEST_F(ThrottleTest, AtMostNPerPeriodTheRestWaitInOrder) {
  h.start([](RouteBuilder& b) {
    burst(b, 25);
    b.from("direct:throttled").throttle(10, 1s).to("mock:out");
  });
  clock->advance(1ms);
  EXPECT_EQ(received(), 10u);
  EXPECT_EQ(h.context.inflight(), 15u + 15u) << "15 parked (counted in both routes)";
  clock->advance(998ms);
  EXPECT_EQ(received(), 10u);
  clock->advance(1ms);
  EXPECT_EQ(received(), 20u);
  clock->advance(1s);
  EXPECT_EQ(received(), 25u);
}

TEST_F(ThrottleTest, RejectExecutionFailsWhatIsOverTheRate) {
  h.start([](RouteBuilder& b) {
    burst(b, 15);
    b.from("direct:throttled").throttle(10, 1s, true).to("mock:out");
  });
  clock->advance(1h);
  EXPECT_EQ(received(), 10u);
  EXPECT_EQ(h.context.inflight(), 0u) << "the rejected ones failed, none is parked";
}

TEST_F(ThrottleTest, MaximumFromAnExpression) {
  h.context.properties().set("rate", "3");
  h.start([](RouteBuilder& b) {
    burst(b, 7);
    b.from("direct:throttled").throttle(simple("{{rate}}"), 10s).to("mock:out");
  });
  clock->advance(1ms);
  EXPECT_EQ(received(), 3u);
  clock->advance(10s);
  EXPECT_EQ(received(), 6u);
  clock->advance(10s);
  EXPECT_EQ(received(), 7u);
}

TEST_F(ThrottleTest, ConcurrentRequestsLetsNInFlightAtOnce) {
  // Each exchange is delayed 10 s after the throttle: with 3 permits, the 8 timers' exchanges
  // finish in waves of 3 as permits come back.
  h.start([](RouteBuilder& b) {
    burst(b, 8);
    b.from("direct:throttled").throttleConcurrentRequests(constant(Value(3))).delay(10s)
        .to("mock:out");
  });
  clock->advance(1ms);
  EXPECT_EQ(received(), 0u);
  clock->advance(10s);
  EXPECT_EQ(received(), 3u);
  clock->advance(10s);
  EXPECT_EQ(received(), 6u);
  clock->advance(10s);
  EXPECT_EQ(received(), 8u);
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(ThrottleRealTimeTest, ConcurrentRejectionWordForWord) {
  RouteHarness h;
  h.start([&h](RouteBuilder& b) {
    b.from("direct:in").throttleConcurrentRequests(constant(Value(1)), true).to("direct:inner");
    b.from("direct:inner").process([&h](Exchange&) {
      // While this exchange holds the only permit, a second one is rejected.
      auto second = h.producer.sendBody("direct:in", "b");
      EXPECT_FALSE(second);
      if (!second) {
        EXPECT_EQ(second.error().message, "Throttled: Exceeded the concurrent throttle rate of 1");
      }
    });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "c")) << "the permit came back";
}

TEST(ThrottleRealTimeTest, RejectedMessageWordForWord) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").throttle(1, 1h, true).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  auto second = h.producer.sendBody("direct:in", "b");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().message, "Throttled: Exceeded the max throttle rate of 1 within 3600000ms");
}

TEST(ThreadsTest, TheRestOfTheRouteRunsOnThePool) {
  RouteHarness h;
  std::atomic<std::thread::id> seen{};
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").threads(2).process([&](Exchange&) { seen = std::this_thread::get_id(); })
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 1u) << "the sender got the result";
  EXPECT_NE(seen.load(), std::this_thread::get_id());
}

TEST(ThreadsTest, ManySendersShareThePool) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").threads(2).to("mock:out"); });
  std::vector<std::thread> senders;
  for (int i = 0; i < 8; ++i) {
    senders.emplace_back([&] {
      for (int j = 0; j < 100; ++j) EXPECT_TRUE(h.producer.sendBody("direct:in", "x"));
    });
  }
  for (auto& t : senders) t.join();
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 800u);
}

TEST(ThreadsTest, BadPoolSizeFailsAtStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").threads(5, 2);
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "maxPoolSize (2) must not be less than poolSize (5) (in route 'r', step threads)");
}

}  // namespace
}  // namespace dromedary::testing
