// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

TEST(DirectComponentTest, NoConsumerFailsWithCamelsMessage) {
  RouteHarness h;
  h.start([](RouteBuilder&) {});
  auto sent = h.producer.sendBody("direct:x?block=false", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::NoConsumers);
  EXPECT_EQ(sent.error().message, "No consumers available on endpoint: direct://x");
}

TEST(DirectComponentTest, BlockingProducerGivesUpAfterTheTimeout) {
  RouteHarness h;
  h.start([](RouteBuilder&) {});
  auto begin = std::chrono::steady_clock::now();
  auto sent = h.producer.sendBody("direct:x?timeout=50", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "No consumers available on endpoint: direct://x");
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 50ms);
}

TEST(DirectComponentTest, BlockingProducerDeliversWhenAConsumerStarts) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:late").routeId("late").autoStartup(false).to("mock:out"); });
  std::thread starter([&] {
    std::this_thread::sleep_for(20ms);
    ASSERT_TRUE(h.context.startRoute("late"));
  });
  auto sent = h.producer.sendBody("direct:late?timeout=5s", "x");
  starter.join();
  EXPECT_TRUE(sent) << sent.error().message;
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

TEST(DirectComponentTest, FailIfNoConsumersFalseContinuesWithoutFailing) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("direct:gone?block=false&failIfNoConsumers=false").to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(DirectComponentTest, EndpointsWithDifferentOptionsShareTheConsumer) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:shared?timeout=1s").to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("direct:shared", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct://shared?block=false", "b"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 2u);
}

TEST(DirectComponentTest, ReplyOfAnInOutCallIsTheRoutesResult) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:svc").setBody(constant("done")); });
  auto reply = h.producer.requestBody("direct:svc", "x");
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, Value("done"));
}

}  // namespace
}  // namespace dromedary
