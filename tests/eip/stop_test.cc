// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(StopTest, EndsTheExchangeSuccessfully) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").filter(header("drop") == true).stop().end().to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "drop", true));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "drop", false));
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"b"});
  EXPECT_TRUE(mock.assertIsSatisfied());
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(StopTest, StopInACalledRouteAlsoEndsTheCaller) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("direct:inner").to("mock:after");
    b.from("direct:inner").stop();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
  EXPECT_EQ(h.context.inflight(), 0u);
}

}  // namespace
}  // namespace dromedary
