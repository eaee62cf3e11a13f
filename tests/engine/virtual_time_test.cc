// SPDX-License-Identifier: Apache-2.0
// Virtual time: a context on a VirtualScheduler runs timers and delays when the test
// advances the clock, on the test's thread, deterministically. No sleeps in these tests.
#include <fmt/format.h>

#include <limits>

#include <dromedary/engine/virtual_scheduler.h>

#include "support/virtual_time_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

class VirtualTimeTest : public ::testing::Test {
 protected:
  size_t received(std::string_view uri) { return h.mock(uri).receivedExchanges().size(); }

  VirtualTimeHarness harness;
  std::shared_ptr<VirtualScheduler>& clock = harness.clock;
  RouteHarness& h = harness.routes;
};

TEST_F(VirtualTimeTest, AnHourOfTimerFiresInAnInstant) {
  h.start([](RouteBuilder& b) { b.from("timer:t?period=1m&delay=1m").to("mock:out"); });
  clock->advance(1h);
  EXPECT_EQ(received("mock:out"), 60u);
  clock->advance(30s);
  EXPECT_EQ(received("mock:out"), 60u);
  clock->advance(30s);
  EXPECT_EQ(received("mock:out"), 61u);
}

TEST_F(VirtualTimeTest, RepeatCountStopsTheTimer) {
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=10s&delay=0&repeatCount=3").to("mock:out");
  });
  clock->advance(1h);
  EXPECT_EQ(received("mock:out"), 3u);
  EXPECT_EQ(clock->pending(), 0u);
}

TEST_F(VirtualTimeTest, TimerMetadataUsesTheVirtualClock) {
  h.start([](RouteBuilder& b) {
    b.from("timer:meta?period=1s&delay=1s&includeMetadata=true").to("mock:out");
  });
  clock->advance(2s);
  ASSERT_EQ(received("mock:out"), 2u);
  const Exchange& second = *h.mock("mock:out").receivedExchanges()[1];
  EXPECT_EQ(*second.getProperty("CamelTimerCounter"), Value(int64_t{2}));
  EXPECT_EQ(*second.getProperty("CamelTimerFiredTime"), Value(clock->epochMillis()));
}

TEST_F(VirtualTimeTest, DelayParksTheExchangeUntilItsTime) {
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=1h&delay=0&repeatCount=1").delay(10s).to("mock:out");
  });
  clock->advance(9s);
  EXPECT_EQ(received("mock:out"), 0u);
  EXPECT_EQ(h.context.inflight(), 1u) << "parked, not lost";
  clock->advance(1s);
  EXPECT_EQ(received("mock:out"), 1u);
  EXPECT_EQ(h.context.inflight(), 0u);
}

// 9,999,999,999,999 ms and Long.MAX_VALUE overflowed the clock and fired at once; they now
// wait as long as the scheduler waits at most (a century), which is to say they wait.
TEST_F(VirtualTimeTest, ADelayTooLongForTheClockWaitsRatherThanFiringAtOnce) {
  h.context.setShutdownTimeout(1ms);  // the harness stops the context with these parked
  h.start([](RouteBuilder& b) {
    b.from("timer:a?delay=0&repeatCount=1").delay(constant(int64_t{9999999999999}))
        .to("mock:out");
    b.from("timer:b?delay=0&repeatCount=1")
        .delay(constant(std::numeric_limits<int64_t>::max()))
        .to("mock:out");
  });
  clock->advance(2h);
  EXPECT_EQ(received("mock:out"), 0u);
  EXPECT_EQ(h.context.inflight(), 2u) << "parked, not lost";
}

TEST(SchedulerTest, ADelayIsClampedToACentury) {
  VirtualScheduler clock;
  bool ran = false;
  auto task = Scheduler::Task{[](void* arg) noexcept { *static_cast<bool*>(arg) = true; }, &ran};
  ASSERT_NE(clock.scheduleAfterMillis(std::numeric_limits<int64_t>::max(), task), 0u);
  clock.advance(std::chrono::hours(24 * 365));
  EXPECT_FALSE(ran);
  clock.advance(std::chrono::milliseconds(Scheduler::kMaxDelayMillis));
  EXPECT_TRUE(ran);
}

