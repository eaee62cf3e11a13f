// SPDX-License-Identifier: Apache-2.0
// marshal / unmarshal in route files: the json data format under Camel's names, its options,
// and the errors of each.
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class MarshalRoutesTest : public RouteFileTest {};

TEST_F(MarshalRoutesTest, YamlUnmarshalRoutesOnTheDataAndMarshalsItBack) {
  loadYaml(R"(
- from:
    uri: direct:orders
    steps:
      - unmarshal:
          json: {}
      - choice:
          when:
            - simple: "${body[type]} == 'rush'"
              steps:
                - setHeader: {name: lane, simple: "${body[items][0][sku]}"}
      - marshal:
          jackson:
            prettyPrint: true
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:orders", R"({"type":"rush","items":[{"sku":"A-1"}]})"));
  const auto& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().getHeader("lane")->as<std::string>(), "A-1");
  EXPECT_EQ(ex.message().body().as<std::string>(),
            "{\n  \"type\" : \"rush\",\n  \"items\" : [ {\n    \"sku\" : \"A-1\"\n  } ]\n}");
}

TEST_F(MarshalRoutesTest, XmlMarshalAndUnmarshal) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:in"/>
    <unmarshal><json library="Jackson"/></unmarshal>
    <setBody><simple>${body[n]}</simple></setBody>
    <to uri="mock:out"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"n": 42})"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"42"}));
}

TEST_F(MarshalRoutesTest, AJavaUnmarshalTypeLoadsWithAWarningAndGivesMaps) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - unmarshal: {json: {library: Gson, unmarshalType: com.acme.Order}}
      - setBody: {simple: "${body[id]}"}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"id": "o-1"})"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"o-1"}));
}

TEST_F(MarshalRoutesTest, MistakesAreNamedWhereTheyAre) {
  EXPECT_NE(yamlError("- from: {uri: direct:a, steps: [{marshal: {}}]}")
                .find("marshal needs a data format at routes.yaml:1:34"),
            std::string::npos)
      << yamlError("- from: {uri: direct:a, steps: [{marshal: {}}]}");
  std::string typo = yamlError("- from: {uri: direct:a, steps: [{marshal: {json: {prettyPrnt: true}}}]}");
  EXPECT_NE(typo.find("unknown key 'prettyPrnt'"), std::string::npos) << typo;
  EXPECT_NE(typo.find("did you mean 'prettyPrint'?"), std::string::npos) << typo;
  std::string csv = yamlError("- from: {uri: direct:a, steps: [{unmarshal: {csv: {}}}]}");
  EXPECT_NE(csv.find("unknown key 'csv' in unmarshal at routes.yaml:1:46; unmarshal holds one data format: json"), std::string::npos) << csv;
  std::string bad = yamlError("- from: {uri: direct:a, steps: [{marshal: {json: {prettyPrint: maybe}}}]}");
  EXPECT_NE(bad.find("invalid value 'maybe' for option 'prettyPrint' of the json data format"), std::string::npos) << bad;
}

}  // namespace
}  // namespace dromedary::testing
