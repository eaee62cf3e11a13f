// SPDX-License-Identifier: Apache-2.0
// The Kamelets Dromedary ships that work on HTTP and on headers: http-sink, http-source and
// http-secured-sink against a platform-http server on a real socket, and the filter and
// header actions of Camel's catalogue (drop-headers, has-header, header-matches,
// is-tombstone, topic-name-matches, set-kafka-key), and the JSON field actions on Camel's
// transform classes made natively (extract-, insert-, drop-, hoist-, mask- and replace-field,
// value-to-key, regex-router).
#include <chrono>
#include <string>
#include <vector>

#include <dromedary/http/platform_http.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

class ShippedKameletsTest : public RouteFileTest {
 protected:
  // A server on a free port of 127.0.0.1 answering every path with what it received; its port
  // is the property `port` of the context under test.
  void serveEcho() {
    server.context.properties().set("camel.server.host", "127.0.0.1");
    server.context.properties().set("camel.server.port", "0");
    ASSERT_TRUE(server.context.addRoutes([](RouteBuilder& b) {
      b.from("platform-http:/echo")
          .setBody(simple("${header.CamelHttpMethod} accept=${header.Accept} "
                          "auth=${header.Authorization} body=${body}"));
    }));
    ASSERT_TRUE(server.context.start());
    h.context.properties().set("port", std::to_string(platformHttpPort(server.context)));
  }
  std::string header(std::string_view mock, size_t i, std::string_view name) {
    const Value* v = h.mock(std::string(mock)).receivedExchanges().at(i)->message().headers().get(name);
    return v ? v->toString() : "(none)";
  }

  RouteHarness server;
};

TEST_F(ShippedKameletsTest, HttpSinkSendsEachMessageWithItsMethodAndTheReplyGoesOn) {
  serveEcho();
  loadYaml(R"(
- from:
    uri: direct:post
    steps:
      - setHeader: {name: CamelHttpUri, constant: "http://127.0.0.1:1/elsewhere"}
      - to: "kamelet:http-sink?url=http://127.0.0.1:{{port}}/echo"
      - to: mock:posted
- from:
    uri: direct:put
    steps:
      - to: "kamelet:http-sink?url=http://127.0.0.1:{{port}}/echo&method=PUT"
      - to: mock:put
)");
  ASSERT_TRUE(h.producer.sendBody("direct:post", "order-1"));
  ASSERT_TRUE(h.producer.sendBody("direct:put", "order-2"));
  // A CamelHttpUri left by an earlier call does not send the request elsewhere.
  EXPECT_EQ(bodies("mock:posted"), (std::vector<std::string>{"POST accept=*/* auth= body=order-1"}));
  EXPECT_EQ(bodies("mock:put"), (std::vector<std::string>{"PUT accept=*/* auth= body=order-2"}));
  EXPECT_NE(yamlError(R"(
- from:
    uri: direct:bad
    steps: [{to: "kamelet:http-sink?url=http://127.0.0.1:1/&method=FETCH"}]
)").find("FETCH"),
            std::string::npos);
  h.context.stop();
}

TEST_F(ShippedKameletsTest, HttpSourceFetchesTheUrlOnItsPeriodAcceptingItsContentType) {
  serveEcho();
  loadYaml(R"(
- from:
    uri: "kamelet:http-source?url=http://127.0.0.1:{{port}}/echo&period=50&contentType=text/plain"
    steps: [{to: mock:fetched}]
)");
  auto& fetched = h.mock("mock:fetched");
  fetched.expectedMinimumMessageCount(2);
  ASSERT_TRUE(fetched.assertIsSatisfied(10s));
  EXPECT_EQ(bodies("mock:fetched")[0], "GET accept=text/plain auth= body=");
  h.context.stop();
}

TEST_F(ShippedKameletsTest, HttpSecuredSinkSendsItsCredentialsAndRefusesOAuth) {
  serveEcho();
  loadYaml(R"(
- from:
    uri: direct:basic
    steps:
      - to: "kamelet:http-secured-sink?url=http://127.0.0.1:{{port}}/echo&authMethod=Basic&authUsername=ann&authPassword=secret&authenticationPreemptive=true"
      - to: mock:basic
)");
  ASSERT_TRUE(h.producer.sendBody("direct:basic", "b"));
  // ann:secret in base64.
  EXPECT_EQ(bodies("mock:basic"),
            (std::vector<std::string>{"POST accept=*/* auth=Basic YW5uOnNlY3JldA== body=b"}));
  h.context.stop();
  RouteHarness other;
  auto loaded = loadYamlRoutes(other.context, R"(
- from:
    uri: direct:oauth
    steps: [{to: "kamelet:http-secured-sink?url=http://127.0.0.1:1/&oauth2ClientId=me"}]
)", "routes.yaml");
  std::string error = loaded ? other.context.start().error().toString() : loaded.error().toString();
  EXPECT_NE(error.find("oauth2ClientId"), std::string::npos) << error;
}

