// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(LogOptionsTest, DefaultsAreCamels) {
  RouteHarness h;
  Endpoint* e = *h.context.endpoint("log:orders");
  EXPECT_EQ(e->options().getString("level"), "INFO");
  EXPECT_TRUE(e->options().getBool("showBody"));
  EXPECT_TRUE(e->options().getBool("showBodyType"));
  EXPECT_TRUE(e->options().getBool("showExchangePattern"));
  EXPECT_FALSE(e->options().getBool("showHeaders"));
  EXPECT_EQ(e->options().getInt("maxChars"), 10000);
}

TEST(LogOptionsTest, LevelIsMatchedIgnoringCase) {
  RouteHarness h;
  EXPECT_EQ((*h.context.endpoint("log:x?level=debug"))->options().getString("level"), "DEBUG");
}

TEST(LogOptionsTest, BadLevelListsTheLevels) {
  RouteHarness h;
  auto e = h.context.endpoint("log:x?level=LOUD");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "invalid value 'LOUD' for option 'level' of endpoint 'log:x?level=LOUD': expected "
            "one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
}

TEST(LogOptionsTest, UnknownOptionSuggestsTheOneMeant) {
  RouteHarness h;
  auto e = h.context.endpoint("log:x?showHeader=true");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "unknown option 'showHeader' for endpoint 'log:x?showHeader=true'; did you mean "
            "'showHeaders'?");
}

TEST(LogOptionsTest, LogCannotStartARoute) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) { b.from("log:x").routeId("r"); }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "the log component only sends: 'log://x' cannot start a route (starting route 'r')");
}

TEST(LogOptionsTest, LogEndpointPassesTheExchangeOn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("log:test?level=OFF").to("log:test2?showAll=true&multiline=true")
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

}  // namespace
}  // namespace dromedary
