// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
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

TEST(GracefulStopTest, StopsConsumersBeforeWaiting) {
  RouteHarness h;
  Gate gate;
  h.start([&](RouteBuilder& b) { b.from("direct:in").process(gate); });
  std::thread sender([&] { (void)h.producer.sendBody("direct:in", "x"); });
  while (gate.held() == 0) std::this_thread::sleep_for(1ms);
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    h.context.stop();
    stopped = true;
  });
  // While the context drains, the route takes no new work.
  std::this_thread::sleep_for(20ms);
  auto late = h.producer.sendBody("direct:in?block=false", "late");
  EXPECT_FALSE(late);
  EXPECT_FALSE(stopped);
  gate.release();
  stopper.join();
  sender.join();
}

}  // namespace
}  // namespace dromedary
