// SPDX-License-Identifier: Apache-2.0
// platform-http over real sockets: what a client sends under Camel's header names (query
// parameters, form fields, request headers, any case) never reaches the route, so it can set
// neither the response status nor the engine's own headers (CVE-2025-27636, CVE-2025-29891);
// an endpoint can name a strategy of its own.
#include <gtest/gtest.h>

#include <dromedary/http/platform_http.h>
#include <dromedary/spi/header_filter_strategy.h>

#include "support/http_client.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

class HttpHeaderFilterTest : public ::testing::Test {
 protected:
  HttpHeaderFilterTest() {
    h.context.properties().set("camel.server.host", "127.0.0.1");
    h.context.properties().set("camel.server.port", "0");
  }
  void start(const std::function<void(RouteBuilder&)>& routes) {
    h.start(routes);
    port = platformHttpPort(h.context);
    ASSERT_NE(port, 0);
  }
  RouteHarness h;
  uint16_t port = 0;
};

TEST_F(HttpHeaderFilterTest, AClientCannotSetTheResponseStatus) {
  start([](RouteBuilder& b) { b.from("platform-http:/status").setBody(constant("ok")); });
  EXPECT_EQ(httpRequest(port, "GET", "/status?CamelHttpResponseCode=302").status, 200);
  EXPECT_EQ(httpRequest(port, "GET", "/status", HttpHeaders{{"CamelHttpResponseCode", "503"}})
                .status,
            200);
  EXPECT_EQ(httpRequest(port, "GET", "/status?cAMELhttpRESPONSEcode=302").status, 200);
  EXPECT_EQ(httpRequest(port, "POST", "/status",
                        HttpHeaders{{"Content-Type", "application/x-www-form-urlencoded"}},
                        "CamelHttpResponseCode=500")
                .status,
            200);
}

TEST_F(HttpHeaderFilterTest, TheEnginesOwnHeadersKeepTheirValuesWhateverTheClientSends) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/admin-check")
        .choice()
          .when(simple("${header.CamelHttpMethod} == 'DELETE'")).setBody(constant("deleting"))
          .otherwise().setBody(simple("${header.CamelHttpMethod} ${header.CamelHttpPath}"))
        .end();
  });
  HttpReply r = httpRequest(port, "GET", "/admin-check?CamelHttpMethod=DELETE&CamelHttpPath=/admin",
                            HttpHeaders{{"CamelHttpMethod", "DELETE"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "GET /admin-check");
}

TEST_F(HttpHeaderFilterTest, CamelNamedParametersFieldsAndHeadersNeverReachTheRoute) {
  std::vector<std::string> seen;
  start([&](RouteBuilder& b) {
    b.from("platform-http:/form").process([&](Exchange& e) {
      for (const Headers::Entry& header : e.message().headers()) seen.emplace_back(header.name);
    });
  });
  HttpReply r = httpRequest(
      port, "POST", "/form?CamelFileName=/etc/passwd&q=1",
      HttpHeaders{{"Content-Type", "application/x-www-form-urlencoded"},
                  {"org.apache.camel.Secret", "x"},
                  {"CAmelExecCommandExecutable", "rm"}},
      "CamelExecCommandArgs=-rf&name=n");
  EXPECT_EQ(r.status, 200);
  for (const std::string& name : seen) {
    bool engine_own = name.starts_with("CamelHttp");
    EXPECT_TRUE(engine_own || (name.find("amel") == std::string::npos)) << name;
  }
  EXPECT_NE(std::find(seen.begin(), seen.end(), "q"), seen.end());
  EXPECT_NE(std::find(seen.begin(), seen.end(), "name"), seen.end());
}

TEST_F(HttpHeaderFilterTest, AnEndpointNamesAStrategyOfItsOwn) {
  auto strategy = std::make_shared<DefaultHeaderFilterStrategy>();
  strategy->setInFilter({"Authorization"});
  h.context.bindHeaderFilterStrategy("noCredentials", strategy);
  start([](RouteBuilder& b) {
    b.from("platform-http:/secure?headerFilterStrategy=#noCredentials")
        .setBody(simple("auth=${header.Authorization} trace=${header.X-Trace}"));
  });
  HttpReply r = httpRequest(port, "GET", "/secure",
                            HttpHeaders{{"Authorization", "Bearer t"}, {"X-Trace", "7"}});
  EXPECT_EQ(r.body, "auth= trace=7");
}

TEST_F(HttpHeaderFilterTest, AStrategyNameBoundToNothingFailsWhenTheRouteIsAdded) {
  Context other;
  registerBuiltinComponents(other);
  auto added = other.addRoutes([](RouteBuilder& b) {
    b.from("platform-http:/x?headerFilterStrategy=#missing").to("log:x");
  });
  if (added) added = other.start();
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find(
                "headerFilterStrategy '#missing' names no bound strategy"),
            std::string::npos)
      << added.error().message;
}

}  // namespace
}  // namespace dromedary::testing