TEST_F(ShippedKameletsTest, DropHeadersRemovesThoseThatMatchButTheExcluded) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - to: "kamelet:drop-headers-action?pattern=Camel*&excludePattern=CamelHttp*"
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:in", "x",
      {{"CamelFileName", Value("a.txt")}, {"CamelHttpPath", Value("/p")}, {"order", Value("7")}}));
  EXPECT_EQ(header("mock:out", 0, "CamelFileName"), "(none)");
  EXPECT_EQ(header("mock:out", 0, "CamelHttpPath"), "/p");
  EXPECT_EQ(header("mock:out", 0, "order"), "7");
}

TEST_F(ShippedKameletsTest, HasHeaderLetsThroughWhatHasTheHeaderOrItsValue) {
  loadYaml(R"(
- from:
    uri: direct:any
    steps: [{to: "kamelet:has-header-filter-action?name=tenant"}, {to: mock:any}]
- from:
    uri: direct:acme
    steps: [{to: "kamelet:has-header-filter-action?name=tenant&value=acme"}, {to: mock:acme}]
)");
  for (const char* route : {"direct:any", "direct:acme"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeaders(route, "1", {{"tenant", Value("acme")}}));
    ASSERT_TRUE(h.producer.sendBodyAndHeaders(route, "2", {{"tenant", Value("other")}}));
    ASSERT_TRUE(h.producer.sendBody(route, "3"));
  }
  EXPECT_EQ(bodies("mock:any"), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(bodies("mock:acme"), (std::vector<std::string>{"1"}));
}

TEST_F(ShippedKameletsTest, HeaderMatchesAndTopicNameMatchesLetThroughWhatMatchesWhole) {
  loadYaml(R"(
- from:
    uri: direct:region
    steps:
      - to: "kamelet:header-matches-filter-action?headerName=region&regex=eu-.*"
      - to: mock:region
- from:
    uri: direct:topic
    steps:
      - to: "kamelet:topic-name-matches-filter-action?regex=orders\\..*"
      - to: mock:topic
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:region", "1", {{"region", Value("eu-west")}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:region", "2", {{"region", Value("us-eu-x")}}));
  ASSERT_TRUE(h.producer.sendBody("direct:region", "3"));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:topic", "a", {{"kafka.TOPIC", Value("orders.eu")}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:topic", "b", {{"kafka.TOPIC", Value("ordersXeu")}}));
  EXPECT_EQ(bodies("mock:region"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(bodies("mock:topic"), (std::vector<std::string>{"a"}));
}

TEST_F(ShippedKameletsTest, IsTombstoneStopsWhatHasNoBody) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps: [{to: kamelet:is-tombstone-filter-action}, {to: mock:out}]
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value()));
  ASSERT_TRUE(h.producer.sendBody("direct:in", ""));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "kept"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"kept"}));
}

TEST_F(ShippedKameletsTest, SetKafkaKeyMakesTheHeaderTheKeyAndDeletesItWhenAsked) {
  loadYaml(R"(
- from:
    uri: direct:keep
    steps: [{to: "kamelet:set-kafka-key-action?headerName=orderId"}, {to: mock:keep}]
- from:
    uri: direct:drop
    steps:
      - to: "kamelet:set-kafka-key-action?headerName=orderId&forceHeaderDeletion=true"
      - to: mock:drop
)");
  for (const char* route : {"direct:keep", "direct:drop"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeaders(route, "x", {{"orderId", Value("o-42")}}));
  }
  EXPECT_EQ(header("mock:keep", 0, "kafka.KEY"), "o-42");
  EXPECT_EQ(header("mock:keep", 0, "orderId"), "o-42");
  EXPECT_EQ(header("mock:drop", 0, "kafka.KEY"), "o-42");
  EXPECT_EQ(header("mock:drop", 0, "orderId"), "(none)");
}

