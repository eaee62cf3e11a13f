// SPDX-License-Identifier: Apache-2.0
// Camel's step EIP (a group of steps under an id of its own: a pipeline here) and validate,
// in YAML and XML.
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

}  // namespace
}  // namespace dromedary::testing
