// SPDX-License-Identifier: Apache-2.0
// sort and sample.
#include <gtest/gtest.h>

#include "support/route_harness.h"
#include "support/virtual_time_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;
using testing::VirtualTimeHarness;

TEST(SortTest, SortsAListBodyNumerically) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").sort(body()).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(ValueList{10, 9, 100, 1})));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().body(),
            Value(ValueList{1, 9, 10, 100}));
}

TEST(SortTest, SortsCommaSeparatedTextWithAComparator) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .sort(body(), [](const Value& a, const Value& b) {
          return a.as<std::string>() > b.as<std::string>();
        })
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "b,c,a"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().body(),
            Value(ValueList{"c", "b", "a"}));
}

TEST(SampleTest, LetsOnePerPeriodThrough) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in").sample(std::chrono::seconds(1)).to("mock:out");
  });
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(t.routes.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 1u);
  t.clock->advance(std::chrono::seconds(1));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(t.routes.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 2u);
}

TEST(SampleTest, LetsOneInNThrough) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").sample(int64_t{3}).to("mock:out"); });
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(std::to_string(i))));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->message().body(), Value("2"));
}

}  // namespace
}  // namespace dromedary
