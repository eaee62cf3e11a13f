// SPDX-License-Identifier: Apache-2.0
// Camel's beans on C++ processors: the bean step (C++, YAML, XML) and the bean: component
// call the processor bound as NAME.METHOD, else NAME; what is missing fails the route's start.
#include <gmock/gmock.h>

#include <stdexcept>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;

// A bean "orders" ported to C++: its method validate, and a processor for the bean itself.
class BeanTest : public RouteFileTest {
 protected:
  BeanTest() {
    h.context.bindProcessor("orders.validate", processorOf([](Exchange& ex) {
      ex.message().setHeader("validated", Value(true));
    }));
    h.context.bindProcessor("orders", processorOf([](Exchange& ex) {
      ex.message().setBody(Value("order " + ex.message().body().as<std::string>()));
    }));
    h.context.bindProcessor("broken", processorOf([](Exchange&) {
      throw std::runtime_error("the bean failed");
    }));
  }
  const Exchange& only(std::string_view mock) {
    auto got = h.mock(mock).receivedExchanges();  // the mock keeps them too
    EXPECT_EQ(got.size(), 1u);
    return *got.at(0);
  }
};

TEST_F(BeanTest, TheBeanStepCallsTheMethodsProcessorElseTheBeans) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in").bean("orders", "validate").bean("orders", "unported").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "7"));
  const Exchange& ex = only("mock:out");
  EXPECT_EQ(*ex.message().getHeader("validated"), Value(true));
  EXPECT_EQ(ex.message().body(), Value("order 7"));  // no orders.unported: the bean's own
}

TEST_F(BeanTest, RouteFilesBeanStepsAndBeanEndpointsCallTheSameProcessors) {
  loadYaml(R"(
- route:
    from:
      uri: direct:yaml
      steps:
        - bean:
            ref: orders
            method: validate
        - to: "bean:orders"
        - to: mock:yaml
)");
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "1"));
  EXPECT_EQ(*only("mock:yaml").message().getHeader("validated"), Value(true));
  EXPECT_EQ(only("mock:yaml").message().body(), Value("order 1"));
}

TEST_F(BeanTest, XmlBeanStepsAndBeanEndpointsCallTheSameProcessors) {
  loadXml(R"(<routes>
  <route>
    <from uri="direct:xml"/>
    <bean ref="orders"/>
    <to uri="bean:orders?method=validate"/>
    <to uri="mock:xml"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:xml", "2"));
  EXPECT_EQ(*only("mock:xml").message().getHeader("validated"), Value(true));
  EXPECT_EQ(only("mock:xml").message().body(), Value("order 2"));
}

TEST_F(BeanTest, AnUnboundBeanFailsTheRouteStartNamingWhatWasLookedFor) {
  std::string error = yamlError(R"(
- route:
    from:
      uri: direct:a
      steps:
        - bean: {ref: billing, method: charge}
)");
  EXPECT_THAT(error, HasSubstr("bean 'billing' has no C++ processor bound as 'billing.charge' "
                               "or 'billing'"));
  EXPECT_THAT(error, HasSubstr("routes.yaml:6:11"));
  RouteHarness other;
  auto added = other.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:b").to("bean:billing?method=charge"); });
  ASSERT_TRUE(added);
  auto started = other.context.start();
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message,
              HasSubstr("bean 'billing' has no C++ processor bound as 'billing.charge' or "
                        "'billing'"));
  EXPECT_THAT(started.error().message, HasSubstr("step to[bean:billing?method=charge]"));
}

TEST_F(BeanTest, AMisspeltBeanSuggestsTheBoundNameAndABeanEndpointOnlySends) {
  std::string error = yamlError(R"(
- route:
    from:
      uri: direct:a
      steps:
        - bean: {ref: order}
)");
  EXPECT_THAT(error, HasSubstr("bean 'order' has no C++ processor bound as 'order'"));
  EXPECT_THAT(error, HasSubstr("did you mean 'orders'?"));
  RouteHarness other;
  ASSERT_TRUE(other.context.addRoutes([](RouteBuilder& b) { b.from("bean:orders").to("mock:x"); }));
  auto started = other.context.start();
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("the bean component only sends"));
  RouteHarness nameless;
  ASSERT_TRUE(nameless.context.addRoutes([](RouteBuilder& b) { b.from("direct:b").to("bean:"); }));
  started = nameless.context.start();
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("has no bean name (expected 'bean:name')"));
}

TEST_F(BeanTest, AJavaBeanTypeOrMethodParametersAreRefusedAtTheirPlace) {
  std::string error = yamlError(R"(
- route:
    from:
      uri: direct:a
      steps:
        - bean:
            beanType: com.acme.Orders
)");
  EXPECT_THAT(error, HasSubstr("bean of type 'com.acme.Orders' cannot be created: there are no "
                               "Java classes here"));
  EXPECT_THAT(error, HasSubstr("routes.yaml:7:13"));
  RouteHarness other;
  other.context.bindProcessor("orders", processorOf([](Exchange&) {}));
  ASSERT_TRUE(other.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:b").to("bean:orders?method=total(${body})&parameters=x");
  }));
  auto started = other.context.start();
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("parameters binds Java method arguments"));
}

TEST_F(BeanTest, WhatTheBeansProcessorThrowsGoesToTheErrorHandler) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"std::runtime_error"})
        .handled(true)
        .to("mock:failed")
        .end()
        .to("bean:broken")
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 0u);
  EXPECT_EQ(h.mock("mock:failed").receivedExchanges().size(), 1u);
}

}  // namespace
}  // namespace dromedary::testing
