// SPDX-License-Identifier: Apache-2.0
// Camel's YAML DSL: the forms Camel documents, and every load error word for word.
#include <dromedary/dsl/route_loader.h>

#include <gmock/gmock.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class YamlRoutesTest : public RouteFileTest {
 protected:
  void load(const char* yaml) { loadYaml(yaml); }
  std::string error(const char* yaml) { return yamlError(yaml); }
};

TEST_F(YamlRoutesTest, ShortFormsOfSteps) {
  load(R"(
- from:
    uri: direct:in
    steps:
      - convertBodyTo: String
      - removeHeader: secret
      - log: "got ${body}"
      - to: mock:out
)");
  h.mock("mock:out").expectedBodiesReceived({Value("42")});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(42), "secret", "x"));
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().getHeader("secret"), nullptr);
}

TEST_F(YamlRoutesTest, AJBangScriptFirstLineIsAComment) {
  loadYaml("///usr/bin/env jbang --quiet camel@apache/camel pipe \"$0\" \"$@\" ; exit $?\n"
           "---\n"
           "- from: {uri: direct:a, steps: [{to: mock:out}]}\n");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"x"}));
}

TEST_F(YamlRoutesTest, ExpressionForms) {
  load(R"(
- from:
    uri: direct:in
    steps:
      - setHeader:
          name: a
          simple: "${body}-a"
      - setHeader:
          name: b
          simple:
            expression: "${body}-b"
      - setHeader:
          name: c
          expression:
            simple: "${body}-c"
      - setHeader:
          name: d
          expression:
            constant:
              expression: d
      - setProperty:
          name: p
          header: a
      - setBody:
          exchangeProperty: p
      - to: mock:out
)");
  h.mock("mock:out").expectedBodiesReceived({Value("x-a")});
  h.mock("mock:out").expectedHeaderReceived("b", Value("x-b"));
  h.mock("mock:out").expectedHeaderReceived("c", Value("x-c"));
  h.mock("mock:out").expectedHeaderReceived("d", Value("d"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
}

TEST_F(YamlRoutesTest, ParametersAreMergedIntoTheUri) {
  load(R"(
- from:
    uri: direct:in
    steps:
      - to:
          uri: mock:out
          parameters:
            retainFirst: 1
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "b"));
  EXPECT_EQ(h.mock("mock:out?retainFirst=1").receivedExchanges().size(), 1u);
}

// Camel's path parameters: `uri: timer` with `timerName: tick` is timer:tick, for every
// component, in the order of its syntax; kebab-case parameter names are camelCase.
TEST_F(YamlRoutesTest, PathPartsGivenAsParametersBecomeThePath) {
  load(R"(
- from:
    uri: timer
    parameters: {timerName: tick, period: 10, delay: 0, repeat-count: 2}
    steps:
      - to:
          uri: direct
          parameters: {name: next}
- from:
    uri: direct
    parameters: {name: next}
    steps:
      - to:
          uri: log
          parameters: {loggerName: ticks, show-body-type: false}
      - to:
          uri: mock
          parameters: {name: out}
)");
  h.mock("mock:out").expectedMessageCount(2);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_THAT(h.context.endpointUris(),
              ::testing::IsSupersetOf({"timer://tick?delay=0&period=10&repeatCount=2",
                                       "direct://next", "log://ticks?showBodyType=false",
                                       "mock://out"}));
}

// A syntax whose parts are separated by '/' (kamelet:templateId/routeId) folds with '/'.
TEST_F(YamlRoutesTest, PathPartsFoldWithTheSeparatorsOfTheComponentsSyntax) {
  load(R"(
- from:
    uri: direct
    parameters: {name: in}
    steps:
      - to:
          uri: kamelet
          parameters: {templateId: log-sink, routeId: audit}
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_THAT(h.context.endpointUris(), ::testing::Contains("kamelet://log-sink/audit"));
}

TEST_F(YamlRoutesTest, ABareNameOfAComponentThatIsNotHereIsNamedAsAnUnknownComponent) {
  std::string e = error(R"(
- from:
    uri: direct:in
    steps:
      - to:
          uri: ftp
          parameters: {host: localhost, port: 2221}
)");
  EXPECT_NE(e.find("unknown component 'ftp' in endpoint 'ftp:?host=localhost&port=2221'"),
            std::string::npos)
      << e;
}

// The step's name is checked before the shape of what it holds: an unknown step with a map
// inside is reported as an unknown step, where it is.
TEST_F(YamlRoutesTest, AnUnknownStepIsNamedBeforeTheShapeOfItsBody) {
  std::string e = error(R"(
- from:
    uri: direct:in
    steps:
      - circuitBreak:
          resilience4jConfiguration:
            failureRateThreshold: 50
)");
  EXPECT_NE(e.find("unknown step 'circuitBreak' at routes.yaml:5:9"), std::string::npos) << e;
}

TEST_F(YamlRoutesTest, AbsentOptionalPlaceholdersDropTheirOptions) {
  h.context.properties().set("given", "1");
  load(R"(
- from:
    uri: "direct:in?timeout={{?notSet}}"
    steps:
      - to:
          uri: mock:out
          parameters: {retainFirst: "{{?given}}", retainLast: "{{?notSet}}"}
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_THAT(h.context.endpointUris(),
              ::testing::IsSupersetOf({"direct://in", "mock://out?retainFirst=1"}));
}

TEST_F(YamlRoutesTest, StepIdsBecomeNodeIdsAndStopEnds) {
  load(R"(
- route:
    id: r
    from:
      uri: direct:in
      steps:
        - toD:
            uri: "mock:${header.to}"
            id: dynamic-send
        - stop: {}
        - to: mock:never
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "to", "x"));
  EXPECT_EQ(h.mock("mock:x").receivedExchanges().size(), 1u);
  EXPECT_EQ(h.mock("mock:never").receivedExchanges().size(), 0u);
}

TEST_F(YamlRoutesTest, ProcessRefUsesABoundProcessor) {
  class Exclaim final : public Processor {
   public:
    Status process(Exchange& ex) override {
      ex.message().setBody(ex.message().body().as<std::string>() + "!");
      return Status::Continue;
    }
  };
  h.context.bindProcessor("upper", std::make_shared<Exclaim>());
  load(R"(
- from:
    uri: direct:in
    steps:
      - process:
          ref: upper
      - to: mock:out
)");
  h.mock("mock:out").expectedBodiesReceived({Value("a!")});
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
}

TEST_F(YamlRoutesTest, BeansBoundInCppAreAccepted) {
  class Noop final : public Processor {
   public:
    Status process(Exchange&) override { return Status::Continue; }
  };
  h.context.bindProcessor("audit", std::make_shared<Noop>());
  load(R"(
- beans:
    - name: audit
      type: com.acme.AuditProcessor
- from:
    uri: direct:in
    steps:
      - process: audit
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 1u);
}

TEST_F(YamlRoutesTest, UnboundBeanNamesTheFix) {
  EXPECT_EQ(error(R"(- beans:
    - name: audit
      type: com.acme.AuditProcessor
)"),
            "bean 'audit' of type 'com.acme.AuditProcessor' cannot be created: there are no Java "
            "classes here at routes.yaml:2:13; bind a C++ processor under this name with "
            "Context::bindProcessor(\"audit\", ...)");
}

TEST_F(YamlRoutesTest, AutoStartupFalseLeavesTheRouteStopped) {
  load(R"(
- route:
    id: idle
    autoStartup: false
    from:
      uri: direct:idle
)");
  EXPECT_EQ(h.context.routeStatus("idle"), RouteStatus::Stopped);
}

// --- errors, word for word ---------------------------------------------------------------

TEST_F(YamlRoutesTest, UnknownStepSuggestsTheClosest) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setheader:
          name: x
          constant: y
)"),
            "unknown step 'setheader' at routes.yaml:4:9; did you mean 'setHeader'?");
}

