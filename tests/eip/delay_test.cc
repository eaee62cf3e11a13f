// SPDX-License-Identifier: Apache-2.0
// delay() in real time: the exchange arrives after the delay, the sender gets its result.
#include <thread>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

TEST(DelayTest, SenderWaitsForTheDelayedExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").delay(20ms).setBody(simple("${body}!")).to("mock:out");
  });
  h.mock("mock:out").expectedBodiesReceived({Value("a!")});
  auto begin = std::chrono::steady_clock::now();
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  // The delay really happened (a lower bound is not a timing assertion on a noisy machine).
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 20ms);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
}

TEST(DelayTest, ZeroOrNegativeDelayContinuesAtOnce) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").delay(simple("${header.d}")).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "d", Value(0)));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "d", Value(-5)));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "c"));  // null: no delay
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 3u);
}

TEST(DelayTest, NonNumericDelayFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").delay(simple("${body}")).to("mock:out"); });
  auto sent = h.producer.sendBody("direct:in", "soon");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "The delay is not a number of milliseconds");
}

TEST(DelayTest, ManySendersAtOnceAllComplete) {
  RouteHarness h;
  h.context.setWorkerThreads(1);  // one worker resumes them all: none is held by a delay
  h.start([](RouteBuilder& b) { b.from("direct:in").delay(30ms).to("mock:out"); });
  std::vector<std::thread> senders;
  for (int i = 0; i < 16; ++i) {
    senders.emplace_back([&] { EXPECT_TRUE(h.producer.sendBody("direct:in", "x")); });
  }
  for (auto& t : senders) t.join();
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 16u);
}

TEST(DelayTest, GracefulStopWaitsForDelayedExchanges) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("timer:t?period=1h&delay=0").delay(100ms).to("mock:out"); });
  while (h.context.inflight() == 0) std::this_thread::sleep_for(1ms);
  StopReport report = h.context.stop();
  EXPECT_TRUE(report.graceful);
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 1u) << "the parked exchange finished";
}

}  // namespace
}  // namespace dromedary::testing
