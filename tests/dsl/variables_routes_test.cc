// SPDX-License-Identifier: Apache-2.0
// Camel 4's variables in route files: setVariable(s), removeVariable, convertVariableTo, the
// variable language, variableReceive / variableSend on from, to, toD and enrich, the
// camel.variable.* properties, kebab-case, and the errors a bad name gets.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using VariablesRoutesTest = RouteFileTest;

TEST_F(VariablesRoutesTest, YamlSetsReadsConvertsAndRemovesVariables) {
  loadYaml(R"~(
- route:
    from:
      uri: direct:yaml
      steps:
        - setVariable:
            name: myCounter
            expression:
              simple:
                expression: "${body}"
        - set-variables:
            variables:
              - name: a
                constant: "1"
              - name: global:shared
                simple: "${body}-global"
        - convert-variable-to: {name: myCounter, type: Integer}
        - setBody:
            variable: myCounter
        - setHeader:
            name: seen
            simple: "${variable.a} ${variable.global:shared} ${variableAs(myCounter, String)}"
        - remove-variable: a
        - setHeader:
            name: left
            simple: "${variables.size()}"
        - to: mock:yaml
)~");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "7"));
  const Exchange& ex = *h.mock("mock:yaml").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().getInt(), 7);
  EXPECT_EQ(ex.message().headers().get("seen")->as<std::string>(), "1 7-global 7");
  EXPECT_EQ(ex.message().headers().get("left")->as<std::string>(), "1");
}

TEST_F(VariablesRoutesTest, XmlVariablesAndVariableReceive) {
  loadXml(R"~(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml" variableReceive="incoming"/>
    <setVariable name="twice"><simple>${variable.incoming}${variable.incoming}</simple></setVariable>
    <to uri="direct:service" variableReceive="reply"/>
    <setBody><simple>${body}|${variable.twice}|${variable.reply}|${variable:header:reply.kind}</simple></setBody>
    <removeVariable name="*"/>
    <to uri="mock:xml"/>
  </route>
  <route>
    <from uri="direct:service"/>
    <setHeader name="kind"><constant>answer</constant></setHeader>
    <setBody><constant>pong</constant></setBody>
  </route>
</routes>)~");
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "ab"));
  EXPECT_EQ(bodies("mock:xml"), std::vector<std::string>{"|abab|pong|answer"});
}

TEST_F(VariablesRoutesTest, VariableSendOnToDAndEnrich) {
  loadYaml(R"~(
- from:
    uri: direct:in
    steps:
      - setVariable: {name: order, constant: o-1}
      - toD:
          uri: "direct:${header.target}"
          variableSend: order
          variableReceive: stock
      - enrich:
          constant: direct:price
          variable-send: order
          variable-receive: price
      - setBody:
          simple: "${body} ${variable.stock} ${variable.price}"
      - to: mock:out
- from:
    uri: direct:stock
    steps:
      - setBody: {simple: "stock of ${body}"}
- from:
    uri: direct:price
    steps:
      - setBody: {simple: "price of ${body}"}
)~");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "kept", "target", "stock"));
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"kept stock of o-1 price of o-1"});
}

TEST_F(VariablesRoutesTest, PollAndPollEnrichReceiveIntoVariables) {
  loadYaml(R"~(
- from:
    uri: direct:in
    steps:
      - pollEnrich:
          constant: seda:stock
          timeout: 1000
          variableReceive: stock
      - poll:
          uri: seda:price
          timeout: 1000
          variable-receive: price
      - setBody:
          simple: "${body} ${variable.stock} ${variable.price} ${variable:header:price.unit}"
      - to: mock:out
)~");
  ASSERT_TRUE(h.producer.sendBody("seda:stock", "12 left"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("seda:price", "9.50", "unit", "EUR"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "kept"));
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"kept 12 left 9.50 EUR"});
}

TEST_F(VariablesRoutesTest, PollReplacesTheMessageAndGivesNullWhenNothingCame) {
  loadXml(R"~(<routes>
  <route>
    <from uri="direct:in"/>
    <poll uri="seda:${header.queue}" timeout="0"/>
    <to uri="mock:out"/>
  </route>
</routes>)~");
  ASSERT_TRUE(h.producer.sendBody("seda:q1", "from the queue"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "queue", "q1"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "y", "queue", "q1"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->message().body().as<std::string>(), "from the queue");
  EXPECT_TRUE(got[1]->message().body().isNull()) << "timeout 0 and an empty queue: null";
}

TEST_F(VariablesRoutesTest, MarshalAndWireTapUseVariables) {
  loadYaml(R"~(
- from:
    uri: direct:in
    steps:
      - setVariable: {name: order, simple: "${body}"}
      - setBody: {constant: "kept"}
      - unmarshal:
          json: {}
          variableSend: order
          variableReceive: parsed
      - marshal:
          json: {}
          variableSend: parsed
          variableReceive: text
      - wireTap:
          uri: mock:tap
          variableSend: text
      - setHeader: {name: id, simple: "${variable.parsed[id]}"}
      - to: mock:out
)~");
  h.mock("mock:tap").expectedMessageCount(1);
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"id": "o-1"})"));
  auto out = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]->message().body().as<std::string>(), "kept");
  EXPECT_EQ(*out[0]->message().getHeader("id"), Value("o-1"));
  ASSERT_TRUE(h.mock("mock:tap").assertIsSatisfied());
  EXPECT_EQ(h.mock("mock:tap").receivedExchanges()[0]->message().body().as<std::string>(),
            R"({"id":"o-1"})");
}

TEST_F(VariablesRoutesTest, CamelVariablePropertiesSetGlobalAndRouteVariables) {
  h.context.properties().set("camel.variable.greeting", "Random number");
  h.context.properties().set("camel.variable.random", "999");
  h.context.properties().set("camel.variable.route.myRoute.gold", "true");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(R"~(
- route:
    id: myRoute
    from:
      uri: direct:in
      steps:
        - setBody:
            simple: "${variable.global:greeting} ${variable.global:random} ${variable.route:gold}"
        - to: mock:out
)~");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"Random number 999 true"});
  EXPECT_TRUE(h.context.variable("random")->isInt()) << "digits become a number, as Camel's";
}

TEST_F(VariablesRoutesTest, ABadVariableNameIsNamedWhereItIs) {
  std::string e = yamlError(R"~(
- from:
    uri: direct:in
    steps:
      - setVariable:
          name: cache:x
          constant: "1"
)~");
  EXPECT_NE(e.find("VariableRepository with id: cache does not exist"), std::string::npos) << e;
  EXPECT_NE(e.find("routes.yaml:5:"), std::string::npos) << e;
}

}  // namespace
}  // namespace dromedary::testing
