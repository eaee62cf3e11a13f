// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

class ChoiceTest : public ::testing::Test {
 protected:
  void start(bool with_otherwise) {
    h.start([with_otherwise](RouteBuilder& b) {
      RouteDefinition& r = b.from("direct:in")
                               .choice()
                               .when(header("size") > 10)
                               .to("mock:big")
                               .when(header("size") > 5)
                               .to("mock:medium");
      if (with_otherwise) r.otherwise().to("mock:small");
      r.end().to("mock:after");
    });
  }
  RouteHarness h;
};

TEST_F(ChoiceTest, RunsTheFirstMatchingWhenOnly) {
  start(true);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "size", 20));  // matches both
  EXPECT_EQ(h.mock("mock:big").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:medium").receivedCount(), 0u);
}

TEST_F(ChoiceTest, FallsThroughToALaterWhen) {
  start(true);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "size", 7));
  EXPECT_EQ(h.mock("mock:medium").receivedCount(), 1u);
}

TEST_F(ChoiceTest, RunsOtherwiseWhenNothingMatches) {
  start(true);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "size", 1));
  EXPECT_EQ(h.mock("mock:small").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST_F(ChoiceTest, WithoutOtherwiseNothingRunsAndTheRouteContinues) {
  start(false);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "size", 1));
  EXPECT_EQ(h.mock("mock:big").receivedCount() + h.mock("mock:medium").receivedCount(), 0u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(NestedChoiceTest, ChoiceInsideFilterInsideChoice) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .choice()
          .when(header("a") == 1)
            .filter(header("b") == 2)
              .choice()
                .when(header("c") == 3).to("mock:deep")
                .otherwise().to("mock:shallow")
              .end()
            .end()
          .otherwise().to("mock:other")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", Headers{{"a", 1}, {"b", 2}, {"c", 3}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "y", Headers{{"a", 1}, {"b", 2}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "z", Headers{{"a", 9}}));
  EXPECT_EQ(h.mock("mock:deep").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:shallow").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:other").receivedCount(), 1u);
}

}  // namespace
}  // namespace dromedary
