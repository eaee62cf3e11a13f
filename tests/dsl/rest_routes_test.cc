// SPDX-License-Identifier: Apache-2.0
// Camel's rest and restConfiguration in YAML and XML route files: the verbs served over real
// sockets (the same services as the C++ REST DSL's test), and each error with its position.
#include <gtest/gtest.h>

#include <dromedary/http/platform_http.h>

#include "support/http_client.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class RestRoutesTest : public RouteFileTest {
 protected:
  RestRoutesTest() { h.context.properties().set("camel.server.host", "127.0.0.1"); }

  // The answers to the same four requests, whatever front end declared the services.
  void expectUserServices() {
    uint16_t port = platformHttpPort(h.context);
    ASSERT_NE(port, 0);
    EXPECT_EQ(httpRequest(port, "GET", "/api/users/7", HttpHeaders{}).body, "user 7");
    HttpReply added = httpRequest(port, "POST", "/api/users",
                                  HttpHeaders{{"Content-Type", "text/plain"}}, "ann");
    EXPECT_EQ(added.body, "added ann");
    EXPECT_EQ(httpRequest(port, "POST", "/api/users",
                          HttpHeaders{{"Content-Type", "application/json"}}, "{}")
                  .status,
              415);
    EXPECT_EQ(httpRequest(port, "DELETE", "/api/users/7", HttpHeaders{}).status, 405);
    auto ids = h.context.routeIds();
    EXPECT_NE(std::find(ids.begin(), ids.end(), "get-user"), ids.end());
  }
};

TEST_F(RestRoutesTest, YamlRestVerbsAreServedUnderTheContextPath) {
  loadYaml(R"(
- restConfiguration:
    component: platform-http
    contextPath: /api
    port: 0
- rest:
    path: /users
    get:
      - id: get-user
        path: /{id}
        description: one user
        param:
          - {name: id, type: path, required: true}
        to: direct:getUser
    post:
      - consumes: text/plain
        to:
          uri: direct:addUser
- from:
    uri: direct:getUser
    steps:
      - transform: {simple: "user ${header.id}"}
- from:
    uri: direct:addUser
    steps:
      - transform: {simple: "added ${body}"}
)");
  expectUserServices();
}

TEST_F(RestRoutesTest, XmlRestVerbsAreServedUnderTheContextPath) {
  loadXml(R"(<camelContext xmlns="http://camel.apache.org/schema/spring">
  <restConfiguration component="platform-http" contextPath="/api" port="0"/>
  <rest path="/users">
    <get uri="/{id}" id="get-user">
      <description>one user</description>
      <param name="id" type="path" required="true"/>
      <to uri="direct:getUser"/>
    </get>
    <post consumes="text/plain"><to uri="direct:addUser"/></post>
  </rest>
  <route><from uri="direct:getUser"/><transform><simple>user ${header.id}</simple></transform></route>
  <route><from uri="direct:addUser"/><transform><simple>added ${body}</simple></transform></route>
</camelContext>)");
  expectUserServices();
}

