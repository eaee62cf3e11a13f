// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

class FilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h.start([](RouteBuilder& b) {
      b.from("direct:in")
          .filter(header("type") == "order")
            .to("mock:matched")
          .end()
          .to("mock:after");
    });
  }
  RouteHarness h;
};

TEST_F(FilterTest, RunsItsBlockWhenThePredicateMatches) {
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "type", "order"));
  EXPECT_EQ(h.mock("mock:matched").receivedCount(), 1u);
}

TEST_F(FilterTest, SkipsItsBlockWhenThePredicateIsFalse) {
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "type", "refund"));
  EXPECT_EQ(h.mock("mock:matched").receivedCount(), 0u);
}

TEST_F(FilterTest, ContinuesAfterTheBlockEitherWay) {
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "type", "order"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "type", "refund"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 2u);
}

TEST_F(FilterTest, RecordsFilterMatchedProperty) {
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "type", "refund"));
  auto got = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(*got[0]->getProperty("CamelFilterMatched"), Value(false));
}

TEST_F(FilterTest, MissingHeaderDoesNotMatch) {
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:matched").receivedCount(), 0u);
}

TEST(FilterPredicateTest, ComparesNumbersNumericallyAndCombines) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .filter((header("amount") > 100 && header("region") != "EU") || header("vip").isNotNull())
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "a", Headers{{"amount", "250"}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "b", Headers{{"amount", 99}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "c",
                                            Headers{{"amount", 500}, {"region", "EU"}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "d", Headers{{"vip", true}}));
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"a", "d"});
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(FilterPredicateTest, ThrowingPredicateFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").filter(predicate([](const Exchange&) -> bool {
      throw std::runtime_error("cannot decide");
    })).to("mock:out");
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "Exception thrown by processor: cannot decide");
}

}  // namespace
}  // namespace dromedary
