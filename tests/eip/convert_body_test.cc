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

}  // namespace
}  // namespace dromedary
