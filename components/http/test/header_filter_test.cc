// SPDX-License-Identifier: Apache-2.0
// platform-http over real sockets: what a client sends under Camel's header names (query
// parameters, form fields, request headers, any case) never reaches the route, so it can set
// neither the response status nor the engine's own headers (CVE-2025-27636, CVE-2025-29891);
// an endpoint can name a strategy of its own.
#include <gtest/gtest.h>

#include <dromedary/http/platform_http.h>
#include <dromedary/spi/header_filter_strategy.h>

#include "platform_http_fixture.h"
#include "support/http_client.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using HttpHeaderFilterTest = PlatformHttpFixture;

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
  std::string error = startError([](RouteBuilder& b) {
    b.from("platform-http:/x?headerFilterStrategy=#missing").to("log:x");
  });
  ASSERT_FALSE(error.empty());
  EXPECT_NE(error.find("headerFilterStrategy '#missing' names no bound strategy"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace dromedary::testing
