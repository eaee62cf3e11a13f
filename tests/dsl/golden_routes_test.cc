// SPDX-License-Identifier: Apache-2.0
// The same route written in C++, in Camel's YAML DSL and in Camel's XML DSL gives the same
// messages on the same mock endpoints.
#include <dromedary/dsl/route_loader.h>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

// An order gateway as a Camel user writes it: filter, choice, headers, a second route.
constexpr const char* kYaml = R"(
- route:
    id: orders
    from:
      uri: direct:orders
      steps:
        - removeHeaders:
            pattern: "Internal*"
        - filter:
            simple: "${header.type} == 'order'"
            steps:
              - setHeader:
                  name: seen
                  constant: "yes"
              - choice:
                  when:
                    - simple: "${header.amount} > {{big}}"
                      steps:
                        - setHeader:
                            name: priority
                            simple: "high-${header.region}"
                        - to: direct:big
                    - expression:
                        simple:
                          expression: "${header.region} == 'EU'"
                      steps:
                        - transform:
                            simple: "EU:${body}"
                        - to:
                            uri: mock:eu
                  otherwise:
                    steps:
                      - to: mock:standard
- from:
    uri: direct:big
    steps:
      - convertBodyTo: String
      - to: mock:big
)";

constexpr const char* kXml = R"(<?xml version="1.0" encoding="UTF-8"?>
<routes xmlns="http://camel.apache.org/schema/spring">
  <route id="orders">
    <from uri="direct:orders"/>
    <removeHeaders pattern="Internal*"/>
    <filter>
      <simple>${header.type} == 'order'</simple>
      <setHeader name="seen"><constant>yes</constant></setHeader>
      <choice>
        <when>
          <simple>${header.amount} > {{big}}</simple>
          <setHeader name="priority"><simple>high-${header.region}</simple></setHeader>
          <to uri="direct:big"/>
        </when>
        <when>
          <simple>${header.region} == 'EU'</simple>
          <transform><simple>EU:${body}</simple></transform>
          <to uri="mock:eu"/>
        </when>
        <otherwise>
          <to uri="mock:standard"/>
        </otherwise>
      </choice>
    </filter>
  </route>
  <route>
    <from uri="direct:big"/>
    <convertBodyTo type="String"/>
    <to uri="mock:big"/>
  </route>
</routes>
)";

void cppRoutes(RouteBuilder& b) {
  b.from("direct:orders").routeId("orders")
      .removeHeaders("Internal*")
      .filter(simple("${header.type} == 'order'"))
        .setHeader("seen", constant("yes"))
        .choice()
          .when(simple("${header.amount} > {{big}}"))
            .setHeader("priority", simple("high-${header.region}"))
            .to("direct:big")
          .when(simple("${header.region} == 'EU'"))
            .transform(simple("EU:${body}"))
            .to("mock:eu")
          .otherwise()
            .to("mock:standard")
        .end()
      .end();
  b.from("direct:big").convertBodyTo("String").to("mock:big");
}

enum class Front { Cpp, Yaml, Xml };

class GoldenRoutesTest : public ::testing::TestWithParam<Front> {
 protected:
  void SetUp() override {
    h.context.properties().set("big", "1000");
    switch (GetParam()) {
      case Front::Cpp: ASSERT_TRUE(h.context.addRoutes(cppRoutes)); break;
      case Front::Yaml: {
        auto r = loadYamlRoutes(h.context, kYaml, "orders.yaml");
        ASSERT_TRUE(r) << r.error().toString();
        EXPECT_EQ(r->routes, 2u);
        break;
      }
      case Front::Xml: {
        auto r = loadXmlRoutes(h.context, kXml, "orders.xml");
        ASSERT_TRUE(r) << r.error().toString();
        EXPECT_EQ(r->routes, 2u);
        break;
      }
    }
    auto started = h.context.start();
    ASSERT_TRUE(started) << started.error().toString();
  }

  void send(const char* body, Headers headers) {
    ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:orders", body, headers));
  }

  RouteHarness h;
};

TEST_P(GoldenRoutesTest, OrdersReachTheSameEndpointsWithTheSameMessages) {
  h.mock("mock:big").expectedBodiesReceived({Value("a")});
  h.mock("mock:big").expectedHeaderReceived("priority", Value("high-US"));
  h.mock("mock:eu").expectedBodiesReceived({Value("EU:b")});
  h.mock("mock:standard").expectedBodiesReceived({Value("c")});
  send("a", {{"type", "order"}, {"amount", 2500}, {"region", "US"}, {"InternalId", 1}});
  send("b", {{"type", "order"}, {"amount", 10}, {"region", "EU"}});
  send("c", {{"type", "order"}, {"amount", 10}, {"region", "APAC"}});
  send("d", {{"type", "refund"}, {"amount", 5000}});
  EXPECT_TRUE(h.mock("mock:big").assertIsSatisfied());
  EXPECT_TRUE(h.mock("mock:eu").assertIsSatisfied());
  EXPECT_TRUE(h.mock("mock:standard").assertIsSatisfied());
  const Exchange& big = *h.mock("mock:big").receivedExchanges().at(0);
  EXPECT_EQ(big.message().getHeader("InternalId"), nullptr) << "removeHeaders ran";
  EXPECT_EQ(*big.message().getHeader("seen"), Value("yes"));
}

TEST_P(GoldenRoutesTest, RouteIdsAreKept) {
  EXPECT_EQ(h.context.routeStatus("orders"), RouteStatus::Started);
}

INSTANTIATE_TEST_SUITE_P(Fronts, GoldenRoutesTest,
                         ::testing::Values(Front::Cpp, Front::Yaml, Front::Xml),
                         [](const auto& info) {
                           return std::string(info.param == Front::Cpp    ? "Cpp"
                                              : info.param == Front::Yaml ? "Yaml"
                                                                          : "Xml");
                         });

}  // namespace
}  // namespace dromedary::testing
