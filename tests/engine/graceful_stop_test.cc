// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/log_capture.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::LogCapture;
using testing::RouteHarness;

// Holds exchanges until released, then resumes them all.
class Gate final : public Processor {
 public:
  Status process(Exchange& ex) override {
    std::lock_guard lock(mutex_);
    held_.push_back(&ex);
    return Status::Suspend;
  }
  size_t held() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }
  void release() {
    std::vector<Exchange*> held;
    {
      std::lock_guard lock(mutex_);
      held.swap(held_);
    }
    for (Exchange* ex : held) ex->resume();
  }

 private:
  std::mutex mutex_;
  std::vector<Exchange*> held_;
};

TEST(GracefulStopTest, WaitsForInflightExchangesToComplete) {
  RouteHarness h;
  Gate gate;
  h.start([&](RouteBuilder& b) { b.from("direct:in").process(gate).to("mock:out"); });
  std::thread sender([&] { ASSERT_TRUE(h.producer.sendBody("direct:in", "x")); });
  while (gate.held() == 0) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(h.context.inflight(), 1u);

  std::thread releaser([&] {
    std::this_thread::sleep_for(50ms);
    gate.release();
  });
  StopReport report = h.context.stop();
  releaser.join();
  sender.join();
  EXPECT_TRUE(report.graceful);
  EXPECT_TRUE(report.forced.empty());
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);  // the in-flight exchange finished
}

TEST(GracefulStopTest, ReportsWhatItForcedAfterTheTimeout) {
  RouteHarness h;
  h.context.setShutdownTimeout(100ms);
  Gate gate;
  h.start([&](RouteBuilder& b) { b.from("direct:in").routeId("slow").process(gate); });
  std::thread sender([&] { (void)h.producer.sendBody("direct:in", "x"); });
  while (gate.held() == 0) std::this_thread::sleep_for(1ms);

  StopReport report = h.context.stop();
  EXPECT_FALSE(report.graceful);
  ASSERT_EQ(report.forced.size(), 1u);
  EXPECT_EQ(report.forced[0].first, "slow");
  EXPECT_EQ(report.forced[0].second, 1u);
  gate.release();  // let the sender finish
  sender.join();
}

// As Camel's DirectConsumer defers its shutdown: an exchange still in flight elsewhere reaches
// a direct: route while the context drains, instead of finding no consumer.
TEST(GracefulStopTest, DirectRoutesStayReachableWhileOthersDrain) {
  RouteHarness h;
  Gate gate;
  h.start([&](RouteBuilder& b) {
    b.from("seda:in").routeId("a").process(gate).to("direct:b");
    b.from("direct:b").routeId("b").to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:in", "x"));
  while (gate.held() == 0) std::this_thread::sleep_for(1ms);
  std::thread releaser([&] {
    std::this_thread::sleep_for(50ms);
    gate.release();
  });
  StopReport report = h.context.stop();
  releaser.join();
  EXPECT_TRUE(report.graceful);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 1u);
}

// The consumers that bring work from outside stop first: a timer fires no more once the stop
// began, while the seda: route it fed finishes what was queued.
TEST(GracefulStopTest, ATimerStopsFiringBeforeTheQueueItFedDrains) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("timer:t?period=1&delay=0").routeId("feed").to("seda:q");
    b.from("seda:q").routeId("work").delay(constant(Value(int64_t{2}))).to("mock:done");
  });
  std::this_thread::sleep_for(100ms);
  StopReport report = h.context.stop();
  EXPECT_TRUE(report.graceful) << "the queue drained within the timeout";
  auto fired = h.context.routeStatistics("feed")->exchangesTotal;
  EXPECT_EQ(h.mock("mock:done").receivedCount(), fired) << "every queued message was finished";
}

