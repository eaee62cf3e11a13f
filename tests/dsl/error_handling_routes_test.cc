// SPDX-License-Identifier: Apache-2.0
// Error handling in route files: routeConfiguration (errorHandler, onException,
// onCompletion), doTry/doCatch/doFinally, in Camel's YAML and XML shapes, and Spring XML's
// <errorHandler> with errorHandlerRef.
#include <dromedary/dsl/route_loader.h>

#include <stdexcept>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class ErrorHandlingRoutesTest : public RouteFileTest {
 protected:
  ErrorHandlingRoutesTest() {
    h.context.bindProcessor("boom", processorOf([](Exchange& ex) {
      throw std::runtime_error("boom: " + ex.message().body().as<std::string>());
    }));
    h.context.bindProcessor("fail-twice", processorOf([this](Exchange&) {
      if (++calls <= 2) throw std::runtime_error("flaky");
    }));
  }
  int calls = 0;
};

TEST_F(ErrorHandlingRoutesTest, YamlRouteConfigurationWithDeadLetterAndRedelivery) {
  loadYaml(R"(
- routeConfiguration:
    errorHandler:
      deadLetterChannel:
        deadLetterUri: mock:dead
        useOriginalMessage: true
        redeliveryPolicy:
          maximumRedeliveries: 3
          redeliveryDelay: 0
- route:
    id: flaky
    from:
      uri: direct:flaky
      steps:
        - process: {ref: fail-twice}
        - to: mock:out
- route:
    id: broken
    from:
      uri: direct:broken
      steps:
        - transform: {constant: changed}
        - process: {ref: boom}
)");
  ASSERT_TRUE(h.producer.sendBody("direct:flaky", "a"));
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
  ASSERT_TRUE(h.producer.sendBody("direct:broken", "b"));
  EXPECT_EQ(h.mock("mock:dead").receivedBodies(), (std::vector<Value>{Value("b")}));
}

TEST_F(ErrorHandlingRoutesTest, YamlOnExceptionHandledWithSteps) {
  loadYaml(R"(
- routeConfiguration:
    onException:
      - onException:
          exception:
            - java.lang.IllegalArgumentException
          handled:
            constant: true
          steps:
            - setBody:
                constant: invalid
      - onException:
          exception: [java.lang.Exception]
          handled: {constant: true}
          steps:
            - setBody:
                simple: "failed: ${exception.message}"
- from:
    uri: direct:in
    steps:
      - process: {ref: boom}
)");
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(),
            Value("failed: boom: x"));
}

// Camel's YAML DSL also takes onException and onCompletion at the top of a file: for every
// route, as a routeConfiguration without an id.
TEST_F(ErrorHandlingRoutesTest, YamlTopLevelOnExceptionAndOnCompletionApplyToEveryRoute) {
  loadYaml(R"(
- onException:
    exception: [java.lang.Exception]
    handled: {constant: true}
    steps:
      - setBody:
          simple: "handled: ${exception.message}"
- onCompletion:
    steps:
      - to: mock:done
- from:
    uri: direct:in
    steps:
      - process: {ref: boom}
)");
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("handled: boom: x"));
  h.mock("mock:done").expectedMessageCount(1);
  EXPECT_TRUE(h.mock("mock:done").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(ErrorHandlingRoutesTest, YamlRouteConfigurationIdAppliesOnlyWhereNamed) {
  loadYaml(R"(
- routeConfiguration:
    id: lenient
    onException:
      - onException:
          continued: {constant: true}
- route:
    routeConfigurationId: lenient
    from:
      uri: direct:lenient
      steps:
        - process: {ref: boom}
        - to: mock:after
- route:
    from:
      uri: direct:strict
      steps:
        - process: {ref: boom}
        - to: mock:after
)");
  EXPECT_TRUE(h.producer.sendBody("direct:lenient", "a"));
  EXPECT_FALSE(h.producer.sendBody("direct:strict", "b"));
  EXPECT_EQ(h.mock("mock:after").receivedBodies(), (std::vector<Value>{Value("a")}));
}

TEST_F(ErrorHandlingRoutesTest, YamlDoTryCatchFinally) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - doTry:
          steps:
            - process: {ref: boom}
          doCatch:
            - exception: [java.io.IOException]
              steps:
                - setBody: {constant: io}
            - exception: [std::runtime_error]
              onWhen:
                simple: "${exception.message} contains 'boom'"
              steps:
                - setBody: {constant: caught}
          doFinally:
            steps:
              - to: mock:finally
)");
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("caught"));
  EXPECT_EQ(h.mock("mock:finally").receivedCount(), 1u);
}

