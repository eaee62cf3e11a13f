// SPDX-License-Identifier: Apache-2.0
// Camel's step EIP (a group of steps under an id of its own: a pipeline here), validate and
// the route's nodePrefixId, in YAML and XML.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using StepRoutesTest = RouteFileTest;

TEST_F(StepRoutesTest, AStepRunsItsStepsInOrderUnderItsId) {
  loadYaml(R"(
- route:
    id: r
    from:
      uri: direct:yaml
      steps:
        - step:
            id: enrich-order
            steps:
              - setBody: {simple: "${body}-a"}
              - setBody: {simple: "${body}-b"}
        - to: mock:yaml
)");
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <step id="xml-step"><setBody><simple>${body}-a</simple></setBody></step>
    <to uri="mock:xml"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "x"));
  EXPECT_EQ(bodies("mock:yaml"), std::vector<std::string>{"x-a-b"});
  EXPECT_EQ(bodies("mock:xml"), std::vector<std::string>{"x-a"});
  auto stats = h.context.routeStatistics("r");
  ASSERT_TRUE(stats);
  bool found = false;
  for (const ProcessorStats& p : stats->processors) {
    if (p.id == "enrich-order") {
      found = true;
      EXPECT_EQ(p.exchangesTotal, 1u);
    }
  }
  EXPECT_TRUE(found) << "no statistics under the step's id";
}

TEST_F(StepRoutesTest, ValidateInYamlAndXml) {
  loadYaml(R"(
- from:
    uri: direct:yaml
    steps:
      - validate:
          simple: "${body} == 'ok'"
      - to: mock:out
)");
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <validate><simple>${body} == 'ok'</simple></validate>
    <to uri="mock:out"/>
  </route>
</routes>)");
  for (const char* from : {"direct:yaml", "direct:xml"}) {
    EXPECT_TRUE(h.producer.sendBody(from, "ok")) << from;
    auto refused = h.producer.sendBody(from, "nok");
    ASSERT_FALSE(refused) << from;
    EXPECT_NE(refused.error().message.find("Validation failed for Predicate["), std::string::npos)
        << refused.error().message;
  }
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 2u);
}

// Camel's route nodePrefixId: before generated node ids, not before given ones.
TEST_F(StepRoutesTest, NodePrefixIdGoesBeforeGeneratedNodeIdsOnly) {
  loadYaml(R"(
- route:
    id: yaml
    nodePrefixId: "y-"
    from:
      uri: direct:yaml
      steps:
        - setBody: {constant: a}
        - to: {id: given, uri: mock:out}
)");
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route id="xml" nodePrefixId="x-">
    <from uri="direct:xml"/>
    <log message="hi"/>
  </route>
</routes>)");
  std::vector<std::string> ids;
  for (const char* route : {"yaml", "xml"}) {
    auto stats = h.context.routeStatistics(route);
    ASSERT_TRUE(stats) << route;
    for (const ProcessorStats& p : stats->processors) ids.push_back(p.id);
  }
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_TRUE(ids[0].starts_with("y-setBody")) << ids[0];
  EXPECT_EQ(ids[1], "given");
  EXPECT_TRUE(ids[2].starts_with("x-log")) << ids[2];
}

}  // namespace
}  // namespace dromedary::testing