TEST_F(YamlRoutesTest, UnknownKeyInAStep) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setHeader:
          nam: x
          constant: y
)"),
            "unknown key 'nam' in setHeader at routes.yaml:5:11; did you mean 'name'?");
}

TEST_F(YamlRoutesTest, MissingRequiredKey) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setHeader:
          constant: y
)"),
            "setHeader needs 'name' at routes.yaml:4:9");
}

TEST_F(YamlRoutesTest, MissingExpression) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setBody: {}
)"),
            "setBody needs an expression at routes.yaml:4:9; write it as simple, constant, "
            "header or exchangeProperty");
}

TEST_F(YamlRoutesTest, WrongTypeForAKey) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setHeader:
          name: [a, b]
          constant: y
)"),
            "'name' must be a single value, not a list at routes.yaml:5:17");
}

TEST_F(YamlRoutesTest, UnknownLanguage) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setBody:
          expression:
            simpel: "1+1"
)"),
            "unknown language 'simpel' at routes.yaml:6:13; did you mean 'simple'?");
}

TEST_F(YamlRoutesTest, AJvmLanguageIsNamedAsOneThatCannotRunHere) {
  const std::string expected =
      "language 'groovy' runs on the JVM; Dromedary cannot run it at routes.yaml:6:13; write "
      "it in simple, jq or jsonpath, or as a C++ processor (process)";
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - script:
          expression:
            groovy: "body.level = variable.level"
)"),
            expected);
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - script:
          groovy: "body.level = variable.level"
)"),
            "language 'groovy' runs on the JVM; Dromedary cannot run it at routes.yaml:5:11; "
            "write it in simple, jq or jsonpath, or as a C++ processor (process)");
}

