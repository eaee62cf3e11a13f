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

TEST(ConvertBodyTest, NotMandatoryAnImpossibleConversionLeavesANullBody) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").convertBodyTo("Integer", "", false).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "abc"));
  EXPECT_TRUE(h.mock("mock:out").receivedBodies().at(0).isNull());
}

TEST(ConvertBodyTest, ACharsetEncodesAndDecodesBetweenTextAndBytes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:decode").convertBodyTo("String", "ISO-8859-1").to("mock:text");
    b.from("direct:encode").convertBodyTo("byte[]", "iso-8859-1").to("mock:bytes");
    b.from("direct:ascii").convertBodyTo("byte[]", "US-ASCII").to("mock:ascii");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:decode", Value(Bytes(std::string("caf\xe9")))));
  EXPECT_EQ(h.mock("mock:text").receivedBodies().at(0), Value("caf\xc3\xa9"));  // UTF-8
  ASSERT_TRUE(h.producer.sendBody("direct:encode", Value("caf\xc3\xa9")));
  EXPECT_EQ(h.mock("mock:bytes").receivedBodies().at(0), Value(Bytes(std::string("caf\xe9"))));
  auto sent = h.producer.sendBody("direct:ascii", Value("caf\xc3\xa9"));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("no byte in the charset"), std::string::npos);
}

TEST(ConvertBodyTest, AnUnknownCharsetFailsTheStart) {
  Context context;
  registerBuiltinComponents(context);
  auto added = context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").convertBodyTo("String", "EBCDIC").to("mock:out");
  });
  auto started = added ? context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("charset 'EBCDIC' of convertBodyTo is not one"),
            std::string::npos)
      << started.error().message;
}

TEST(ConvertBodyTest, ConvertHeaderToConvertsAHeaderInPlaceOrIntoAnother) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .convertHeaderTo("amount", "Integer")
        .convertHeaderTo("amount", "String", "amountText")
        .convertHeaderTo("absent", "Integer")
        .to("mock:out");
    b.from("direct:bad").convertHeaderTo("amount", "Integer").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "amount", Value("42")));
  const Message& m = h.mock("mock:out").receivedExchanges().at(0)->message();
  EXPECT_EQ(*m.getHeader("amount"), Value(42));
  EXPECT_EQ(*m.getHeader("amountText"), Value("42"));
  EXPECT_EQ(m.getHeader("absent"), nullptr);
  auto sent = h.producer.sendBodyAndHeader("direct:bad", "x", "amount", Value("lots"));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "Cannot convert header: no type conversion from String to Integer for value 'lots'");
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