TEST_F(VirtualTimeTest, DelayedExchangesHoldNoThread) {
  // Twenty timers fire at once and each exchange is delayed an hour: twenty exchanges wait,
  // all started on this one test thread, none of them holding it.
  h.start([](RouteBuilder& b) {
    for (int i = 0; i < 20; ++i) {
      b.from(fmt::format("timer:t{}?period=2h&delay=0", i)).delay(1h).to("mock:out");
    }
  });
  clock->advance(1ms);
  EXPECT_EQ(h.context.inflight(), 20u);
  EXPECT_EQ(received("mock:out"), 0u);
  clock->advance(1h);
  EXPECT_EQ(received("mock:out"), 20u);
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST_F(VirtualTimeTest, DelayFromAnExpression) {
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=1h&delay=0&repeatCount=1")
        .setHeader("wait", constant(Value(int64_t{2500})))
        .delay(simple("${header.wait}"))
        .to("mock:out");
  });
  clock->advance(2499ms);
  EXPECT_EQ(received("mock:out"), 0u);
  clock->advance(1ms);
  EXPECT_EQ(received("mock:out"), 1u);
}

TEST_F(VirtualTimeTest, TimerWithoutFixedRateWaitsAPeriodAfterEachExchange) {
  // Each exchange takes 3 s (a delay); period 2 s: fires at 0, 5, 10 ... (2 s after each end).
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=2s&delay=0").delay(3s).to("mock:out");
  });
  clock->advance(10s);
  EXPECT_EQ(received("mock:out"), 2u);  // ended at 3 s and 8 s; the third ends at 13 s
}

TEST_F(VirtualTimeTest, StoppedTimerFiresNoMore) {
  h.start([](RouteBuilder& b) { b.from("timer:t?period=1s&delay=0").routeId("r").to("mock:out"); });
  clock->advance(2s);
  EXPECT_EQ(received("mock:out"), 3u);
  ASSERT_TRUE(h.context.stopRoute("r"));
  clock->advance(1h);
  EXPECT_EQ(received("mock:out"), 3u);
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

TEST_F(VirtualTimeTest, SchedulerComponentWithCamelsDefaults) {
  h.start([](RouteBuilder& b) { b.from("scheduler:poll").to("mock:out"); });
  clock->advance(999ms);
  EXPECT_EQ(received("mock:out"), 0u) << "initialDelay 1000";
  clock->advance(1ms);
  EXPECT_EQ(received("mock:out"), 1u);
  clock->advance(1s);
  EXPECT_EQ(received("mock:out"), 3u) << "then every delay (500)";
}

TEST_F(VirtualTimeTest, SuspendedRouteTakesNoWorkAndResumes) {
  h.start([](RouteBuilder& b) {
    b.from("timer:t?period=1s&delay=0").routeId("r").to("mock:out");
  });
  clock->advance(1s);
  EXPECT_EQ(received("mock:out"), 2u);
  ASSERT_TRUE(h.context.suspendRoute("r"));
  EXPECT_EQ(h.context.routeStatus("r"), RouteStatus::Suspended);
  clock->advance(10s);
  EXPECT_EQ(received("mock:out"), 2u);
  ASSERT_TRUE(h.context.resumeRoute("r"));
  EXPECT_EQ(h.context.routeStatus("r"), RouteStatus::Started);
  clock->advance(2s);
  EXPECT_GE(received("mock:out"), 3u);
}

TEST_F(VirtualTimeTest, ResumingARouteThatIsNotSuspendedSaysWhy) {
  h.start([](RouteBuilder& b) { b.from("timer:t?period=1s").routeId("r").to("mock:out"); });
  auto resumed = h.context.resumeRoute("r");
  ASSERT_FALSE(resumed);
  EXPECT_EQ(resumed.error().message, "route 'r' is not suspended (it is started)");
}

}  // namespace
}  // namespace dromedary::testing