TEST_F(ErrorHandlingRoutesTest, YamlOnCompletion) {
  loadYaml(R"(
- routeConfiguration:
    onCompletion:
      - onCompletion:
          onFailureOnly: true
          steps:
            - to: mock:failed
- from:
    uri: direct:in
    steps:
      - process: {ref: boom}
)");
  EXPECT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:failed").receivedCount(), 1u);
}

TEST_F(ErrorHandlingRoutesTest, XmlRouteScopedOnExceptionAndDoTry) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route id="r">
    <onException>
      <exception>java.lang.Exception</exception>
      <redeliveryPolicy maximumRedeliveries="2" redeliveryDelay="0"/>
      <handled><constant>true</constant></handled>
      <setBody><simple>handled after ${header.CamelRedeliveryCounter}</simple></setBody>
    </onException>
    <from uri="direct:in"/>
    <doTry>
      <process ref="boom"/>
      <doCatch>
        <exception>java.lang.IllegalArgumentException</exception>
        <to uri="mock:never"/>
      </doCatch>
      <doFinally>
        <to uri="mock:finally"/>
      </doFinally>
    </doTry>
  </route>
</routes>)");
  auto reply = h.producer.requestBody("direct:in", "x");
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("handled after "));
  EXPECT_EQ(h.mock("mock:finally").receivedCount(), 3u) << "the doTry ran three times";
  EXPECT_EQ(h.mock("mock:never").receivedCount(), 0u);
}

TEST_F(ErrorHandlingRoutesTest, SpringErrorHandlerChosenByErrorHandlerRef) {
  loadXml(R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <bean id="unused" class="com.acme.Unused"/>
  <camelContext xmlns="http://camel.apache.org/schema/spring" errorHandlerRef="dlc">
    <errorHandler id="dlc" type="DeadLetterChannel" deadLetterUri="mock:dead">
      <redeliveryPolicy maximumRedeliveries="1" redeliveryDelay="0"/>
    </errorHandler>
    <route>
      <from uri="direct:in"/>
      <process ref="boom"/>
    </route>
  </camelContext>
</beans>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:dead").receivedCount(), 1u);
}

TEST_F(ErrorHandlingRoutesTest, XmlRouteConfigurationElement) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <routeConfiguration id="cfg">
    <errorHandler>
      <deadLetterChannel deadLetterUri="mock:dead"/>
    </errorHandler>
  </routeConfiguration>
  <route routeConfigurationId="cfg">
    <from uri="direct:in"/>
    <process ref="boom"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:dead").receivedCount(), 1u);
}

TEST_F(ErrorHandlingRoutesTest, ErrorsNameFileLineAndWhatWasExpected) {
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    errorHandler:
      deadLetterChanel:
        deadLetterUri: mock:dead
- from: {uri: direct:a, steps: [{to: mock:b}]}
)"),
            "unknown error handler 'deadLetterChanel' at routes.yaml:4:7; did you mean "
            "'deadLetterChannel'?");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    errorHandler:
      defaultErrorHandler:
        redeliveryPolicy:
          maximumRedeliverys: 3
- from: {uri: direct:a2, steps: [{to: mock:b}]}
)"),
            "unknown key 'maximumRedeliverys' in redeliveryPolicy at routes.yaml:6:31; did you "
            "mean 'maximumRedeliveries'?");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    errorHandler:
      defaultErrorHandler:
        redeliveryPolicy:
          delayPattern: "1:100;x"
