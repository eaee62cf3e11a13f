// SPDX-License-Identifier: Apache-2.0
// setExchangePattern (inOnly / inOut): the pattern the steps after it see, in C++, YAML and
// XML; a pattern Camel does not have fails the load where it is written.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using SetExchangePatternTest = RouteFileTest;

std::function<void(Exchange&)> recordPattern() {
  return [](Exchange& ex) { ex.message().setHeader("seen", Value(patternName(ex.pattern()))); };
}

TEST_F(SetExchangePatternTest, TheStepsAfterItSeeThePattern) {
  h.context.bindProcessor("record", processorOf(recordPattern()));
  h.start([](RouteBuilder& b) {
    b.from("direct:in").inOut().process(recordPattern()).inOnly().to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  const auto& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().getHeader("seen")->toString(), "InOut");
  EXPECT_EQ(ex.pattern(), Pattern::InOnly);
}

TEST_F(SetExchangePatternTest, InYaml) {
  h.context.bindProcessor("record", processorOf(recordPattern()));
  loadYaml(R"(
- from:
    uri: direct:yaml
    steps:
      - setExchangePattern: InOut
      - process: {ref: record}
      - to: mock:yaml
)");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "x"));
  EXPECT_EQ(h.mock("mock:yaml").receivedExchanges().at(0)->message().getHeader("seen")->toString(),
            "InOut");
}

TEST_F(SetExchangePatternTest, InXml) {
  h.context.bindProcessor("record", processorOf(recordPattern()));
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <setExchangePattern pattern="InOut"/>
    <process ref="record"/>
    <to uri="mock:xml"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "x"));
  EXPECT_EQ(h.mock("mock:xml").receivedExchanges().at(0)->message().getHeader("seen")->toString(),
            "InOut");
}

TEST_F(SetExchangePatternTest, AnUnknownPatternFailsWhereItIsWritten) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - set-exchange-pattern: RobustInOnly
)");
  EXPECT_NE(e.find("unknown exchange pattern 'RobustInOnly' at routes.yaml:5:31; expected InOnly "
                   "or InOut"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace dromedary::testing
