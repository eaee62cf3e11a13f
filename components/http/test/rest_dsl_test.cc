// SPDX-License-Identifier: Apache-2.0
// Camel's REST DSL in C++: verbs served over real sockets through platform-http, and the
// errors of a misused rest() or restConfiguration().
#include <gtest/gtest.h>

#include <algorithm>

#include <dromedary/http/platform_http.h>

#include "support/http_client.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

class RestDslTest : public ::testing::Test {
 protected:
  RestDslTest() { h.context.properties().set("camel.server.host", "127.0.0.1"); }

  Error addFails(const std::function<void(RouteBuilder&)>& routes) {
    auto added = h.context.addRoutes(routes);
    EXPECT_FALSE(added);
    return added ? Error{} : added.error();
  }

  RouteHarness h;
};

TEST_F(RestDslTest, EachVerbRoutesToItsEndpointUnderTheContextPath) {
  h.start([](RouteBuilder& b) {
    b.restConfiguration().contextPath("/api").port(0);
    b.rest("/users")
        .get("/{id}").id("get-user").to("direct:getUser")
        .post().to("direct:addUser");
    b.from("direct:getUser").transform(simple("user ${header.id}"));
    b.from("direct:addUser").transform(simple("added ${body}"));
  });
  uint16_t port = platformHttpPort(h.context);
  ASSERT_NE(port, 0);
  EXPECT_EQ(httpRequest(port, "GET", "/api/users/7", HttpHeaders{}).body, "user 7");
  EXPECT_EQ(httpRequest(port, "POST", "/api/users", HttpHeaders{}, "ann").body, "added ann");
  EXPECT_EQ(httpRequest(port, "DELETE", "/api/users/7", HttpHeaders{}).status, 405);
  EXPECT_EQ(httpRequest(port, "GET", "/users/7", HttpHeaders{}).status, 404);
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "get-user"), ids.end());
}

TEST_F(RestDslTest, ConsumesAndProducesOnTheRestApplyToEveryVerb) {
  h.start([](RouteBuilder& b) {
    b.restConfiguration().port(0);
    b.rest("/json").consumes("application/json").produces("application/json")
        .post().to("direct:json")
        .put().consumes("text/plain").to("direct:json");
    b.from("direct:json").setBody(constant("{}"));
  });
  uint16_t port = platformHttpPort(h.context);
  HttpReply ok = httpRequest(port, "POST", "/json", HttpHeaders{{"Content-Type", "application/json"}}, "{}");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.contentType, "application/json");
  EXPECT_EQ(httpRequest(port, "POST", "/json", HttpHeaders{{"Content-Type", "text/plain"}}, "x").status,
            415);
  EXPECT_EQ(httpRequest(port, "PUT", "/json", HttpHeaders{{"Content-Type", "text/plain"}}, "x").status,
            200);
}

TEST_F(RestDslTest, AVerbWithoutToIsRefused) {
  Error e = addFails([](RouteBuilder& b) { b.rest("/a").get("/b"); });
  EXPECT_EQ(e.message, "rest GET /a/b has no to(): say where its requests go");
}

TEST_F(RestDslTest, AVerbOptionBeforeAnyVerbIsRefused) {
  Error e = addFails([](RouteBuilder& b) { b.rest("/a").to("direct:x"); });
  EXPECT_EQ(e.message, "to() needs a verb first: rest(\"/a\").get(...).to(...) (in rest '/a')");
}

TEST_F(RestDslTest, AnotherTransportOrABindingModeIsRefusedWithTheReason) {
  Error component = addFails([](RouteBuilder& b) {
    b.restConfiguration().component("netty-http");
    b.rest("/a").get().to("direct:x");
  });
  EXPECT_EQ(component.message,
            "restConfiguration component 'netty-http' is not available: REST services are "
            "served by platform-http");
  Error binding = addFails([](RouteBuilder& b) {
    b.restConfiguration().bindingMode("xml");
    b.rest("/a").get().to("direct:x");
  });
  EXPECT_NE(binding.message.find("restConfiguration bindingMode 'xml' is not supported: off, json "
                                 "or auto"),
            std::string::npos)
      << binding.message;
}

TEST_F(RestDslTest, BindingModeJsonGivesTheRouteMapsAndRepliesWithJson) {
  h.start([](RouteBuilder& b) {
    b.restConfiguration().bindingMode("json").port(0);
    b.rest("/orders").post().to("direct:order");
    b.from("direct:order").setHeader("sku", simple("${body[sku]}")).to("mock:orders");
  });
  uint16_t port = platformHttpPort(h.context);
  HttpReply reply = httpRequest(port, "POST", "/orders", HttpHeaders{{"Content-Type", "application/json"}},
                                R"({"sku": "A-1"})");
  EXPECT_EQ(reply.body, R"({"sku":"A-1"})");
  EXPECT_EQ(reply.contentType, "application/json");
  EXPECT_EQ(h.mock("mock:orders").receivedExchanges().at(0)->message().getHeader("sku")->as<std::string>(),
            "A-1");
}

TEST_F(RestDslTest, APortOtherThanTheServersIsRefused) {
  h.context.properties().set("camel.server.port", "8081");
  Error e = addFails([](RouteBuilder& b) {
    b.restConfiguration().port(9000);
    b.rest("/a").get().to("direct:x");
  });
  EXPECT_EQ(e.message,
            "restConfiguration port 9000 differs from camel.server.port=8081 set before: one "
            "HTTP server serves every route");
}

TEST(RestPathTest, PartsJoinWithOneSlash) {
  EXPECT_EQ(joinRestPath("/api/", "users/", "/{id}"), "/api/users/{id}");
  EXPECT_EQ(joinRestPath("", "", ""), "/");
  EXPECT_EQ(joinRestPath("", "/say", ""), "/say");
}

}  // namespace
}  // namespace dromedary::testing