// The case that never exited: a timer feeding a seda: route slower than the timer. The timer
// stops first, the queue drains until the timeout, then what is queued is left and said.
TEST(GracefulStopTest, ASlowQueueIsLeftAtTheTimeoutAndReportedByRoute) {
  RouteHarness h;
  h.context.setShutdownTimeout(300ms);
  h.start([&](RouteBuilder& b) {
    b.from("timer:t?period=1&delay=0").routeId("feed").to("seda:q");
    b.from("seda:q").routeId("slow").delay(constant(Value(int64_t{50}))).to("mock:done");
  });
  std::this_thread::sleep_for(200ms);
  auto begin = std::chrono::steady_clock::now();
  StopReport report = h.context.stop();
  auto took = std::chrono::steady_clock::now() - begin;
  EXPECT_LT(took, 300ms + 1s) << "the stop keeps its timeout";
  EXPECT_FALSE(report.graceful);
  ASSERT_EQ(report.forced.size(), 1u);
  EXPECT_EQ(report.forced[0].first, "slow");
  ASSERT_EQ(report.abandoned.size(), 1u);
  EXPECT_EQ(report.abandoned[0].first, "slow");
  EXPECT_GT(report.abandoned[0].second, 10u);
}

// An exchange that outlasts the timeout does not hold the stop: the seda: thread on it stops
// waiting, and the exchange ends alone (a waiting request-reply producer is still answered).
TEST(GracefulStopTest, AnExchangeOutlastingTheTimeoutDoesNotHoldTheStop) {
  RouteHarness h;
  h.context.setShutdownTimeout(300ms);
  std::atomic<bool> in_route{false};
  h.start([&](RouteBuilder& b) {
    b.from("seda:q")
        .routeId("stuck")
        .process([&](Exchange&) { in_route = true; })
        .delay(constant(Value(int64_t{10000})))
        .to("mock:done");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:q", "x"));
  for (int i = 0; i < 500 && !in_route; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(in_route);
  auto begin = std::chrono::steady_clock::now();
  StopReport report = h.context.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 300ms + 2s) << "not the delay's 10 s";
  EXPECT_FALSE(report.graceful);
  ASSERT_EQ(report.forced.size(), 1u);
  EXPECT_EQ(report.forced[0].first, "stuck");
}

// Camel's shutdownRunningTask=CompleteCurrentTaskOnly: the exchange running finishes, what is
// queued is left at once.
TEST(GracefulStopTest, CompleteCurrentTaskOnlyLeavesTheQueueAtOnce) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("seda:q")
        .routeId("current-only")
        .shutdownRunningTask(ShutdownRunningTask::CompleteCurrentTaskOnly)
        .delay(constant(Value(int64_t{20})))
        .to("mock:done");
  });
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(h.producer.sendBody("seda:q", "x"));
  auto begin = std::chrono::steady_clock::now();
  StopReport report = h.context.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 500ms);
  EXPECT_TRUE(report.graceful) << "nothing in flight was cut short";
  ASSERT_EQ(report.abandoned.size(), 1u);
  EXPECT_GE(report.abandoned[0].second + h.mock("mock:done").receivedCount(), 48u);
  EXPECT_LT(h.mock("mock:done").receivedCount(), 10u);
}

// Stopping one seda: route that another route keeps feeding returns within the timeout.
TEST(GracefulStopTest, StoppingAFedSedaRouteKeepsTheTimeout) {
  RouteHarness h;
  h.context.setShutdownTimeout(200ms);
  h.start([&](RouteBuilder& b) {
    b.from("timer:t?period=1&delay=0").routeId("feed").to("seda:q");
    b.from("seda:q").routeId("slow").delay(constant(Value(int64_t{20}))).to("mock:done");
  });
  std::this_thread::sleep_for(100ms);
  LogCapture log;
  auto begin = std::chrono::steady_clock::now();
  auto stopped = h.context.stopRoute("slow");
  ASSERT_TRUE(stopped);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 200ms + 1s);
  EXPECT_FALSE(stopped->graceful);
  EXPECT_EQ(log.find(LoggingLevel::Warn, "route slow had").size(), 1u)
      << "what the timeout cut short is logged for one route as for the context";
  EXPECT_EQ(h.context.routeStatus("slow"), RouteStatus::Stopped);
  EXPECT_EQ(h.context.routeStatus("feed"), RouteStatus::Started);
}

}  // namespace
}  // namespace dromedary