// The field actions read JSON text when Content-Type says so and write the result back as
// JSON text; without it they work on the body as it is (a map after json-deserialize-action).
TEST_F(ShippedKameletsTest, ExtractFieldReplacesTheBodyOrFillsAHeader) {
  loadYaml(R"(
- from:
    uri: direct:text
    steps: [{to: "kamelet:extract-field-action?field=order"}, {to: mock:text}]
- from:
    uri: direct:raw
    steps: [{to: "kamelet:extract-field-action?field=name&trimField=true"}, {to: mock:raw}]
- from:
    uri: direct:map
    steps:
      - to: kamelet:json-deserialize-action
      - to: "kamelet:extract-field-action?field=name"
      - to: mock:map
- from:
    uri: direct:header
    steps:
      - to: "kamelet:extract-field-action?field=name&headerOutput=true&headerOutputName=who&strictHeaderCheck=true"
      - to: mock:header
)");
  const Headers json{{"Content-Type", Value("application/json")}};
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:text", R"({"order":{"id":7},"x":1})", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:raw", R"({"name":"Ann"})", json));
  ASSERT_TRUE(h.producer.sendBody("direct:map", R"({"name":"Bob"})"));
  ASSERT_TRUE(h.producer.sendBody("direct:header", R"({"name":"Cy"})"));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:header", R"({"name":"Di"})",
                                            {{"who", Value("kept")}}));
  EXPECT_EQ(bodies("mock:text"), (std::vector<std::string>{R"({"id":7})"}));
  EXPECT_EQ(header("mock:text", 0, "Content-Type"), "application/json");
  EXPECT_EQ(bodies("mock:raw"), (std::vector<std::string>{"Ann"}));  // trimField: not re-quoted
  EXPECT_EQ(bodies("mock:map"), (std::vector<std::string>{"Bob"}));
  // headerOutput: the field in the header, the body kept; strictHeaderCheck: a header already
  // there keeps its value and the field goes to the body.
  EXPECT_EQ(header("mock:header", 0, "who"), "Cy");
  EXPECT_EQ(bodies("mock:header"), (std::vector<std::string>{R"({"name":"Cy"})", "Di"}));
  EXPECT_EQ(header("mock:header", 1, "who"), "kept");
}

TEST_F(ShippedKameletsTest, InsertDropAndHoistFieldReshapeJsonBodies) {
  loadYaml(R"(
- from:
    uri: direct:insert
    steps: [{to: "kamelet:insert-field-action?field=source&value=shop-${header.shop}"}, {to: mock:insert}]
- from:
    uri: direct:drop
    steps: [{to: "kamelet:drop-field-action?field=secret"}, {to: mock:drop}]
- from:
    uri: direct:hoist
    steps: [{to: "kamelet:hoist-field-action?field=event"}, {to: mock:hoist}]
)");
  const Headers json{{"Content-Type", Value("application/json")}, {"shop", Value("7")}};
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:insert", R"({"id":1})", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:insert", R"(["a"])", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:drop", R"({"id":1,"secret":"s"})", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:drop", R"([1,2])", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:hoist", R"({"id":1})", json));
  ASSERT_TRUE(h.producer.sendBody("direct:hoist", "plain"));
  EXPECT_EQ(bodies("mock:insert"),
            (std::vector<std::string>{R"({"id":1,"source":"shop-7"})", R"(["a","shop-7"])"}));
  EXPECT_EQ(bodies("mock:drop"), (std::vector<std::string>{R"({"id":1})", "[1,2]"}));
  EXPECT_EQ(bodies("mock:hoist"),
            (std::vector<std::string>{R"({"event":{"id":1}})", R"({"event":"plain"})"}));
  EXPECT_EQ(header("mock:hoist", 1, "Content-Type"), "application/json");
}

TEST_F(ShippedKameletsTest, ABodyThatIsNotJsonGoesToTheErrorHandlerNamingTheTransform) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - doTry:
          steps: [{to: "kamelet:drop-field-action?field=a"}, {to: mock:done}]
          doCatch:
            - exception: [java.lang.IllegalArgumentException]
              steps: [{setBody: {simple: "${exception.message}"}}, {to: mock:caught}]
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "{not json"));
  ASSERT_EQ(bodies("mock:caught").size(), 1u);
  EXPECT_NE(bodies("mock:caught")[0].find("DropField: the body is not JSON"), std::string::npos)
      << bodies("mock:caught")[0];
  EXPECT_TRUE(bodies("mock:done").empty());
}

