// SPDX-License-Identifier: Apache-2.0
// circuitBreaker in route files, as Camel writes it: resilience4jConfiguration or
// faultToleranceConfiguration, onFallback, exception lists, kebab-case, and the errors a
// mistyped or unsupported option gets.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using CircuitBreakerRoutesTest = RouteFileTest;

std::string detail(Context& context, std::string_view route, std::string_view node,
                   std::string_view name) {
  auto stats = context.routeStatistics(route);
  if (!stats) return "(no route)";
  for (const ProcessorStats& p : stats->processors) {
    if (p.id != node) continue;
    for (const auto& [k, v] : p.details) {
      if (k == name) return v;
    }
  }
  return "(none)";
}

TEST_F(CircuitBreakerRoutesTest, YamlAndXmlOpenAfterTheirMinimumAndFallBack) {
  loadYaml(R"~(
- route:
    id: yaml
    from:
      uri: direct:yaml
      steps:
        - circuit-breaker:
            id: cb
            resilience4j-configuration:
              minimum-number-of-calls: 2
              sliding-window-size: 2
              failure-rate-threshold: 50
              wait-duration-in-open-state: 20
            steps:
              - throwException:
                  exceptionType: java.lang.IllegalArgumentException
                  message: Forced error
            onFallback:
              steps:
                - setBody:
                    simple: "fallback (${exchangeProperty.CamelCircuitBreakerState})"
        - to: mock:yaml
)~");
  loadXml(R"~(<routes xmlns="http://camel.apache.org/schema/spring">
  <route id="xml">
    <from uri="direct:xml"/>
    <circuitBreaker id="cb2">
      <resilience4jConfiguration minimumNumberOfCalls="2" slidingWindowSize="2"/>
      <throwException exceptionType="java.lang.IllegalArgumentException" message="Forced"/>
      <onFallback>
        <setBody><simple>fallback (${exchangeProperty.CamelCircuitBreakerState})</simple></setBody>
      </onFallback>
    </circuitBreaker>
    <to uri="mock:xml"/>
  </route>
</routes>)~");
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(h.producer.sendBody("direct:yaml", "x"));
    ASSERT_TRUE(h.producer.sendBody("direct:xml", "x"));
  }
  const std::vector<std::string> expected{"fallback (CLOSED)", "fallback (OPEN)",
                                          "fallback (OPEN)"};
  EXPECT_EQ(bodies("mock:yaml"), expected);
  EXPECT_EQ(bodies("mock:xml"), expected);
  EXPECT_EQ(detail(h.context, "yaml", "cb", "circuitBreakerState"), "OPEN");
  EXPECT_EQ(detail(h.context, "xml", "cb2", "notPermittedCalls"), "1");
}

TEST_F(CircuitBreakerRoutesTest, WithoutFallbackAnOpenBreakerLetsTheExchangeGoOn) {
  // The shape of Camel JBang's circuit-breaker example.
  loadYaml(R"~(
- route:
    from:
      uri: direct:in
      steps:
        - circuitBreaker:
            resilience4jConfiguration:
              minimumNumberOfCalls: 2
              slidingWindowSize: 2
              waitDurationInOpenState: 20
            steps:
              - filter:
                  expression:
                    simple:
                      expression: "${body} == 'fail'"
                  steps:
                    - throwException:
                        message: Forced error
                        exceptionType: java.lang.IllegalArgumentException
        - setBody:
            simple: "${body} (open: ${exchangeProperty.CamelCircuitBreakerResponseShortCircuited})"
        - to: mock:out
)~");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "ok"));
  EXPECT_FALSE(h.producer.sendBody("direct:in", "fail"));  // 1 of 2 failed: 50 %, it opens
  ASSERT_TRUE(h.producer.sendBody("direct:in", "fail"));   // refused: the exchange goes on
  EXPECT_EQ(bodies("mock:out"),
            (std::vector<std::string>{"ok (open: false)", "fail (open: true)"}));
}

