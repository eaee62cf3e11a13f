// SPDX-License-Identifier: Apache-2.0
// marshal / unmarshal in route files: the json data format under Camel's names, its options,
// and the errors of each.
#include <filesystem>
#include <fstream>

#include <dromedary/core/file_body.h>

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

namespace dromedary::testing {
namespace {

class JsonPathRoutesTest : public RouteFileTest {};

constexpr const char* kOrder = R"({"id": "o-7", "rush": true,
  "items": [{"sku": "A-1", "qty": 2, "price": 10.5}, {"sku": "B-2", "qty": 1, "price": 99}]})";

TEST_F(JsonPathRoutesTest, FilterChoiceSplitAndSetHeaderOnJsonText) {
  loadYaml(R"Y(
- from:
    uri: direct:orders
    steps:
      - filter:
          jsonpath: "$[?(@.rush == true)]"
          steps:
            - setHeader:
                name: orderId
                jsonpath: $.id
            - setHeader:
                name: lines
                jsonpath: {expression: "$.items.length()", resultType: String}
            - choice:
                when:
                  - jsonpath: "$.items[?(@.price > 50)]"
                    steps: [{setHeader: {name: big, constant: "yes"}}]
            - split:
                jsonpath: "$.items[*].sku"
                steps:
                  - to: mock:skus
            - to: mock:rush
)Y");
  ASSERT_TRUE(h.producer.sendBody("direct:orders", kOrder));
  ASSERT_TRUE(h.producer.sendBody("direct:orders", R"({"id": "o-8", "rush": false, "items": []})"));
  ASSERT_EQ(h.mock("mock:rush").receivedCount(), 1u);
  const auto& ex = *h.mock("mock:rush").receivedExchanges()[0];
  EXPECT_EQ(ex.message().getHeader("orderId")->as<std::string>(), "o-7");
  EXPECT_EQ(*ex.message().getHeader("lines"), Value("2"));
  EXPECT_EQ(ex.message().getHeader("big")->as<std::string>(), "yes");
  EXPECT_EQ(bodies("mock:skus"), (std::vector<std::string>{"A-1", "B-2"}));
}

TEST_F(JsonPathRoutesTest, EasyPredicatesFilterWithoutTheDollarAndBrackets) {
  loadYaml(R"Y(
- from:
    uri: direct:orders
    steps:
      - choice:
          when:
            - jsonpath: "items.price > 50"
              steps: [{to: mock:big}]
          otherwise:
            steps: [{to: mock:small}]
)Y");
  ASSERT_TRUE(h.producer.sendBody("direct:orders", kOrder));
  ASSERT_TRUE(h.producer.sendBody("direct:orders", R"({"items": [{"price": 3}]})"));
  EXPECT_EQ(h.mock("mock:big").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:small").receivedCount(), 1u);
}

TEST_F(JsonPathRoutesTest, WithoutEasyPredicatesTheSameTextIsAPathThatDoesNotParse) {
  std::string error = yamlError(R"Y(
- from:
    uri: direct:orders
    steps:
      - filter:
          jsonpath: {expression: "items.price > 50", allowEasyPredicate: false}
          steps: [{to: mock:never}]
)Y");
  EXPECT_NE(error.find("routes.yaml:5:9: jsonpath 'items.price > 50': expected the end of the "
                       "path at position 13"),
            std::string::npos)
      << error;
}

TEST_F(JsonPathRoutesTest, SuppressExceptionsAndAHeaderAsTheSource) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - setHeader:
          name: missing
          jsonpath: {expression: $.nope, suppressExceptions: true}
      - setBody:
          jsonpath: {expression: $.n, headerName: doc}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "{}", Headers{{"doc", Value(R"({"n": 5})")}}));
  const auto& ex = *h.mock("mock:out").receivedExchanges()[0];
  EXPECT_TRUE(ex.message().getHeader("missing") == nullptr || ex.message().getHeader("missing")->isNull());
  EXPECT_EQ(ex.message().body(), Value(int64_t{5}));
}

TEST_F(JsonPathRoutesTest, SimpleCallsJsonPath) {
  loadYaml(R"Y(
- from:
    uri: direct:in
    steps:
      - setBody:
          simple: "${jsonpath($.id)} has ${jsonpath($.items.length())} lines; rush: ${jsonpath($[?(@.rush == true)].id)}"
      - to: mock:out
)Y");
  ASSERT_TRUE(h.producer.sendBody("direct:in", kOrder));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"o-7 has 2 lines; rush: [\"o-7\"]"}));
}

TEST_F(JsonPathRoutesTest, AMissingPathFailsTheExchangeNamingIt) {
  loadYaml("- from: {uri: direct:in, steps: [{setBody: {jsonpath: $.a.b}}, {to: mock:out}]}");
  auto sent = h.producer.sendBody("direct:in", R"({"a": {}})");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("No results for path: $['a']['b'] (jsonpath '$.a.b')"),
            std::string::npos)
      << sent.error().message;
}

TEST_F(JsonPathRoutesTest, XmlJsonPathWithOptions) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:in"/>
    <setBody><jsonpath suppressExceptions="true" resultType="String">$.items[0].qty</jsonpath></setBody>
    <to uri="mock:out"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", kOrder));
  EXPECT_EQ(h.mock("mock:out").receivedBodies()[0], Value("2"));
}