// Camel's classes are bean types of route files too, with their properties checked.
TEST_F(ShippedKameletsTest, TheTransformClassesAreBeansOfRouteFiles) {
  loadYaml(R"(
- beans:
    - name: dropSecret
      type: "#class:org.apache.camel.component.kafka.transform.DropField"
      properties: {field: secret}
- from:
    uri: direct:in
    steps: [{process: {ref: dropSecret}}, {to: mock:out}]
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"a":1,"secret":2})"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{R"({"a":1})"}));
  RouteHarness other;
  auto loaded = loadYamlRoutes(other.context, R"(
- beans:
    - name: x
      type: "#class:org.apache.camel.component.kafka.transform.ExtractField"
      properties: {field: a, headerOutput: maybe}
)", "routes.yaml");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().toString().find("headerOutput must be true or false, not 'maybe'"),
            std::string::npos)
      << loaded.error().toString();
  auto unknown = loadYamlRoutes(other.context, R"(
- beans:
    - name: y
      type: "#class:org.apache.camel.component.kafka.transform.DropField"
      properties: {fields: a}
)", "routes.yaml");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().toString().find("DropField has no property 'fields' (it takes: field)"),
            std::string::npos)
      << unknown.error().toString();
}

TEST_F(ShippedKameletsTest, MaskReplaceAndValueToKeyWorkOnObjectFields) {
  loadYaml(R"(
- from:
    uri: direct:mask
    steps: [{to: "kamelet:mask-field-action?fields=name,age&replacement=0"}, {to: mock:mask}]
- from:
    uri: direct:replace
    steps:
      - to: "kamelet:replace-field-action?disabled=secret&renames=name:fullName"
      - to: mock:replace
- from:
    uri: direct:key
    steps: [{to: "kamelet:value-to-key-action?fields=id,region"}, {to: mock:key}]
)");
  const Headers json{{"Content-Type", Value("application/json")}};
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:mask", R"({"name":"Ann","age":40,"city":"Oslo","gone":null})", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:replace", R"({"name":"Ann","secret":"s","age":40})", json));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:key", R"({"id":7,"region":"eu","x":1})", json));
  EXPECT_EQ(bodies("mock:mask"),
            (std::vector<std::string>{R"({"name":"0","age":0,"city":"Oslo","gone":null})"}));
  EXPECT_EQ(bodies("mock:replace"), (std::vector<std::string>{R"({"fullName":"Ann","age":40})"}));
  EXPECT_EQ(bodies("mock:key"), (std::vector<std::string>{R"({"id":7,"region":"eu","x":1})"}));
  EXPECT_EQ(header("mock:key", 0, "kafka.KEY"), R"({"id":7,"region":"eu"})");
}

// Camel's own Kamelets set exchange properties and call `bean: CLASS`: a class Dromedary makes
// is made under its name, and reads those properties; a number masked with text fails.
TEST_F(ShippedKameletsTest, ABeanStepNamingATransformClassReadsTheExchangeProperties) {
  loadYaml(R"(
- from:
    uri: direct:mask
    steps:
      - setProperty: {name: fields, constant: "age"}
      - setProperty: {name: replacement, constant: "x"}
      - doTry:
          steps: [{bean: "org.apache.camel.component.kafka.transform.MaskField"}]
          doCatch:
            - exception: [java.lang.IllegalArgumentException]
              steps: [{setBody: {simple: "${exception.message}"}}]
      - to: mock:mask
- from:
    uri: direct:replace
    steps:
      - setProperty: {name: enabled, constant: "a,b"}
      - setProperty: {name: renames, constant: "b:c"}
      - bean: {beanType: "org.apache.camel.component.kafka.transform.ReplaceField"}
      - to: mock:replace
)");
  ASSERT_TRUE(h.producer.sendBody("direct:mask", R"({"age":40})"));
  ASSERT_TRUE(h.producer.sendBody("direct:replace", R"({"a":1,"b":2,"z":3})"));
  EXPECT_EQ(bodies("mock:mask"),
            (std::vector<std::string>{"MaskField: cannot mask a number with 'x', which is not one"}));
  EXPECT_EQ(bodies("mock:replace"), (std::vector<std::string>{R"({"a":1,"c":2})"}));
  EXPECT_NE(yamlError(R"(
- from:
    uri: direct:java
    steps: [{bean: {beanType: "com.acme.Pricing"}}]
)").find("bean of type 'com.acme.Pricing' cannot be created"),
            std::string::npos);
}