TEST_F(RestRoutesTest, XmlRestsRootHoldsRestsAndTheirConfiguration) {
  loadXml(R"(<rests xmlns="http://camel.apache.org/schema/spring">
  <restConfiguration contextPath="/api" port="0"/>
  <rest path="/users">
    <get path="/{id}" id="get-user"><to uri="direct:getUser"/></get>
    <post consumes="text/plain"><to uri="direct:addUser"/></post>
  </rest>
</rests>)");
  ASSERT_TRUE(loadYamlRoutes(h.context, R"(
- from: {uri: direct:getUser, steps: [{transform: {simple: "user ${header.id}"}}]}
- from: {uri: direct:addUser, steps: [{transform: {simple: "added ${body}"}}]}
)", "routes.yaml"));
  ASSERT_TRUE(h.context.startRoute(h.context.routeIds().back()));
  ASSERT_TRUE(h.context.startRoute(h.context.routeIds()[h.context.routeIds().size() - 2]));
  expectUserServices();
}

TEST_F(RestRoutesTest, ADisabledVerbOrRestMakesNoRoute) {
  h.context.properties().set("beta", "true");
  loadYaml(R"(
- restConfiguration: {port: 0}
- rest:
    path: /a
    get:
      - {path: /on, to: direct:x}
      - {path: /off, disabled: "{{beta}}", to: direct:x}
- rest:
    path: /b
    disabled: true
    get: [{to: direct:x}]
- from: {uri: direct:x, steps: [{setBody: {constant: "x"}}]}
)");
  uint16_t port = platformHttpPort(h.context);
  EXPECT_EQ(httpRequest(port, "GET", "/a/on", HttpHeaders{}).status, 200);
  EXPECT_EQ(httpRequest(port, "GET", "/a/off", HttpHeaders{}).status, 404);
  EXPECT_EQ(httpRequest(port, "GET", "/b", HttpHeaders{}).status, 404);
}

TEST_F(RestRoutesTest, ErrorsNameTheFileLineAndKey) {
  EXPECT_EQ(yamlError(R"(
- rest:
    path: /a
    get:
      - pth: /b
        to: direct:x
)"),
            "unknown key 'pth' in get at routes.yaml:5:9; did you mean 'path'?");
  EXPECT_EQ(yamlError(R"(
- rest:
    path: /a
    get:
      - path: /b
)"),
            "rest GET /a/b has no to at routes.yaml:5:9; say where its requests "
            "go, e.g. 'to: direct:name'");
}

TEST_F(RestRoutesTest, AMalformedRestConfigurationOrRestIsRefusedWhereItIs) {
  EXPECT_EQ(yamlError("- restConfiguration: {port: 0}\n- restConfiguration: {port: 1}\n"),
            "a second restConfiguration: one serves every rest of the load at routes.yaml:2:3");
  EXPECT_EQ(yamlError("- restConfiguration: {port: http}\n"),
            "port 'http' is not a TCP port (0 to 65535) at routes.yaml:1:29");
  EXPECT_EQ(yamlError("- restConfiguration: {scheme: https}\n"),
            "scheme 'https' is not served: only http at routes.yaml:1:31");
  EXPECT_EQ(yamlError("- restConfiguration: {contextpath: /api}\n"),
            "unknown key 'contextpath' in restConfiguration at routes.yaml:1:36; did you mean "
            "'contextPath'?");
  EXPECT_EQ(yamlError("- rest: {path: /a}\n"),
            "rest has no verb at routes.yaml:1:3; add get, post, put, patch, delete or head");
  EXPECT_EQ(yamlError("- rest: {path: /a, clientRequestValidation: true, get: [{to: direct:x}]}\n"),
            "clientRequestValidation: true is not supported: remove it, or check the request in "
            "the route at routes.yaml:1:20");
}

// bindingMode json: the request's JSON is maps and lists in the route, and maps and lists in
// the reply are JSON text; auto binds only requests that say they are JSON.
TEST_F(RestRoutesTest, BindingModeJsonReadsAndWritesBodiesAsJson) {
  loadYaml(R"(
- restConfiguration:
    bindingMode: json
    port: 0
- rest:
    path: /orders
    post:
      - type: Order
        outType: Order
        to: direct:order
    put:
      - bindingMode: auto
        to: direct:order
    get:
      - bindingMode: "off"
        to: direct:text
- from:
    uri: direct:order
    steps:
      - to: mock:orders
- from:
    uri: direct:text
    steps:
      - setBody: {constant: "plain"}
)");
  uint16_t port = platformHttpPort(h.context);
  ASSERT_NE(port, 0);
  HttpReply posted = httpRequest(port, "POST", "/orders", HttpHeaders{{"Content-Type", "application/json"}},
                                 R"({"sku": "A-1", "qty": 3})");
  EXPECT_EQ(posted.status, 200);
  EXPECT_EQ(posted.body, R"({"sku":"A-1","qty":3})");
  HttpReply text = httpRequest(port, "PUT", "/orders", HttpHeaders{{"Content-Type", "text/plain"}}, "as is");
  EXPECT_EQ(text.body, "as is");
  HttpReply list = httpRequest(port, "PUT", "/orders", HttpHeaders{{"Content-Type", "application/json"}}, "[1, 2]");
  EXPECT_EQ(list.body, "[1,2]");
  EXPECT_EQ(httpRequest(port, "GET", "/orders", HttpHeaders{}).body, "plain");
  auto received = h.mock("mock:orders").receivedExchanges();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_TRUE(received[0]->message().body().isMap());
  EXPECT_TRUE(received[1]->message().body().isString() || received[1]->message().body().isBytes());
  EXPECT_TRUE(received[2]->message().body().isList());
}

TEST_F(RestRoutesTest, UnsupportedOptionsAreRefusedWithTheReason) {
  EXPECT_EQ(yamlError(R"(
- restConfiguration:
    bindingMode: xml
- rest:
    get: [{to: direct:x}]
)"),
            "bindingMode 'xml' is not supported at routes.yaml:3:18; off, json or auto: XML "
            "bodies are not bound here");
  EXPECT_EQ(yamlError(R"(
- restConfiguration:
    apiContextPath: /api-doc
)"),
            "apiContextPath: an OpenAPI document is served only for a rest openApi at "
            "routes.yaml:3:21; remove it; code-first rests have no document here");
  EXPECT_EQ(yamlError(R"(
- rest:
    get:
      - path: /q
        param: [{name: size, type: query, defaultValue: "10"}]
        to: direct:x
)"),
            "a param's defaultValue is not applied here at routes.yaml:5:57; "
            "set the header in the route when the request lacks it");
  EXPECT_EQ(xmlError(R"(<rests><rest path="/a"><get><route><to uri="mock:x"/></route></get></rest></rests>)"),
            "a route inside a rest verb is Camel 2's form at routes.xml:1:29; put "
            "the steps in a route from direct:name and write <to uri=\"direct:name\"/>");
  EXPECT_EQ(xmlError(R"(<rests><restConfiguration component="jetty"/><rest><get><to uri="mock:x"/></get></rest></rests>)"),
            "restConfiguration component 'jetty' is not available: REST services "
            "are served by platform-http at routes.xml:1:8");
}

}  // namespace
}  // namespace dromedary::testing
