// SPDX-License-Identifier: Apache-2.0
// throwException in Camel's YAML and XML: the same step as the C++ DSL's, its type checked
// where the file names it.
#include <gmock/gmock.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;

class ThrowExceptionRoutesTest : public RouteFileTest {};

TEST_F(ThrowExceptionRoutesTest, YamlThrowsAndADoCatchTakesIt) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - doTry:
          steps:
            - throwException:
                exceptionType: java.lang.IllegalArgumentException
                message: "no stock for ${body}"
          doCatch:
            - exception:
                - java.lang.IllegalArgumentException
              steps:
                - setBody:
                    simple: "refused: ${exception.message}"
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "widget"));
  EXPECT_EQ(bodies("mock:out"), std::vector<std::string>{"refused: no stock for widget"});
}

TEST_F(ThrowExceptionRoutesTest, XmlThrowsAndTheExchangeFails) {
  loadXml(R"(<routes>
  <route>
    <from uri="direct:in"/>
    <throwException exceptionType="java.io.IOException" message="disk ${header.disk} full"/>
    <to uri="mock:after"/>
  </route>
</routes>)");
  auto sent = h.producer.sendBodyAndHeader("direct:in", "x", "disk", "d1");
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().message, HasSubstr("disk d1 full"));
  EXPECT_TRUE(bodies("mock:after").empty());
}

TEST_F(ThrowExceptionRoutesTest, AnUnknownTypeIsAnErrorAtItsPlaceInTheFile) {
  EXPECT_THAT(yamlError(R"(
- from:
    uri: direct:in
    steps:
      - throw-exception:
          exception-type: java.lang.IllegalArgumentExcepton
)"),
              HasSubstr("unknown exception type 'java.lang.IllegalArgumentExcepton' in "
                        "throwException at routes.yaml:6:11; did you mean "
                        "'java.lang.IllegalArgumentException'?"));
  EXPECT_THAT(
      xmlError(R"(<routes><route><from uri="direct:a"/><throwException/></route></routes>)"),
      HasSubstr("throwException needs 'exceptionType'"));
}

}  // namespace
}  // namespace dromedary::testing