TEST_F(YamlRoutesTest, UnknownTopLevelEntry) {
  EXPECT_EQ(error(R"(- rout:
    id: x
)"),
            "unknown entry 'rout' at routes.yaml:1:3; did you mean 'route'?");
}

TEST_F(YamlRoutesTest, InvalidYamlNamesThePosition) {
  EXPECT_EQ(error("- from:\n    uri: [direct:a\n"),
            "invalid YAML: end of sequence flow not found at routes.yaml:3:1");
}

TEST_F(YamlRoutesTest, BadSimpleFailsAtStartWithThePosition) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - setBody:
          simple: "${bodyy}"
)"),
            "routes.yaml:4:9: unknown function 'bodyy' at column 3 in simple expression\n"
            "  ${bodyy}\n"
            "    ^\n"
            "did you mean 'body'? (in route 'route1', step setBody[simple{${bodyy}}])");
}

TEST_F(YamlRoutesTest, BadEndpointOptionFailsAtStartWithThePosition) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - to:
          uri: direct:b
          parameters:
            timout: 5
)"),
            "routes.yaml:4:9: unknown option 'timout' for endpoint 'direct:b?timout=5'; did you "
            "mean 'timeout'? (in route 'route1', step to[direct:b?timout=5])");
}

TEST_F(YamlRoutesTest, MissingPlaceholderNamesThePosition) {
  EXPECT_EQ(error(R"(- from:
    uri: direct:a
    steps:
      - to: "mock:{{nowhere}}"
)"),
            "property placeholder '{{nowhere}}' in 'mock:{{nowhere}}': no property 'nowhere' is "
            "defined (give a default as '{{nowhere:default}}') at routes.yaml:4:13");
}

TEST_F(YamlRoutesTest, NoRouteIsAddedWhenOneFails) {
  EXPECT_NE(error(R"(- from:
    uri: direct:ok
- from:
    uri: direct:bad
    steps:
      - nope: {}
)"),
            "");
  EXPECT_TRUE(h.context.routeIds().empty());
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

TEST(YamlAsyncStepsTest, DelayThrottleThreadsAndSeda) {
  RouteHarness h;
  auto r = loadYamlRoutes(h.context, R"(
- from:
    uri: direct:in
    steps:
      - threads:
          poolSize: 2
      - throttle:
          constant: 100
          timePeriodMillis: 1000
      - delay:
          simple: "${header.wait}"
      - to: seda:next
- from:
    uri: seda:next
    steps:
      - to: mock:out
)", "async.yaml");
  ASSERT_TRUE(r) << r.error().toString();
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "wait", Value(5)));
  h.mock("mock:out").expectedBodiesReceived({Value("a")});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST(YamlAsyncStepsTest, UnknownThrottleModeSuggests) {
  RouteHarness h;
  auto r = loadYamlRoutes(h.context, R"(- from:
    uri: direct:in
    steps:
      - throttle:
          constant: 5
          mode: ConcurrentRequest
)", "t.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "unknown throttle mode 'ConcurrentRequest' at t.yaml:6:11; did you mean "
            "'ConcurrentRequests'?");
}

}  // namespace
}  // namespace dromedary::testing
