// SPDX-License-Identifier: Apache-2.0
// The management server over real sockets: each endpoint's JSON, Prometheus text, route
// control and its refusal, errors with the right status codes, the request size bound, and
// the loopback default.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <dromedary/management/management_server.h>

#include "support/http_client.h"
#include "support/raw_http.h"
#include "support/probe_component.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using nlohmann::json;

class ManagementServerTest : public ::testing::Test {
 protected:
  void start(ManagementOptions options = {}) {
    h.start([](RouteBuilder& b) {
      b.from("direct:orders").routeId("orders")
          .filter(header("ok") == true).id("only-ok")
            .to("mock:out").id("deliver")
          .end();
      b.from("direct:idle").routeId("idle").autoStartup(false).to("mock:idle");
    });
    server = std::make_unique<ManagementServer>(h.context, options);
    auto started = server->start();
    ASSERT_TRUE(started) << started.error().toString();
  }
  HttpReply get(const std::string& target) { return httpRequest(server->port(), "GET", target); }
  json getJson(const std::string& target, int status = 200) {
    HttpReply r = get(target);
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    EXPECT_EQ(r.contentType, "application/json");
    return json::parse(r.body);
  }

  RouteHarness h;
  std::unique_ptr<ManagementServer> server;
};

TEST_F(ManagementServerTest, RoutesAndTheirProcessorsAsJson) {
  start();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "x", "ok", i != 1));
  json routes = getJson("/api/routes");
  ASSERT_TRUE(routes.is_array());
  ASSERT_EQ(routes.size(), 2u);
  EXPECT_EQ(routes[0]["id"], "orders");
  EXPECT_EQ(routes[0]["state"], "Started");
  EXPECT_EQ(routes[0]["exchangesTotal"], 3);
  EXPECT_EQ(routes[1]["state"], "Stopped");
  for (const char* key : {"from", "exchangesCompleted", "exchangesFailed", "exchangesInflight",
                          "failuresHandled", "redeliveries", "externalRedeliveries",
                          "processingTime", "latencyMillis",
                          "uptimeMillis"}) {
    EXPECT_TRUE(routes[0].contains(key)) << key;
  }
  json orders = getJson("/api/routes/orders");
  ASSERT_EQ(orders["processors"].size(), 2u);
  EXPECT_EQ(orders["processors"][0]["id"], "only-ok");
  EXPECT_EQ(orders["processors"][0]["exchangesTotal"], 3);
  EXPECT_EQ(orders["processors"][1]["id"], "deliver");
  EXPECT_EQ(orders["processors"][1]["depth"], 1);
  EXPECT_EQ(orders["processors"][1]["exchangesTotal"], 2);
  EXPECT_EQ(orders["processors"][1]["processor"], "to[mock:out]");
  for (const char* key : {"min", "max", "mean", "last"}) {
    EXPECT_TRUE(orders["processors"][0]["processingTime"].contains(std::string(key) + "Millis"));
  }
  for (const char* key : {"exchangesCompleted", "exchangesFailed", "exchangesInflight",
                          "redeliveries", "externalRedeliveries", "firstExchangeCompletedMillis",
                          "lastExchangeCompletedMillis", "firstExchangeFailedMillis",
                          "lastExchangeFailedMillis"}) {
    EXPECT_TRUE(orders["processors"][0].contains(key)) << key;
  }
}

TEST_F(ManagementServerTest, ContextEndpointsAndHealth) {
  start();
  json context = getJson("/api/context");
  EXPECT_EQ(context["name"], h.context.name());
  EXPECT_EQ(context["state"], "Started");
  EXPECT_EQ(context["routes"], 2);
  EXPECT_EQ(context["statisticsLevel"], "Default");
  for (const char* key : {"exchangesTotal", "exchangesCompleted", "exchangesFailed",
                          "exchangesInflight", "failuresHandled", "redeliveries",
                          "externalRedeliveries", "processingTime",
                          "firstExchangeCompletedMillis", "lastExchangeFailedMillis"}) {
    EXPECT_TRUE(context.contains(key)) << key;
  }
  json endpoints = getJson("/api/endpoints");
  std::vector<std::string> uris;
  for (const auto& e : endpoints) uris.push_back(e["uri"]);
  EXPECT_NE(std::find(uris.begin(), uris.end(), "direct://orders"), uris.end());
  json health = getJson("/api/health");
  EXPECT_EQ(health["status"], "UP") << "a route without autoStartup does not count";
  ASSERT_TRUE(h.context.stopRoute("orders"));
  json down = getJson("/api/health", 503);
  EXPECT_EQ(down["status"], "DOWN");
  bool named = false;
  for (const auto& c : down["checks"]) {
    named = named || (c["check"] == "route:orders" && c["status"] == "DOWN");
  }
  EXPECT_TRUE(named) << down.dump();
}

