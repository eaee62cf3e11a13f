// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

std::vector<std::string> headersAfter(const std::string& pattern,
                                      std::vector<std::string> excludes) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").removeHeaders(pattern, excludes).to("mock:out");
  });
  Headers headers{{"CamelFileName", 1}, {"camelHttpUri", 2}, {"Came", 3}, {"CamelId", 4},
                  {"orderId", 5},       {"order-type", 6},  {"X-Trace", 7}};
  EXPECT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", headers));
  std::vector<std::string> names;
  for (const auto& e : h.mock("mock:out").receivedExchanges()[0]->message().headers()) {
    names.push_back(e.name);
  }
  return names;
}

TEST(RemoveHeadersTest, WildcardMatchesPrefixIgnoringCase) {
  // "Camel*" as a wildcard removes camelHttpUri too; as a regex it also matches "Came".
  EXPECT_EQ(headersAfter("Camel*", {}),
            (std::vector<std::string>{"orderId", "order-type", "X-Trace"}));
}

TEST(RemoveHeadersTest, ExactNameIgnoresCase) {
  EXPECT_EQ(headersAfter("ORDERID", {}),
            (std::vector<std::string>{"CamelFileName", "camelHttpUri", "Came", "CamelId",
                                      "order-type", "X-Trace"}));
}

TEST(RemoveHeadersTest, RegexMustMatchTheWholeName) {
  EXPECT_EQ(headersAfter("order.*", {}),
            (std::vector<std::string>{"CamelFileName", "camelHttpUri", "Came", "CamelId",
                                      "X-Trace"}));
  EXPECT_EQ(headersAfter("rder", {}).size(), 7u);  // no partial matches
}

TEST(RemoveHeadersTest, AlternationRegexMatchesEitherBranch) {
  // No literal-prefix shortcut applies to an alternation: both branches must still match.
  EXPECT_EQ(headersAfter("x-trace|ORDERID", {}),
            (std::vector<std::string>{"CamelFileName", "camelHttpUri", "Came", "CamelId",
                                      "order-type"}));
}

TEST(RemoveHeadersTest, ExcludesKeepMatchingHeaders) {
  EXPECT_EQ(headersAfter("Camel*", {"CamelId", "camelhttp*"}),
            (std::vector<std::string>{"camelHttpUri", "CamelId", "orderId", "order-type",
                                      "X-Trace"}));
}

TEST(RemoveHeadersTest, InvalidRegexIsOnlyAName) {
  EXPECT_EQ(headersAfter("X-Trace(", {}).size(), 7u);
}

TEST(RemoveHeaderTest, RemovesOneHeaderIgnoringCase) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").removeHeader("x-trace").to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", Headers{{"X-Trace", 1}, {"k", 2}}));
  const auto& headers = h.mock("mock:out").receivedExchanges()[0]->message().headers();
  EXPECT_EQ(headers.size(), 1u);
  EXPECT_TRUE(headers.contains("k"));
}

TEST(RemovePropertiesTest, RemovesMatchingProperties) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setProperty("tmp.a", constant(1))
        .setProperty("tmp.b", constant(2))
        .setProperty("keep", constant(3))
        .removeProperties("tmp*")
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  const Exchange& got = *h.mock("mock:out").receivedExchanges()[0];
  EXPECT_FALSE(got.getProperty("tmp.a"));
  EXPECT_TRUE(got.getProperty("keep"));
}

}  // namespace
}  // namespace dromedary