- from: {uri: direct:a6, steps: [{to: mock:b}]}
)"),
            "invalid delayPattern '1:100;x' at 'x': expected groups 'attempt:delayMillis' "
            "separated by ';' with increasing attempts, e.g. '1:1000;5:5000' at "
            "routes.yaml:6:25");
  EXPECT_EQ(yamlError(R"(
- route:
    routeConfigurationId: nope
    from: {uri: direct:a3, steps: [{to: mock:b}]}
)"),
            "no routeConfiguration with id 'nope' at routes.yaml:3:5");
  EXPECT_EQ(yamlError(R"(
- from:
    uri: direct:a4
    steps:
      - doTry:
          steps: [{to: mock:b}]
          doCatch:
            - exception: [java.io.IOExceptio]
              steps: [{to: mock:c}]
)"),
            "unknown exception type 'java.io.IOExceptio' in doCatch at routes.yaml:8:27; did "
            "you mean 'java.io.IOException'?; register application exceptions with "
            "Context::registerExceptionType");
  EXPECT_EQ(yamlError(R"(
- from:
    uri: direct:a5
    steps:
      - to:
          uri: mock:b
          handled: {constant: true}
)"),
            "unknown key 'handled' in to at routes.yaml:7:21");
}

TEST_F(ErrorHandlingRoutesTest, MoreErrorsNameWhereAndWhat) {
  EXPECT_EQ(yamlError(R"(
- errorHandler:
    noErrorHandler: {}
- errorHandler:
    deadLetterChannel: {deadLetterUri: mock:dead}
- from: {uri: direct:b1, steps: [{to: mock:b}]}
)"),
            "a second error handler for every route at routes.yaml:5:5; give one of the "
            "routeConfigurations an id and name it in routeConfigurationId");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    onCompletion:
      - onCompletion:
          onCompleteOnly: true
          onFailureOnly: true
- from: {uri: direct:b2, steps: [{to: mock:b}]}
)"),
            "onCompletion cannot be both onCompleteOnly and onFailureOnly at routes.yaml:4:9");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    onCompletion:
      - onCompletion:
          mode: BeforeConsumer
- from: {uri: direct:b3, steps: [{to: mock:b}]}
)"),
            "onCompletion mode 'BeforeConsumer' is not supported at routes.yaml:5:11; onCompletion "
            "runs after the exchange completes (AfterConsumer)");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    errorHandler:
      deadLetterChannel:
        useOriginalMessage: true
- from: {uri: direct:b4, steps: [{to: mock:b}]}
)"),
            "deadLetterChannel needs 'deadLetterUri' at routes.yaml:4:7");
  EXPECT_EQ(yamlError(R"(
- routeConfiguration:
    errorHandler:
      defaultErrorHandler:
        onRedeliveryRef: nobody
- from: {uri: direct:b5, steps: [{to: mock:b}]}
)"),
            "no processor bound as 'nobody' for onRedeliveryRef at routes.yaml:5:9; bind one with "
            "Context::bindProcessor(\"nobody\", ...)");
  EXPECT_EQ(xmlError(R"(<routes><routeConfiguration><errorHandler/></routeConfiguration>
<route><from uri="direct:b6"/><to uri="mock:b"/></route></routes>)"),
            "<errorHandler> needs a handler at routes.xml:1:29; <deadLetterChannel>, "
            "<defaultErrorHandler> or <noErrorHandler>");
  EXPECT_EQ(xmlError(R"(<camelContext><errorHandler type="DeadLetterChannel"/>
<route><from uri="direct:b7"/><to uri="mock:b"/></route></camelContext>)"),
            "<errorHandler> needs 'id' at routes.xml:1:15");
  EXPECT_EQ(xmlError(R"(<routes><route><from uri="direct:b8"/>
<doTry><to uri="mock:a"/></doTry></route></routes>)"),
            "doTry needs at least one doCatch or a doFinally at routes.xml:2:1");
}

}  // namespace
}  // namespace dromedary::testing
