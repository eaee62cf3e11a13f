// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(ConvertBodyTest, ConvertsWithCamelTypeNames) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:int").convertBodyTo("Integer").to("mock:int");
    b.from("direct:string").convertBodyTo("java.lang.String").to("mock:string");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:int", "42"));
  ASSERT_TRUE(h.producer.sendBody("direct:string", 42));
  EXPECT_EQ(h.mock("mock:int").receivedBodies()[0], Value(42));
  EXPECT_EQ(h.mock("mock:string").receivedBodies()[0], Value("42"));
}

TEST(ConvertBodyTest, ImpossibleConversionFailsTheExchangeWithTheValue) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").convertBodyTo("Integer").to("mock:out"); });
  auto sent = h.producer.sendBody("direct:in", "abc");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::TypeConversion);
  EXPECT_EQ(sent.error().message,
            "Cannot convert body: no type conversion from String to Integer for value 'abc'");
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
}

TEST(ConvertBodyTest, ANarrowWholeNumberOutOfItsRangeFails) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:short").convertBodyTo("java.lang.Short").to("mock:out");
    b.from("direct:int").convertBodyTo("Integer").to("mock:out");
  });
  auto sent = h.producer.sendBody("direct:short", "40000");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "Cannot convert body: 40000 is out of range for java.lang.Short (-32768 to 32767)");
  sent = h.producer.sendBody("direct:int", Value(int64_t{1} << 40));  // already a whole number
  ASSERT_FALSE(sent);
  ASSERT_TRUE(h.producer.sendBody("direct:short", "-5"));
  EXPECT_EQ(h.mock("mock:out").receivedBodies().at(0), Value(-5));
}

}  // namespace
}  // namespace dromedary