TEST_F(ManagementServerTest, AConsumerThatCannotTakeMessagesMakesHealthDownSayingWhy) {
  auto probe = std::make_unique<ProbeComponent>();
  ProbeComponent& component = *probe;
  h.context.addComponent(std::move(probe));
  ASSERT_TRUE(h.context.addRoutes(
      [](RouteBuilder& b) { b.from("probe:in").routeId("consumed").to("mock:consumed"); }));
  start();
  json up = getJson("/api/health");
  EXPECT_EQ(up["status"], "UP") << up.dump();
  component.setProblem("not connected to the broker at amqp://127.0.0.1:1 (reconnecting)");
  json down = getJson("/api/health", 503);
  EXPECT_EQ(down["status"], "DOWN");
  json consumer;
  for (const auto& c : down["checks"]) {
    if (c["check"] == "consumer:consumed") consumer = c;
    if (c["check"] == "route:consumed") {
      EXPECT_EQ(c["status"], "UP") << "the route runs";
    }
  }
  ASSERT_FALSE(consumer.is_null()) << down.dump();
  EXPECT_EQ(consumer["status"], "DOWN");
  EXPECT_EQ(consumer["reason"], "not connected to the broker at amqp://127.0.0.1:1 (reconnecting)");
  EXPECT_EQ(h.context.routeConsumerProblem("consumed"), consumer["reason"]);
  component.setProblem("");
  EXPECT_EQ(getJson("/api/health")["status"], "UP");
  ASSERT_TRUE(h.context.stopRoute("consumed"));
  EXPECT_EQ(h.context.routeConsumerProblem("consumed"), "") << "a stopped route has no consumer";
}

TEST_F(ManagementServerTest, MetricsInPrometheusTextFormat) {
  start();
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "x", "ok", true));
  HttpReply r = get("/metrics");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.contentType, "text/plain; version=0.0.4; charset=utf-8");
  const std::string& m = r.body;
  EXPECT_NE(m.find("# TYPE dromedary_route_exchanges_total counter\n"), std::string::npos);
  EXPECT_NE(m.find("dromedary_context_exchanges_total{context=\"" + h.context.name() + "\"} 1\n"),
            std::string::npos);
  EXPECT_NE(m.find("dromedary_route_external_redeliveries_total{context=\"" + h.context.name() +
                   "\",route_id=\"orders\"} 0\n"),
            std::string::npos);
  EXPECT_NE(m.find("dromedary_route_exchanges_total{context=\"" + h.context.name() +
                   "\",route_id=\"orders\"} 1\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("dromedary_processor_exchanges_total{context=\"" + h.context.name() +
                   "\",route_id=\"orders\",node_id=\"deliver\"} 1\n"),
            std::string::npos);
  EXPECT_NE(m.find("dromedary_route_processing_seconds_bucket{context=\"" + h.context.name() +
                   "\",route_id=\"orders\",le=\"+Inf\"} 1\n"),
            std::string::npos) << m;
  // Prometheus' own parser, when Debian's prometheus package (promtool) is installed.
  if (std::system("command -v promtool > /dev/null 2>&1") == 0) {
    std::string file = ::testing::TempDir() + "/metrics.txt";
    std::ofstream(file) << m;
    EXPECT_EQ(std::system(("promtool check metrics < " + file + " > /dev/null 2>&1").c_str()), 0)
        << "promtool rejected:\n" << m;
  } else {
    GTEST_LOG_(INFO) << "promtool not installed: the exposition was checked by the asserts only";
  }
}

