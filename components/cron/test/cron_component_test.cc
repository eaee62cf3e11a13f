// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(CronComponentTest, FiresEverySecondTheScheduleSays) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("cron:tick?schedule=*+*+*+*+*+?").setBody(constant("tick")).to("mock:out");
  });
  h.mock("mock:out").expectedMinimumMessageCount(2);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST(CronComponentTest, ABadScheduleFailsTheStartNamingTheField) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("cron:bad?schedule=0 0 99 * * ?").to("mock:out");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("cron hour field '99': 99 is out of 0-23"),
            std::string::npos)
      << started.error().message;
}

TEST(CronComponentTest, AScheduleWithNoTimeToComeFailsTheStartNamingIt) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("cron:past?schedule=0 0 0 1 1 ? 2020").to("mock:out");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("cron:past: the schedule '0 0 0 1 1 ? 2020' names no time to come"),
            std::string::npos)
      << started.error().message;
}

TEST(CronComponentTest, AScheduleIsRequired) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) { b.from("cron:none").to("mock:out"); }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("needs a schedule"), std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary
