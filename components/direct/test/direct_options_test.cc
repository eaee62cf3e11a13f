// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(DirectOptionsTest, DefaultsAreCamels) {
  RouteHarness h;
  Endpoint* e = *h.context.endpoint("direct:a");
  EXPECT_TRUE(e->options().getBool("block"));
  EXPECT_TRUE(e->options().getBool("failIfNoConsumers"));
  EXPECT_EQ(e->options().getDuration("timeout").count(), 30000);
}

TEST(DirectOptionsTest, TakesDurationsInCamelForms) {
  RouteHarness h;
  EXPECT_EQ((*h.context.endpoint("direct:a?timeout=5s"))->options().getDuration("timeout").count(),
            5000);
}

TEST(DirectOptionsTest, UnknownOptionSuggestsTheOneMeant) {
  RouteHarness h;
  auto e = h.context.endpoint("direct:a?timout=5");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "unknown option 'timout' for endpoint 'direct:a?timout=5'; did you mean 'timeout'?");
}

TEST(DirectOptionsTest, WrongTypeSaysWhatWasExpected) {
  RouteHarness h;
  auto e = h.context.endpoint("direct:a?block=maybe");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "invalid value 'maybe' for option 'block' of endpoint 'direct:a?block=maybe': "
            "expected true or false");
}

TEST(DirectOptionsTest, NameIsRequired) {
  RouteHarness h;
  auto e = h.context.endpoint("direct:");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "direct endpoint 'direct:' has no name (expected 'direct:name')");
}

}  // namespace
}  // namespace dromedary