TEST_F(ManagementServerTest, RouteControlNeedsAuthorisation) {
  start();
  HttpReply refused = httpRequest(server->port(), "POST", "/api/routes/idle/start");
  EXPECT_EQ(refused.status, 401);
  EXPECT_NE(json::parse(refused.body)["error"].get<std::string>().find("route control is disabled"),
            std::string::npos);
  EXPECT_EQ(h.context.routeStatus("idle"), RouteStatus::Stopped);
}

TEST_F(ManagementServerTest, RouteControlWithAToken) {
  ManagementOptions options;
  options.token = "s3cret";
  start(options);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/idle/start", "Bearer wrong").status,
            403);
  HttpReply ok = httpRequest(server->port(), "POST", "/api/routes/idle/start", "Bearer s3cret");
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["state"], "Started");
  EXPECT_EQ(h.context.routeStatus("idle"), RouteStatus::Started);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/orders/suspend", "Bearer s3cret").status,
            200);
  EXPECT_EQ(h.context.routeStatus("orders"), RouteStatus::Suspended);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/orders/resume", "Bearer s3cret").status,
            200);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "x", "ok", true));
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/orders/reset-stats", "Bearer s3cret")
                .status,
            200);
  EXPECT_EQ(h.context.routeStatistics("orders")->exchangesTotal, 0u);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/nope/stop", "Bearer s3cret").status,
            404);
}

TEST_F(ManagementServerTest, ATokenThatDiffersAnywhereOrOnlyInLengthIsRefused) {
  ManagementOptions options;
  options.token = "s3cret";
  start(options);
  for (const char* sent : {"Bearer s3cre", "Bearer s3cret2", "Bearer S3cret", "Bearer x3cret",
                           "bearer s3cret", "s3cret", "Bearer "}) {
    EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/idle/start", sent).status, 403)
        << sent;
  }
  EXPECT_EQ(h.context.routeStatus("idle"), RouteStatus::Stopped);
}

TEST_F(ManagementServerTest, ARawInvalidByteInThePathIs404WithValidJson) {
  start();
  RawReply r = rawHttp(server->port(),
                       "GET /api/routes/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.status(), 404) << r.text;
  json body = json::parse(r.body());
  EXPECT_EQ(body["status"], 404);
}

TEST_F(ManagementServerTest, OversizedHeadersAre431AndBodies413EachNamingItsOwnLimit) {
  start();
  HttpReply headers = httpRequest(server->port(), "GET", "/api/health",
                                  HttpHeaders{{"X-Big", std::string(9000, 'h')}});
  EXPECT_EQ(headers.status, 431);
  EXPECT_NE(json::parse(headers.body)["error"].get<std::string>().find("8192 bytes"),
            std::string::npos)
      << headers.body;
  HttpReply body = httpRequest(server->port(), "POST", "/api/routes/orders/stop", "",
                               std::string(20 * 1024, 'x'));
  EXPECT_EQ(body.status, 413);
  EXPECT_NE(json::parse(body.body)["error"].get<std::string>().find("16384 bytes"),
            std::string::npos)
      << body.body;
}

TEST_F(ManagementServerTest, LoopbackControlWhenAllowed) {
  ManagementOptions options;
  options.allowLoopbackControl = true;
  start(options);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/orders/stop").status, 200);
  EXPECT_EQ(h.context.routeStatus("orders"), RouteStatus::Stopped);
}

// Stopping a route waits for its exchanges in flight (up to the shutdown timeout): the API
// answers 202 with the route Stopping rather than holding its thread, answers other requests
// meanwhile, and the route is Stopped once its exchange finished.
TEST(ManagementRouteControlTest, AStopThatWaitsIsAnswered202AndTheApiStaysResponsive) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("seda:slow").routeId("slow").delay(constant(Value(int64_t{1500}))).to("mock:done");
  });
  ManagementOptions options;
  options.allowLoopbackControl = true;
  ManagementServer server(h.context, options);
  ASSERT_TRUE(server.start());
  ASSERT_TRUE(h.producer.sendBody("seda:slow", "x"));
  while (h.context.inflight("slow") == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));

  auto begin = std::chrono::steady_clock::now();
  HttpReply stop = httpRequest(server.port(), "POST", "/api/routes/slow/stop");
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(1));
  ASSERT_EQ(stop.status, 202) << stop.body;
  EXPECT_EQ(json::parse(stop.body)["state"], "Stopping");
  EXPECT_EQ(json::parse(stop.body)["inflight"], 1);

  HttpReply route = httpRequest(server.port(), "GET", "/api/routes/slow");
  EXPECT_EQ(route.status, 200);
  EXPECT_EQ(json::parse(route.body)["state"], "Stopping");
  HttpReply again = httpRequest(server.port(), "POST", "/api/routes/slow/stop");
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_NE(again.body.find("route 'slow' is still Stopping"), std::string::npos) << again.body;

  h.mock("mock:done").expectedMessageCount(1);
  EXPECT_TRUE(h.mock("mock:done").assertIsSatisfied(std::chrono::seconds(5)));
  for (int i = 0; i < 100 && h.context.routeStatus("slow") != RouteStatus::Stopped; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(json::parse(httpRequest(server.port(), "GET", "/api/routes/slow").body)["state"],
            "Stopped");
}

