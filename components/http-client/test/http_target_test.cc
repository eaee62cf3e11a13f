// SPDX-License-Identifier: Apache-2.0
// Where a request goes and with which method: the endpoint URI split into target and options,
// Camel's CamelHttpUri / CamelHttpPath / CamelHttpQuery headers, the method rules and the ok
// status ranges.
#include <gtest/gtest.h>

#include "http_target.h"

namespace dromedary::component::httpclient {
namespace {

constexpr OptionSpec kSpecs[] = {
    {"httpMethod", OptionType::String, "", ""},
    {"bridgeEndpoint", OptionType::Bool, "false", ""},
};

TEST(HttpTargetTest, TheServerGetsTheQueryAsWrittenWithoutTheComponentsOptions) {
  auto t = targetOf("http", "http://api.example.com:8080/orders?z=1&httpMethod=GET&a=b%20c&"
                            "bridge-endpoint=true",
                    kSpecs);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->base, "http://api.example.com:8080/orders");
  EXPECT_EQ(t->query, "z=1&a=b%20c");
}

// toD's split (Camel's HttpSendDynamicAware): one endpoint per host and options.
TEST(HttpTargetTest, ADynamicUriSplitsIntoTheHostWithItsOptionsAndThePathAndQuery) {
  std::string endpoint, path, query;
  ASSERT_TRUE(splitDynamicUri(
      "https://api:8443/items/42?z=1&httpMethod=PUT&a=b&bridge-endpoint=true", kSpecs, endpoint,
      path, query));
  EXPECT_EQ(endpoint, "https://api:8443?httpMethod=PUT&bridge-endpoint=true");
  EXPECT_EQ(path, "/items/42");
  EXPECT_EQ(query, "z=1&a=b");
  ASSERT_TRUE(splitDynamicUri("http://api", kSpecs, endpoint, path, query));
  EXPECT_EQ(endpoint, "http://api");
  EXPECT_EQ(path, "");
  EXPECT_EQ(query, "");
  ASSERT_TRUE(splitDynamicUri("http://api?x=1", kSpecs, endpoint, path, query));
  EXPECT_EQ(endpoint, "http://api");
  EXPECT_EQ(query, "x=1");
  for (const char* whole : {"http://user:pw@api/a", "http://api/a#top", "http://api/a?q=RAW(a&b)",
                            "https:api/a", "http:///a"}) {
    EXPECT_FALSE(splitDynamicUri(whole, kSpecs, endpoint, path, query)) << whole;
  }
}

TEST(HttpTargetTest, ARawValueIsSentEncodedAndUnsafeCharactersAreEscaped) {
  auto t = targetOf("https", "https:host/a b?q=RAW(x&y=1)", kSpecs);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->base, "https://host/a%20b");
  EXPECT_EQ(t->query, "q=x%26y%3D1");
}

TEST(HttpTargetTest, AnEndpointWithoutAHostIsRefusedSayingWhatToWrite) {
  auto t = targetOf("http", "http:/path-only", kSpecs);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("names no host"), std::string::npos) << t.error().message;
}

TEST(HttpTargetTest, CamelHttpUriReplacesTheTargetUnlessTheEndpointBridges) {
  auto t = targetOf("http", "http://a/x?k=1", kSpecs);
  Message m;
  m.setHeader("CamelHttpUri", Value("http://b/y?j=2"));
  std::string url;
  requestUrl(*t, m, false, url);
  EXPECT_EQ(url, "http://b/y?j=2");
  requestUrl(*t, m, true, url);
  EXPECT_EQ(url, "http://a/x?k=1");
}

TEST(HttpTargetTest, APathOnlyCamelHttpUriAsPlatformHttpSetsItIsNotATarget) {
  auto t = targetOf("http", "http://a/x", kSpecs);
  Message m;
  m.setHeader("CamelHttpUri", Value("/incoming/path"));
  std::string url;
  requestUrl(*t, m, false, url);
  EXPECT_EQ(url, "http://a/x");
}

TEST(HttpTargetTest, CamelHttpPathIsAppendedWithOneSlashAndCamelHttpQueryReplacesTheQuery) {
  auto t = targetOf("http", "http://a/base/?k=1", kSpecs);
  Message m;
  m.setHeader("CamelHttpPath", Value("/orders/7"));
  m.setHeader("CamelHttpQuery", Value("q=new"));
  std::string url;
  requestUrl(*t, m, true, url);
  EXPECT_EQ(url, "http://a/base/orders/7?q=new");
  m.setHeader("CamelHttpRawQuery", Value("raw=1"));
  requestUrl(*t, m, true, url);
  EXPECT_EQ(url, "http://a/base/orders/7?raw=1");
}

TEST(HttpTargetTest, TheMethodFollowsCamelsRules) {
  auto plain = targetOf("http", "http://a/x", kSpecs);
  Message m;
  EXPECT_EQ(requestMethod("", m, false), "GET");
  m.setBody(Value("payload"));
  EXPECT_EQ(requestMethod("", m, false), "POST");
  EXPECT_EQ(requestMethod("", m, true), "GET");  // a query makes it a GET
  m.setHeader("CamelHttpMethod", Value("delete"));
  EXPECT_EQ(requestMethod("", m, true), "DELETE");
  EXPECT_EQ(requestMethod("PUT", m, true), "PUT");  // the endpoint's option wins
  m.setHeader("CamelHttpMethod", Value("FETCH"));
  EXPECT_EQ(requestMethod("", m, false), "");
  EXPECT_FALSE(hasQuery(*plain, Message(), false));
}

TEST(HttpTargetTest, OkStatusRangesTakeRangesAndSingleStatuses) {
  auto ranges = parseStatusRanges("200-299, 304");
  ASSERT_TRUE(ranges) << ranges.error().message;
  EXPECT_TRUE(statusIsOk(*ranges, 204));
  EXPECT_TRUE(statusIsOk(*ranges, 304));
  EXPECT_FALSE(statusIsOk(*ranges, 301));
  for (const char* bad : {"", "abc", "299-200", "200-", "99", "200-700"}) {
    EXPECT_FALSE(parseStatusRanges(bad)) << bad;
  }
}

TEST(HttpTargetTest, APoolKeyIsSchemeHostAndPortWithTheSchemesPortByDefault) {
  std::string key = "left over";
  poolKeyOf("http://api.example.com/orders?x=1#top", key);
  EXPECT_EQ(key, "http://api.example.com:80");
  poolKeyOf("https://user:secret@api.example.com/a", key);
  EXPECT_EQ(key, "https://api.example.com:443");
  poolKeyOf("http://127.0.0.1:8080?x=1", key);
  EXPECT_EQ(key, "http://127.0.0.1:8080");
  poolKeyOf("http://[::1]/a", key);
  EXPECT_EQ(key, "http://[::1]:80");
  poolKeyOf("https://[::1]:8443/a", key);
  EXPECT_EQ(key, "https://[::1]:8443");
  poolKeyOf("not a url", key);  // kept whole: a pool of its own
  EXPECT_EQ(key, "not a url");
}

}  // namespace
}  // namespace dromedary::component::httpclient
