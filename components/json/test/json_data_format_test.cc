// SPDX-License-Identifier: Apache-2.0
// marshal / unmarshal with the json data format, in routes built in C++.
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(JsonDataFormatTest, UnmarshalledJsonIsNavigatedBySimpleAndMarshalledBack) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .unmarshal("json")
        .setHeader("name", simple("${body[customer][name]}"))
        .marshal("jackson", {{"prettyPrint", "false"}})
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"customer": {"name": "Ann", "id": 7}})"));
  const auto& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().getHeader("name")->as<std::string>(), "Ann");
  EXPECT_EQ(ex.message().body().as<std::string>(), R"({"customer":{"name":"Ann","id":7}})");
  EXPECT_EQ(ex.message().getHeader("Content-Type")->as<std::string>(), "application/json");
}

TEST(JsonDataFormatTest, ConvertBodyToMapOrListReadsJsonTextAndToStringWritesIt) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:map")
        .convertBodyTo("java.util.Map")
        .setHeader("b", simple("${body[a][b]}"))
        .convertBodyTo("String")
        .to("mock:map");
    b.from("direct:list").convertBodyTo("java.util.List").to("mock:list");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:map", R"({"a": {"b": 2}})"));
  const auto& ex = *h.mock("mock:map").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().getHeader("b")->as<std::string>(), "2");
  EXPECT_EQ(ex.message().body(), Value(R"({"a":{"b":2}})"));
  ASSERT_TRUE(h.producer.sendBody("direct:list", "[1, 2]"));
  EXPECT_TRUE(h.mock("mock:list").receivedBodies().at(0).isList());
  // Not JSON, or JSON of another shape: the conversion fails, naming both types.
  for (const char* text : {"{\"a\": }", "[1, 2]", "plain"}) {
    auto sent = h.producer.sendBody("direct:map", text);
    ASSERT_FALSE(sent) << text;
    EXPECT_NE(sent.error().message.find("no type conversion from String to java.util.Map"),
              std::string::npos)
        << sent.error().message;
  }
}

TEST(JsonDataFormatTest, InvalidJsonFailsTheExchangeForTheErrorHandler) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").doTry().unmarshal("json").to("mock:ok")
        .doCatch({"java.lang.Exception"})
        .setBody(simple("${exception.message}"))
        .to("mock:bad")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "{\"a\": }"));
  ASSERT_EQ(h.mock("mock:bad").receivedCount(), 1u);
  EXPECT_NE(h.mock("mock:bad").receivedBodies()[0].toString().find("invalid JSON at line 1, column 7"),
            std::string::npos)
      << h.mock("mock:bad").receivedBodies()[0].toString();
}

TEST(JsonDataFormatTest, UseListWantsAnArray) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").unmarshal("json", {{"unmarshalType", "java.util.List"}}).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "[1, 2]"));
  EXPECT_TRUE(h.mock("mock:out").receivedBodies()[0].isList());
  auto sent = h.producer.sendBody("direct:in", "{}");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("a JSON array was expected (useList), not an object"),
            std::string::npos)
      << sent.error().message;
}

TEST(JsonDataFormatTest, ABadOptionOrAnUnknownFormatFailsTheStart) {
  {
    RouteHarness h;
    ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
      b.from("direct:in").marshal("json", {{"prettyPrnt", "true"}});
    }));
    auto started = h.context.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().message.find("unknown option 'prettyPrnt' for the json data format"),
              std::string::npos)
        << started.error().message;
  }
  {
    RouteHarness h;
    ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) { b.from("direct:in").marshal("jsn"); }));
    auto started = h.context.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().message.find("unknown data format 'jsn'; did you mean 'json'?"),
              std::string::npos)
        << started.error().message;
  }
}

}  // namespace
}  // namespace dromedary
