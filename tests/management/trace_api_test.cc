// SPDX-License-Identifier: Apache-2.0
// The management API's tracing and Kubernetes-style health over real sockets: the backlog
// tracer's events as JSON (by route, after a uid, the newest N), turning tracers on and off
// (a control action: the token), bad queries as 4xx; readiness fails with a consumer down,
// liveness does not.
#include <dromedary/management/management_server.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/http_client.h"
#include "support/probe_component.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using nlohmann::json;

class TraceApiTest : public ::testing::Test {
 protected:
  void start(TracingOptions tracing, ManagementOptions options = {}) {
    ASSERT_TRUE(h.context.setTracing(std::move(tracing)));
    h.start([](RouteBuilder& b) {
      b.from("direct:orders").routeId("orders").to("direct:audit").id("audit").to("mock:out");
      b.from("direct:audit").routeId("audit").setHeader("seen", constant("yes"));
    });
    server = std::make_unique<ManagementServer>(h.context, options);
    auto started = server->start();
    ASSERT_TRUE(started) << started.error().toString();
  }
  json getJson(const std::string& target, int status = 200) {
    HttpReply r = httpRequest(server->port(), "GET", target);
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    return json::parse(r.body);
  }

  RouteHarness h;
  std::unique_ptr<ManagementServer> server;
};

TracingOptions backlogOn() {
  TracingOptions t;
  t.backlog = true;
  t.removeOnDump = false;
  return t;
}

TEST_F(TraceApiTest, TracedMessagesAsJsonByRouteAfterAUidAndTheNewest) {
  start(backlogOn());
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "o-1", "kind", "gold"));
  json all = getJson("/api/trace");
  EXPECT_EQ(all["backlog"], true);
  EXPECT_EQ(all["logging"], false);
  // orders in, audit (to), audit in, setHeader, audit out, to mock, orders out.
  ASSERT_EQ(all["events"].size(), 7u) << all.dump(2);
  const json& first = all["events"][0];
  EXPECT_EQ(first["kind"], "routeIn");
  EXPECT_EQ(first["first"], true);
  EXPECT_EQ(first["routeId"], "orders");
  EXPECT_EQ(first["label"], "from[direct:orders]");
  EXPECT_EQ(first["headers"]["kind"], "gold");
  EXPECT_EQ(first["body"], "o-1");
  EXPECT_EQ(first["bodyType"], "String");
  EXPECT_EQ(all["events"][1]["nodeId"], "audit");
  EXPECT_EQ(all["events"][2]["first"], false) << "audit is not the exchange's first route";
  EXPECT_EQ(all["events"][6]["kind"], "routeOut");
  EXPECT_EQ(all["events"][6]["headers"]["seen"], "yes");

  json audit = getJson("/api/trace?route=audit");
  ASSERT_EQ(audit["events"].size(), 3u);
  for (const json& e : audit["events"]) EXPECT_EQ(e["routeId"], "audit");
  const uint64_t third = all["events"][2]["uid"];
  EXPECT_EQ(getJson("/api/trace?after=" + std::to_string(third))["events"].size(), 4u);
  json newest = getJson("/api/trace?limit=2");
  ASSERT_EQ(newest["events"].size(), 2u);
  EXPECT_EQ(newest["events"][1]["uid"], all["events"][6]["uid"]);
}