TEST_F(CircuitBreakerRoutesTest, ExceptionListsInYamlAndXml) {
  loadYaml(R"~(
- from:
    uri: direct:yaml
    steps:
      - circuitBreaker:
          id: cb
          resilience4jConfiguration:
            ignoreException:
              - java.lang.IllegalArgumentException
          steps:
            - throwException:
                exceptionType: java.lang.IllegalArgumentException
                message: ignored
      - to: mock:yaml
)~");
  loadXml(R"~(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <circuitBreaker>
      <resilience4jConfiguration>
        <recordException>java.io.IOException</recordException>
      </resilience4jConfiguration>
      <throwException exceptionType="java.lang.IllegalArgumentException" message="not recorded"/>
    </circuitBreaker>
    <to uri="mock:xml"/>
  </route>
</routes>)~");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "x"));
  EXPECT_EQ(bodies("mock:yaml"), std::vector<std::string>{"x"});
  EXPECT_EQ(bodies("mock:xml"), std::vector<std::string>{"x"});
}

TEST_F(CircuitBreakerRoutesTest, FaultToleranceConfigurationMapsOntoTheBreaker) {
  loadYaml(R"~(
- route:
    id: ft
    from:
      uri: direct:in
      steps:
        - circuitBreaker:
            id: cb
            faultToleranceConfiguration:
              requestVolumeThreshold: 2
              failureRatio: 50
              delay: 1000
            steps:
              - throwException:
                  exceptionType: java.io.IOException
                  message: down
            onFallback:
              steps:
                - setBody: {constant: fallback}
)~");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(detail(h.context, "ft", "cb", "circuitBreakerState"), "CLOSED");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(detail(h.context, "ft", "cb", "circuitBreakerState"), "OPEN");
}

TEST_F(CircuitBreakerRoutesTest, MistakesAreNamedWhereTheyAre) {
  auto yaml = [&](const std::string& config) {
    const std::string text = R"~(
- from:
    uri: direct:in
    steps:
      - circuitBreaker:
          )~" + config + R"~(
          steps:
            - to: mock:out
)~";
    RouteHarness fresh;
    auto loaded = loadYamlRoutes(fresh.context, text, "routes.yaml");
    if (!loaded) return loaded.error().toString();
    auto started = fresh.context.start();
    return started ? std::string() : started.error().toString();
  };
  std::string e = yaml("resilience4jConfiguration: {failureRateThreshold: lots}");
  EXPECT_NE(e.find("failureRateThreshold must be a number, not 'lots'"), std::string::npos) << e;
  EXPECT_NE(e.find("routes.yaml:6:"), std::string::npos) << e;
  e = yaml("resilience4jConfiguration: {failureRateTreshold: 10}");
  EXPECT_NE(e.find("unknown key 'failureRateTreshold' in resilience4jConfiguration"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("failureRateThreshold"), std::string::npos) << "suggests the right name: " << e;
  e = yaml("resilience4jConfiguration: {failureRateThreshold: 150}");
  EXPECT_NE(e.find("failureRateThreshold must be more than 0 and at most 100, not 150"),
            std::string::npos)
      << e;
  e = yaml("resilience4jConfiguration: {slidingWindowType: SOMETIMES}");
  EXPECT_NE(e.find("slidingWindowType must be COUNT_BASED or TIME_BASED, not 'SOMETIMES'"),
            std::string::npos)
      << e;
  e = yaml("resilience4jConfiguration: {bulkheadMaxWaitDuration: 500}");
  EXPECT_NE(e.find("bulkheadMaxWaitDuration must be 0, not 500"), std::string::npos) << e;
  e = yaml("resilience4jConfiguration: {circuitBreaker: myBreaker}");
  EXPECT_NE(e.find("names a Java object"), std::string::npos) << e;
  e = yaml("configuration: myConfig");
  EXPECT_NE(e.find("named configuration) is not supported"), std::string::npos) << e;
  e = yaml("resilience4jConfiguration: {recordException: [com.acme.Nope]}");
  EXPECT_NE(e.find("com.acme.Nope"), std::string::npos) << e;
}

TEST_F(CircuitBreakerRoutesTest, OnFallbackOutsideACircuitBreakerIsRefused) {
  std::string e = yamlError(R"~(
- from:
    uri: direct:in
    steps:
      - filter:
          simple: "${body} == 'x'"
          onFallback:
            steps:
              - to: mock:out
)~");
  EXPECT_NE(e.find("onFallback"), std::string::npos) << e;
}

}  // namespace
}  // namespace dromedary::testing