TEST_F(JsonPathRoutesTest, ABadPathFailsTheStartNamingThePosition) {
  std::string bad = yamlError("- from: {uri: direct:in, steps: [{setBody: {jsonpath: '$.a['}}]}");
  EXPECT_NE(bad.find("jsonpath '$.a[': expected a number at position 5"), std::string::npos) << bad;
}

TEST_F(JsonPathRoutesTest, AMisspeltOptionFailsTheStartWithTheClosestName) {
  std::string option = yamlError(
      "- from: {uri: direct:in, steps: [{setBody: {jsonpath: {expression: $.a, supressExceptions: true}}}]}");
  EXPECT_NE(option.find("unknown option 'supressExceptions' for the jsonpath language; did you mean "
                        "'suppressExceptions'?"),
            std::string::npos)
      << option;
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

class JqRoutesTest : public RouteFileTest {};

TEST_F(JqRoutesTest, JqTransformsFiltersAndFeedsSimple) {
  loadYaml(R"Y(
- from:
    uri: direct:in
    steps:
      - filter:
          jq: ".rush"
          steps:
            - setHeader:
                name: skus
                jq: {expression: "[.items[].sku] | join(\",\")", resultType: String}
            - setHeader:
                name: total
                simple: "${jq(.items | map(.qty * .price) | add)}"
            - transform:
                jq: "{id: .id, lines: (.items | length)}"
            - to: mock:out
)Y");
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"id": "o-7", "rush": true,
      "items": [{"sku": "A-1", "qty": 2, "price": 10.5}, {"sku": "B-2", "qty": 1, "price": 99}]})"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"id": "o-8", "rush": false, "items": []})"));
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  const auto& ex = *h.mock("mock:out").receivedExchanges()[0];
  EXPECT_EQ(*ex.message().getHeader("skus"), Value("A-1,B-2"));
  EXPECT_EQ(ex.message().getHeader("total")->as<std::string>(), "120");
  EXPECT_EQ(ex.message().body().toString(), R"({"id":"o-7","lines":2})");
}

TEST_F(JqRoutesTest, ARuntimeErrorFailsTheExchangeAndABadProgramTheStart) {
  loadYaml("- from: {uri: direct:in, steps: [{setBody: {jq: '.a + 1'}}, {to: mock:out}]}");
  auto sent = h.producer.sendBody("direct:in", R"({"a": "text"})");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("cannot be added (jq '.a + 1')"), std::string::npos)
      << sent.error().message;
}

TEST_F(JqRoutesTest, AResultTypeThatCannotBeMadeFailsTheStart) {
  std::string bad = yamlError(
      "- from: {uri: direct:in, steps: [{setBody: {jq: {expression: '.a', resultType: com.acme.Order}}}]}");
  EXPECT_NE(bad.find("jq resultType 'com.acme.Order' cannot be made here"), std::string::npos) << bad;
}

TEST_F(JqRoutesTest, AVariableSourceReadsTheExchangesOwnVariable) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - setVariable: {name: order, simple: "${body}"}
      - setBody: {constant: "replaced"}
      - setHeader: {name: id, jq: {expression: .id, source: "variable:order"}}
      - setHeader: {name: qty, jsonpath: {expression: $.qty, source: order, resultType: Long}}
      - setVariable:
          name: alc
          expression:
            jq: {expression: '.alcohol | rtrimstr("%")', source: order, resultType: float}
      - setHeader: {name: text, simple: "${jq(variable:order,.id)} at ${variable.alc}%"}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", R"({"id": "o-1", "qty": 3, "alcohol": "5.5%"})"));
  const auto& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(*ex.message().getHeader("id"), Value("o-1"));
  EXPECT_EQ(*ex.message().getHeader("qty"), Value(int64_t{3}));
  EXPECT_EQ(*ex.message().getHeader("text"), Value("o-1 at 5.5%"));
}

TEST_F(JqRoutesTest, AGlobalOrRouteVariableSourceFailsTheStart) {
  std::string bad = yamlError(
      "- from: {uri: direct:in, steps: [{setBody: {jsonpath: {expression: $.a, source: "
      "'variable:global:v'}}}]}");
  EXPECT_NE(bad.find("jsonpath source 'variable:global:v': body, header:NAME, property:NAME or "
                     "variable:NAME"),
            std::string::npos)
      << bad;
}

TEST_F(JqRoutesTest, ABadProgramFailsTheStart) {
  std::string bad = yamlError("- from: {uri: direct:in, steps: [{setBody: {jq: '.a | | .b'}}]}");
  EXPECT_NE(bad.find("jq '.a | | .b' does not compile: jq: error: syntax error"), std::string::npos)
      << bad;
}

TEST_F(MarshalRoutesTest, AFileBodyIsReadByUnmarshalJsonPathAndJq) {
  // The file consumer's body (a FileBody): each language reads the file's text.
  const std::string path = ::testing::TempDir() + "/dromedary_file_body_order.json";
  std::ofstream(path) << R"({"id": "A-7", "items": [1, 2, 3]})";
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - setHeader: {name: id, jsonpath: $.id}
      - setHeader: {name: count, jq: ".items | length"}
      - unmarshal: {json: {}}
      - setBody: {simple: "${header.id} ${header.count} ${body[items][2]}"}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value::makeObject<FileBody>(path)));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().at(0)->message().body().as<std::string>(),
            "A-7 3 3");
  std::filesystem::remove(path);
  auto missing = h.producer.requestBody("direct:in", Value::makeObject<FileBody>(path));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().toString().find("cannot read the file '" + path + "'"),
            std::string::npos)
      << missing.error().toString();
}

}  // namespace
}  // namespace dromedary::testing