TEST_F(TraceApiTest, TurningTracersOnAndOffIsAControlAction) {
  TracingOptions standby;
  standby.backlogStandby = true;
  ManagementOptions options;
  options.token = "s3cret";
  start(standby, options);
  ASSERT_TRUE(h.producer.sendBody("direct:orders", "before"));
  EXPECT_TRUE(getJson("/api/trace")["events"].empty());
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/trace/enable").status, 401);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/trace/enable", "Bearer nope").status, 403);
  HttpReply on = httpRequest(server->port(), "POST", "/api/trace/enable", "Bearer s3cret");
  ASSERT_EQ(on.status, 200) << on.body;
  EXPECT_EQ(json::parse(on.body)["backlog"], true);
  ASSERT_TRUE(h.producer.sendBody("direct:orders", "after"));
  json events = getJson("/api/trace")["events"];
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["body"], "after");
  EXPECT_TRUE(getJson("/api/trace")["events"].empty()) << "removeOnDump: read once";
  EXPECT_EQ(
      httpRequest(server->port(), "POST", "/api/trace/disable?tracer=backlog", "Bearer s3cret")
          .status,
      200);
  ASSERT_TRUE(h.producer.sendBody("direct:orders", "off again"));
  EXPECT_TRUE(getJson("/api/trace")["events"].empty());
}

TEST_F(TraceApiTest, BadTraceRequestsAre4xx) {
  start(backlogOn());
  EXPECT_EQ(getJson("/api/trace?limit=ten", 400)["error"], "after and limit must be whole numbers");
  EXPECT_EQ(getJson("/api/trace?rout=x", 400)["error"],
            "unknown parameter 'rout'; expected route, after or limit");
  EXPECT_EQ(getJson("/api/trace/nope", 404)["status"], 404);
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/trace").status, 405);
  EXPECT_EQ(httpRequest(server->port(), "GET", "/api/trace/enable").status, 405);
  // A bad percent escape is refused naming it (the endpoint URI parser reads the query).
  EXPECT_NE(getJson("/api/trace?route=%zz%", 400)["error"].get<std::string>().find(
                "bad percent escape in '%zz%'"),
            std::string::npos);
  EXPECT_EQ(getJson("/api/trace?route=a%2Fb+c")["events"].size(), 0u);
  EXPECT_EQ(httpRequest(server->port(), "GET", "/api/trace?after=%").status, 400);
}

TEST_F(TraceApiTest, ARoutesFlightRecorderAsJson) {
  h.context.setStatisticsTimingSample(1);  // every exchange timed, so recorded
  start({});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "o-1", "kind", "gold"));
  json recent = getJson("/api/routes/orders/recent");
  ASSERT_EQ(recent["completed"].size(), 1u) << recent.dump(2);
  const json& e = recent["completed"][0];
  EXPECT_EQ(e["body"], "o-1");
  EXPECT_EQ(e["bodyType"], "String");
  EXPECT_EQ(e["headers"], "kind=gold, seen=yes");
  EXPECT_EQ(e["failed"], false);
  for (const char* key : {"exchangeId", "createdMillis", "endMillis", "elapsedMillis"}) {
    EXPECT_TRUE(e.contains(key)) << key;
  }
  EXPECT_TRUE(recent["failed"].empty());
  EXPECT_EQ(getJson("/api/routes/nope/recent", 404)["error"], "no route 'nope'");
  EXPECT_EQ(httpRequest(server->port(), "POST", "/api/routes/orders/recent").status, 405);
}

TEST_F(TraceApiTest, ReadinessFailsWithAConsumerDownAndLivenessDoesNot) {
  auto probe = std::make_unique<ProbeComponent>();
  ProbeComponent& component = *probe;
  h.context.addComponent(std::move(probe));
  ASSERT_TRUE(h.context.addRoutes(
      [](RouteBuilder& b) { b.from("probe:in").routeId("consumed").to("mock:consumed"); }));
  start({});
  EXPECT_EQ(getJson("/q/health/ready")["status"], "UP");
  component.setProblem("not connected to the broker");
  json ready = getJson("/q/health/ready", 503);
  EXPECT_EQ(ready["status"], "DOWN");
  EXPECT_NE(ready.dump().find("not connected to the broker"), std::string::npos);
  EXPECT_EQ(getJson("/q/health", 503)["status"], "DOWN");
  EXPECT_EQ(getJson("/q/health/live")["status"], "UP");
}

}  // namespace
}  // namespace dromedary::testing
