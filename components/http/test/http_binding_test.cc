// SPDX-License-Identifier: Apache-2.0
// Camel's HTTP binding without sockets: request to message, exchange to response.
#include <gtest/gtest.h>

#include <dromedary/dromedary.h>

#include "http_binding.h"

namespace dromedary::component::http {
namespace {

namespace bhttp = boost::beast::http;

class HttpBindingTest : public ::testing::Test {
 protected:
  ExchangePtr exchange() { return context.createExchange(); }
  Context context;
};

TEST_F(HttpBindingTest, RequestHeadersQueryAndPathParametersBecomeHeaders) {
  Request req{bhttp::verb::get, "/users/7?q=a+b&tag=x&tag=y&flag", 11};
  req.set("X-Trace", "abc");
  req.insert("X-Many", "1");
  req.insert("X-Many", "2");
  auto ex = exchange();
  requestToMessage(req, {{"id", "7"}}, *httpHeaderFilterStrategy(), ex->message());
  const Message& m = ex->message();
  EXPECT_EQ(m.getHeader("x-trace")->getString(), "abc");
  ASSERT_TRUE(m.getHeader("X-Many")->isList());
  EXPECT_EQ(m.getHeader("X-Many")->getList().size(), 2u);
  EXPECT_EQ(m.getHeader("CamelHttpMethod")->getString(), "GET");
  EXPECT_EQ(m.getHeader("CamelHttpUri")->getString(), "/users/7");
  EXPECT_EQ(m.getHeader("CamelHttpPath")->getString(), "/users/7");
  EXPECT_EQ(m.getHeader("CamelHttpQuery")->getString(), "q=a+b&tag=x&tag=y&flag");
  EXPECT_EQ(m.getHeader("q")->getString(), "a b");
  ASSERT_TRUE(m.getHeader("tag")->isList());
  EXPECT_EQ(m.getHeader("flag")->getString(), "");
  EXPECT_EQ(m.getHeader("id")->getString(), "7");
  EXPECT_TRUE(m.body().isNull());
}

TEST_F(HttpBindingTest, AFormBodysFieldsBecomeHeadersAndTheBodyStaysText) {
  Request req{bhttp::verb::post, "/form", 11};
  req.set(bhttp::field::content_type, "application/x-www-form-urlencoded; charset=UTF-8");
  req.body() = "name=J%C3%BCrg&city=Bern";
  auto ex = exchange();
  requestToMessage(req, {}, *httpHeaderFilterStrategy(), ex->message());
  EXPECT_EQ(ex->message().getHeader("name")->getString(), "J\xC3\xBCrg");
  EXPECT_EQ(ex->message().getHeader("city")->getString(), "Bern");
  EXPECT_EQ(ex->message().body().getString(), "name=J%C3%BCrg&city=Bern");
}

TEST_F(HttpBindingTest, TheResponseIsTheBodyWithTheStatusAndHeadersTheMessageSets) {
  auto ex = exchange();
  ex->message().setBody(Value("{\"id\": 1}"));
  ex->message().setHeader("CamelHttpResponseCode", Value(int64_t{201}));
  ex->message().setHeader("Content-Type", Value("application/json"));
  ex->message().setHeader("X-Id", Value(int64_t{1}));
  ex->message().setHeader("CamelFileName", Value("internal"));
  ex->message().setHeader("Content-Length", Value("999"));
  ex->message().setHeader("X-Evil", Value("a\r\nSet-Cookie: x"));
  Response r = exchangeToResponse(*ex, 11, {});
  EXPECT_EQ(r.result_int(), 201u);
  EXPECT_EQ(r.body(), "{\"id\": 1}");
  EXPECT_EQ(r[bhttp::field::content_type], "application/json");
  EXPECT_EQ(r["X-Id"], "1");
  EXPECT_EQ(r.count("CamelFileName"), 0u);
  EXPECT_EQ(r.count("Content-Length"), 0u);  // set from the body when sent, never the header's
  EXPECT_EQ(r.count("X-Evil"), 0u);
}

TEST_F(HttpBindingTest, HeadersTheRequestBroughtAreSentBackOnlyWhenTheRouteChangedThem) {
  Request req{bhttp::verb::get, "/users/7?page=2", 11};
  req.set(bhttp::field::authorization, "Bearer secret");
  req.set(bhttp::field::content_type, "text/plain");
  req.set("X-Trace", "t-1");
  auto ex = exchange();
  requestToMessage(req, {{"id", "7"}}, *httpHeaderFilterStrategy(), ex->message());
  Headers request = ex->message().headers();
  ex->message().setBody(Value("ok"));
  ex->message().setHeader("X-Trace", Value("t-2"));
  Response r = exchangeToResponse(*ex, 11, {"application/json", false, &request});
  EXPECT_EQ(r.count(bhttp::field::authorization), 0u);
  EXPECT_EQ(r.count("id"), 0u);
  EXPECT_EQ(r.count("page"), 0u);
  EXPECT_EQ(r["X-Trace"], "t-2");
  EXPECT_EQ(r[bhttp::field::content_type], "application/json");  // the request's is not ours
}

TEST_F(HttpBindingTest, NoBodyIs204AndAStatusOutOfRangeIs500) {
  auto ex = exchange();
  EXPECT_EQ(exchangeToResponse(*ex, 11, {}).result_int(), 204u);
  ex->message().setHeader("CamelHttpResponseCode", Value("abc"));
  Response r = exchangeToResponse(*ex, 11, {});
  EXPECT_EQ(r.result_int(), 500u);
  EXPECT_NE(r.body().find("CamelHttpResponseCode 'abc' is not an HTTP status"), std::string::npos);
}

TEST_F(HttpBindingTest, AFailureIs500WithItsTextUnlessMuted) {
  auto ex = exchange();
  ex->fail(ErrorCode::EvaluationFailed, "something broke", "here");
  Response r = exchangeToResponse(*ex, 11, {});
  EXPECT_EQ(r.result_int(), 500u);
  EXPECT_NE(r.body().find("something broke"), std::string::npos);
  Response muted = exchangeToResponse(*ex, 11, {"", true});
  EXPECT_EQ(muted.result_int(), 500u);
  EXPECT_TRUE(muted.body().empty());
}

TEST_F(HttpBindingTest, ProducesIsTheDefaultContentTypeAndMapsAreJson) {
  auto ex = exchange();
  ex->message().setBody(Value("<a/>"));
  EXPECT_EQ(exchangeToResponse(*ex, 11, {"application/xml, text/xml"})[bhttp::field::content_type],
            "application/xml");
  ValueMap map;
  map.emplace_back("a", Value(int64_t{1}));
  ex->message().setBody(Value(std::move(map)));
  Response r = exchangeToResponse(*ex, 11, {});
  EXPECT_EQ(r[bhttp::field::content_type], "application/json");
  EXPECT_EQ(r.body(), "{\"a\":1}");
}

TEST_F(HttpBindingTest, MediaTypesMatchWithWildcardsAndParameters) {
  EXPECT_TRUE(mediaTypeMatches("application/json; charset=utf-8", "application/json"));
  EXPECT_TRUE(mediaTypeMatches("text/plain", "application/json, text/*"));
  EXPECT_TRUE(mediaTypeMatches("image/png", "*/*"));
  EXPECT_TRUE(mediaTypeMatches("Application/JSON", "application/json"));
  EXPECT_FALSE(mediaTypeMatches("text/plain", "application/json"));
  EXPECT_FALSE(mediaTypeMatches("", "application/json"));
}

TEST_F(HttpBindingTest, AClientAcceptingAnyOfTheProducedTypesIsServed) {
  EXPECT_TRUE(acceptsOneOf("text/xml", "application/json, text/xml"));
  EXPECT_TRUE(acceptsOneOf("application/*;q=0.9", "application/json"));
  EXPECT_FALSE(acceptsOneOf("text/html", "application/json, text/xml"));
}

}  // namespace
}  // namespace dromedary::component::http