TEST_F(ManagementServerTest, BadPathsMethodsAndSizesGetJsonErrors) {
  start();
  HttpReply missing = get("/api/nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(json::parse(missing.body)["status"], 404);
  EXPECT_EQ(get("/api/routes/nope").status, 404);
  EXPECT_EQ(get("/api/routes/orders/explode").status, 404);
  EXPECT_EQ(httpRequest(server->port(), "DELETE", "/api/routes").status, 405);
  EXPECT_EQ(get("/api/routes/orders/stop").status, 405) << "control is POST only";
  HttpReply big = httpRequest(server->port(), "POST", "/api/routes/orders/stop", "",
                              std::string(64 * 1024, 'x'));
  EXPECT_EQ(big.status, 413);
}

TEST_F(ManagementServerTest, APortInUseFailsNamingTheAddress) {
  start();
  ManagementOptions same;
  same.port = server->port();
  ManagementServer second(h.context, same);
  auto r = second.start();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            fmt::format("cannot bind the management server on 127.0.0.1:{}: Address already in use",
                        server->port()));
}

TEST_F(ManagementServerTest, ControlThatCannotBeDoneIsAConflict) {
  ManagementOptions options;
  options.token = "t";
  start(options);
  HttpReply r = httpRequest(server->port(), "POST", "/api/routes/orders/resume", "Bearer t");
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_FALSE(json::parse(r.body)["error"].get<std::string>().empty());
}

// The console's page is in the binary, its script and stylesheet inlined; processors carry
// where they sit, so that it can draw the route.
TEST_F(ManagementServerTest, TheConsoleIsServedFromTheBinary) {
  start();
  HttpReply page = get("/console");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.contentType, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<title>Dromedary console</title>"), std::string::npos);
  EXPECT_NE(page.body.find("function tree(route)"), std::string::npos) << "the script inlined";
  EXPECT_EQ(page.body.find("src=\"/console/console.js\""), std::string::npos);
  EXPECT_EQ(get("/console/").status, 200);
  EXPECT_EQ(get("/console/console.js").contentType, "text/javascript; charset=utf-8");
  EXPECT_EQ(get("/console/console.css").contentType, "text/css; charset=utf-8");
  EXPECT_EQ(get("/console/nope").status, 404);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/console").status, 405);
  json orders = getJson("/api/routes/orders");
  EXPECT_EQ(orders["processors"][0]["parent"], "");
  EXPECT_EQ(orders["processors"][1]["parent"], "only-ok");
  EXPECT_EQ(orders["processors"][1]["branch"], 0);
  EXPECT_EQ(orders["processors"][1]["clause"], false);
}

TEST_F(ManagementServerTest, BindsToLoopbackByDefault) {
  EXPECT_EQ(ManagementOptions{}.host, "127.0.0.1");
  ManagementOptions bad;
  bad.host = "not-an-address";
  ManagementServer s(h.context, bad);
  auto r = s.start();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "the management server's host 'not-an-address' is not an IP address");
}

}  // namespace
}  // namespace dromedary::testing
