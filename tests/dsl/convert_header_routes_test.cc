// SPDX-License-Identifier: Apache-2.0
// Camel 4's header steps in route files: convertHeaderTo, convertBodyTo's keys (charset,
// mandatory), and setHeaders.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ConvertHeaderRoutesTest = RouteFileTest;

TEST_F(ConvertHeaderRoutesTest, InYaml) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - convert-header-to: {name: amount, type: Integer}
      - convertHeaderTo: {name: amount, type: String, toName: amountText}
      - convertBodyTo: {type: Integer, mandatory: false}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "not a number", "amount", Value("7")));
  const Message& m = h.mock("mock:out").receivedExchanges().at(0)->message();
  EXPECT_EQ(*m.getHeader("amount"), Value(7));
  EXPECT_EQ(*m.getHeader("amountText"), Value("7"));
  EXPECT_TRUE(m.body().isNull());
}

TEST_F(ConvertHeaderRoutesTest, InXml) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:in"/>
    <convertHeaderTo name="amount" type="java.lang.Integer"/>
    <convertBodyTo type="String" charset="ISO-8859-1"/>
    <to uri="mock:out"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(Bytes(std::string("caf\xe9"))),
                                           "amount", Value("7")));
  const Message& m = h.mock("mock:out").receivedExchanges().at(0)->message();
  EXPECT_EQ(*m.getHeader("amount"), Value(7));
  EXPECT_EQ(m.body(), Value("caf\xc3\xa9"));
}

TEST_F(ConvertHeaderRoutesTest, AMissingNameIsReportedWhereTheStepIs) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - convertHeaderTo: {type: Integer}
)");
  EXPECT_NE(e.find("routes.yaml:5:9"), std::string::npos) << e;
  EXPECT_NE(e.find("name"), std::string::npos) << e;
}

TEST_F(ConvertHeaderRoutesTest, SetHeadersSetsEachInOrderInYamlAndXml) {
  loadYaml(R"(
- from:
    uri: direct:yaml
    steps:
      - setHeaders:
          headers:
            - name: a
              constant: one
            - name: b
              simple: "${header.a}-two"
      - to: mock:yaml
)");
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <setHeaders>
      <setHeader name="a"><constant>one</constant></setHeader>
      <setHeader name="b"><simple>${header.a}-two</simple></setHeader>
    </setHeaders>
    <to uri="mock:xml"/>
  </route>
</routes>)");
  for (const char* route : {"yaml", "xml"}) {
    ASSERT_TRUE(h.producer.sendBody(std::string("direct:") + route, "x"));
    const Message& m = h.mock(std::string("mock:") + route).receivedExchanges().at(0)->message();
    EXPECT_EQ(*m.getHeader("a"), Value("one")) << route;
    EXPECT_EQ(*m.getHeader("b"), Value("one-two")) << route;
  }
}

TEST_F(ConvertHeaderRoutesTest, SetHeadersHoldsOnlyHeaders) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - setHeaders:
          steps:
            - log: hi
)");
  EXPECT_NE(e.find("setHeaders holds setHeader entries, not log"), std::string::npos) << e;
}

}  // namespace
}  // namespace dromedary::testing
