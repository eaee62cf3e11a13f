// SPDX-License-Identifier: Apache-2.0
// The kamelet component's three endpoint forms, as the route loader writes them after it made
// a Kamelet's instance (the loader's own tests are in tests/dsl/kamelet_test.cc).
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(KameletComponentTest, AUseCallsItsInstanceAndGetsTheExchangeBack) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("kamelet:source?routeId=upper-1").setBody(simple("${body.toUpperCase()}"));
    b.from("direct:in").to("kamelet:upper/upper-1").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "hi"));
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:out").receivedBodies()[0].toString(), "HI");
}

TEST(KameletComponentTest, ASourceInstanceFeedsTheRouteThatUsesIt) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:tick").setBody(constant("tock")).to("kamelet:sink?routeId=ticker-1");
    b.from("kamelet:ticker/ticker-1").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:tick", "x"));
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:out").receivedBodies()[0].toString(), "tock");
}

TEST(KameletComponentTest, AUriTheLoaderDidNotMakeIsRefusedSayingWhere) {
  RouteHarness h;
  auto sent = h.producer.sendBody("kamelet:log-sink", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("Kamelets are instantiated when route files are loaded"),
            std::string::npos)
      << sent.error().message;
}

TEST(KameletComponentTest, SourceWithoutARouteIdIsRefused) {
  RouteHarness h;
  auto sent = h.producer.sendBody("kamelet:source", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("used outside a Kamelet"), std::string::npos)
      << sent.error().message;
}

}  // namespace
}  // namespace dromedary