TEST_F(ShippedKameletsTest, RegexRouterSendsAMatchingTopicElsewhereAndRewritesCeType) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - to: "kamelet:regex-router-action?regex=orders-(.*)&replacement=archive-$1"
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:in", "a", {{"kafka.TOPIC", Value("orders-eu")}, {"ce-type", Value("orders-created")}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "b", {{"kafka.TOPIC", Value("x-orders-eu")}}));
  EXPECT_EQ(header("mock:out", 0, "kafka.OVERRIDE_TOPIC"), "archive-eu");
  EXPECT_EQ(header("mock:out", 0, "ce-type"), "archive-created");
  EXPECT_EQ(header("mock:out", 1, "kafka.OVERRIDE_TOPIC"), "(none)");  // not a whole match
  // Named groups and escapes in Java's replacement syntax; a bad regex fails at the load.
  RouteHarness other;
  auto loaded = loadYamlRoutes(other.context, R"yaml(
- beans:
    - name: r
      type: "#class:org.apache.camel.component.kafka.transform.RegexRouter"
      properties: {regex: "(?P<region>[a-z]+)-(\\d+)", replacement: "${region}\\$$2"}
- from:
    uri: direct:named
    steps: [{process: {ref: r}}, {to: mock:named}]
)yaml", "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(other.context.start());
  ASSERT_TRUE(other.producer.sendBodyAndHeaders("direct:named", "c", {{"kafka.TOPIC", Value("eu-42")}}));
  const Value* topic =
      other.mock("mock:named").receivedExchanges().at(0)->message().headers().get("kafka.OVERRIDE_TOPIC");
  ASSERT_NE(topic, nullptr);
  EXPECT_EQ(topic->toString(), "eu$42");
  other.context.stop();
  EXPECT_NE(yamlError(R"(
- from:
    uri: direct:bad
    steps: [{to: "kamelet:regex-router-action?regex=orders-(&replacement=x"}]
)").find("RegexRouter: the regex 'orders-(' is not valid"),
            std::string::npos);
}

// What Camel's classes do when their inputs are missing or wrong: MaskField without a
// replacement empties each value as its type; a rename without a colon, a HoistField without a
// field name and a RegexRouter without its regex fail the exchange saying what is missing.
TEST_F(ShippedKameletsTest, TransformsWithoutTheirInputsMaskToEmptyValuesOrFailSayingWhat) {
  loadYaml(R"(
- from:
    uri: direct:mask
    steps:
      - setProperty: {name: fields, constant: "s,n,d,b,l,m"}
      - bean: "org.apache.camel.component.kafka.transform.MaskField"
      - to: mock:mask
- from:
    uri: direct:fail
    steps:
      - doTry:
          steps: [{toD: "${header.step}"}]
          doCatch:
            - exception: [java.lang.IllegalArgumentException]
              steps: [{setBody: {simple: "${exception.message}"}}]
      - to: mock:failed
- from:
    uri: direct:rename
    steps:
      - setProperty: {name: renames, constant: "a"}
      - bean: "org.apache.camel.component.kafka.transform.ReplaceField"
- from:
    uri: direct:hoist
    steps: [{bean: "org.apache.camel.component.kafka.transform.HoistField"}]
- from:
    uri: direct:route
    steps: [{bean: "org.apache.camel.component.kafka.transform.RegexRouter"}]
)");
  ASSERT_TRUE(h.producer.sendBody(
      "direct:mask", R"({"s":"x","n":5,"d":1.5,"b":true,"l":[1],"m":{"k":1},"kept":"y"})"));
  EXPECT_EQ(bodies("mock:mask"),
            (std::vector<std::string>{
                R"({"s":"","n":0,"d":0.0,"b":false,"l":[],"m":{},"kept":"y"})"}));
  for (const char* step : {"direct:rename", "direct:hoist", "direct:route"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:fail", R"({"a":1})",
                                              {{"step", Value(step)}}));
  }
  EXPECT_EQ(bodies("mock:failed"),
            (std::vector<std::string>{
                "ReplaceField: the rename 'a' is not old:new",
                "HoistField: no field name (the property 'field')",
                "RegexRouter: no regex and replacement (the properties 'regex' and "
                "'replacement')"}));
}

}  // namespace
}  // namespace dromedary::testing
