// SPDX-License-Identifier: Apache-2.0
// Camel's interceptors: intercept before every step (nested ones too), interceptFrom by
// endpoint pattern, interceptSendToEndpoint with skip, onWhen and afterUri on static and
// dynamic sends; route-scoped and routeConfiguration ones; YAML, XML and C++; and the
// mistakes refused at load.
#include <gtest/gtest.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using InterceptTest = RouteFileTest;

size_t received(RouteHarness& h, std::string_view uri) {
  return h.mock(uri).receivedExchanges().size();
}

std::string property(const Exchange& ex, std::string_view name) {
  const Value* v = ex.getProperty(name);
  return v ? v->as<std::string>() : "(none)";
}

TEST_F(InterceptTest, InterceptRunsBeforeEveryStepAtAnyDepth) {
  h.start([](RouteBuilder& b) {
    b.intercept().to("mock:intercepted").end();
    b.from("direct:start")
        .to("mock:foo")
        .filter(simple("${body} != 'skip'"))
        .to("mock:bar")
        .end()
        .to("mock:result");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", "hello"));
  // Before to(mock:foo), the filter, the to(mock:bar) inside it and to(mock:result).
  EXPECT_EQ(received(h, "mock:intercepted"), 4u);
  EXPECT_EQ(bodies("mock:result"), std::vector<std::string>{"hello"});
}

TEST_F(InterceptTest, BranchesOfMulticastAndLoadBalanceStayOneStepEach) {
  h.start([](RouteBuilder& b) {
    b.intercept().to("mock:intercepted").end();
    b.from("direct:multicast").multicast().to("mock:a").to("mock:b").end();
    b.from("direct:balance").loadBalance().roundRobin().to("mock:c").to("mock:d").end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:multicast", "m"));
  EXPECT_EQ(received(h, "mock:a"), 1u);
  EXPECT_EQ(received(h, "mock:b"), 1u);
  EXPECT_EQ(received(h, "mock:intercepted"), 3u) << "before the multicast and each branch's to";
  ASSERT_TRUE(h.producer.sendBody("direct:balance", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:balance", "2"));
  EXPECT_EQ(bodies("mock:c"), std::vector<std::string>{"1"});
  EXPECT_EQ(bodies("mock:d"), std::vector<std::string>{"2"});
  EXPECT_EQ(received(h, "mock:intercepted"), 7u);
}

TEST_F(InterceptTest, OnWhenLimitsItAndStopEndsTheExchange) {
  h.start([](RouteBuilder& b) {
    b.intercept().onWhen(simple("${body} contains 'Hello'")).to("mock:intercepted").stop().end();
    b.from("direct:start").to("mock:foo").to("mock:result");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", "Hello World"));
  ASSERT_TRUE(h.producer.sendBody("direct:start", "Bye World"));
  EXPECT_EQ(bodies("mock:intercepted"), std::vector<std::string>{"Hello World"});
  EXPECT_EQ(bodies("mock:foo"), std::vector<std::string>{"Bye World"});
  EXPECT_EQ(bodies("mock:result"), std::vector<std::string>{"Bye World"});
}

TEST_F(InterceptTest, InterceptFromMatchesTheFromEndpointByWildcardOrRegex) {
  h.start([](RouteBuilder& b) {
    b.interceptFrom("direct:order*").to("mock:orders");
    b.interceptFrom("direct:(gold|silver)").to("mock:precious").end();
    b.from("direct:orderA").to("mock:a");
    b.from("direct:gold").to("mock:a");
    b.from("direct:other").to("mock:a");
  });
  for (const char* uri : {"direct:orderA", "direct:gold", "direct:other"}) {
    ASSERT_TRUE(h.producer.sendBody(uri, uri));
  }
  EXPECT_EQ(bodies("mock:orders"), std::vector<std::string>{"direct:orderA"});
  EXPECT_EQ(bodies("mock:precious"), std::vector<std::string>{"direct:gold"});
  EXPECT_EQ(property(*h.mock("mock:orders").receivedExchanges().at(0), "CamelInterceptedEndpoint"),
            "direct:orderA");
  EXPECT_EQ(received(h, "mock:a"), 3u);
}

TEST_F(InterceptTest, InterceptSendToEndpointRunsItsStepsBeforeTheSend) {
  h.start([](RouteBuilder& b) {
    b.interceptSendToEndpoint("mock:kafka*").to("mock:detour").setBody(constant("changed")).end();
    b.from("direct:start").to("mock:kafka-orders").to("mock:other");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", "order"));
  EXPECT_EQ(bodies("mock:detour"), std::vector<std::string>{"order"});
  EXPECT_EQ(bodies("mock:kafka-orders"), std::vector<std::string>{"changed"});
  EXPECT_EQ(bodies("mock:other"), std::vector<std::string>{"changed"});
  EXPECT_EQ(property(*h.mock("mock:detour").receivedExchanges().at(0), "CamelInterceptedEndpoint"),
            "mock:kafka-orders");
}

TEST_F(InterceptTest, SkipSendToOriginalEndpointOnlyWhenOnWhenHolds) {
  h.start([](RouteBuilder& b) {
    b.interceptSendToEndpoint("mock:kafka")
        .skipSendToOriginalEndpoint()
        .onWhen(simple("${header.biztype} == 'TEST'"))
        .to("mock:skipped")
        .end();
    b.from("direct:start").to("mock:kafka").to("mock:done");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:start", "a", "biztype", "TEST"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:start", "b", "biztype", "REAL"));
  EXPECT_EQ(bodies("mock:skipped"), std::vector<std::string>{"a"});
  EXPECT_EQ(bodies("mock:kafka"), std::vector<std::string>{"b"});
  EXPECT_EQ(bodies("mock:done"), (std::vector<std::string>{"a", "b"}))
      << "a skipped send goes on with the route";
}

TEST_F(InterceptTest, AfterUriGetsTheReplyUnlessTheSendWasSkipped) {
  h.start([](RouteBuilder& b) {
    b.interceptSendToEndpoint("direct:service").afterUri("mock:after").to("mock:before").end();
    b.interceptSendToEndpoint("direct:skipped")
        .skipSendToOriginalEndpoint()
        .afterUri("mock:after-skipped")
        .end();
    b.from("direct:service").setBody(simple("reply to ${body}"));
    b.from("direct:skipped").to("mock:never");
    b.from("direct:start").to("direct:service").to("direct:skipped").to("mock:result");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", "x"));
  EXPECT_EQ(bodies("mock:before"), std::vector<std::string>{"x"});
  EXPECT_EQ(bodies("mock:after"), std::vector<std::string>{"reply to x"});
  EXPECT_EQ(received(h, "mock:never"), 0u);
  EXPECT_EQ(received(h, "mock:after-skipped"), 0u);
  EXPECT_EQ(bodies("mock:result"), std::vector<std::string>{"reply to x"});
}

TEST_F(InterceptTest, ADynamicSendIsInterceptedByTheUriItComputes) {
  h.start([](RouteBuilder& b) {
    b.interceptSendToEndpoint("mock:secret*").skipSendToOriginalEndpoint().to("mock:audit").end();
    b.from("direct:start").toD(simple("mock:${header.dest}"));
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:start", "1", "dest", "secret-1"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:start", "2", "dest", "public"));
  EXPECT_EQ(received(h, "mock:secret-1"), 0u);
  EXPECT_EQ(bodies("mock:public"), std::vector<std::string>{"2"});
  EXPECT_EQ(bodies("mock:audit"), std::vector<std::string>{"1"});
  EXPECT_EQ(property(*h.mock("mock:audit").receivedExchanges().at(0), "CamelInterceptedEndpoint"),
            "mock:secret-1");
}

TEST_F(InterceptTest, TwoMatchingInterceptorsRunInOrderAroundTheSend) {
  h.start([](RouteBuilder& b) {
    b.interceptSendToEndpoint("mock:target")
        .afterUri("mock:after1")
        .setBody(simple("${body}>b1"))
        .end();
    b.interceptSendToEndpoint("mock:*").afterUri("mock:after2").setBody(simple("${body}>b2")).end();
    b.from("direct:start").to("mock:target");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", "m"));
  EXPECT_EQ(bodies("mock:target"), std::vector<std::string>{"m>b1>b2"});
  EXPECT_EQ(bodies("mock:after2"), std::vector<std::string>{"m>b1>b2"});
  EXPECT_EQ(bodies("mock:after1"), std::vector<std::string>{"m>b1>b2"});
}

TEST_F(InterceptTest, ARouteScopedInterceptorLeavesOtherRoutesAlone) {
  h.start([](RouteBuilder& b) {
    b.from("direct:a").intercept().to("mock:intercepted").end().to("mock:a");
    b.from("direct:b").to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "2"));
  EXPECT_EQ(bodies("mock:intercepted"), std::vector<std::string>{"1"});
}

TEST_F(InterceptTest, AnAfterUriThatIsNoEndpointFailsTheStartNamingTheClause) {
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.interceptSendToEndpoint("mock:*").afterUri("nosuch:x").end();
    b.from("direct:a").routeId("r").to("mock:a");
  });
  ASSERT_TRUE(added);
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("unknown component 'nosuch'"), std::string::npos);
  EXPECT_NE(started.error().message.find("(in interceptSendToEndpoint[mock:*] of route 'r')"),
            std::string::npos)
      << started.error().message;
}

TEST_F(InterceptTest, MisusedOptionsAreReportedWhenRoutesAreAdded) {
  auto added = h.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:a").to("mock:a").skipSendToOriginalEndpoint(); });
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("skipSendToOriginalEndpoint() outside "
                                       "interceptSendToEndpoint()"),
            std::string::npos)
      << added.error().toString();
}

TEST_F(InterceptTest, YamlRouteConfigurationAndTopLevelInterceptors) {
  loadYaml(R"~(
- routeConfiguration:
    intercept-from:
      - intercept-from:
          uri: "direct:in*"
          steps:
            - to: mock:incoming
    interceptSendToEndpoint:
      - interceptSendToEndpoint:
          uri: "mock:kafka*"
          skip-send-to-original-endpoint: true
          onWhen:
            simple: "${header.biztype} == 'TEST'"
          steps:
            - to: mock:test-messages
- intercept:
    onWhen:
      simple: "${body} == 'stop me'"
    steps:
      - to: mock:stopped
      - stop: {}
- route:
    from:
      uri: direct:in
      steps:
        - to: mock:kafka
        - to: mock:out
)~");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "biztype", "TEST"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "biztype", "REAL"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "stop me"));
  EXPECT_EQ(bodies("mock:incoming"), (std::vector<std::string>{"a", "b", "stop me"}));
  EXPECT_EQ(bodies("mock:test-messages"), std::vector<std::string>{"a"});
  EXPECT_EQ(bodies("mock:kafka"), std::vector<std::string>{"b"});
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(bodies("mock:stopped"), std::vector<std::string>{"stop me"});
}

TEST_F(InterceptTest, XmlContextWideConfigurationAndRouteScopedInterceptors) {
  loadXml(R"~(<camelContext xmlns="http://camel.apache.org/schema/spring">
  <interceptSendToEndpoint uri="mock:kafka*" afterUri="mock:after">
    <to uri="mock:before"/>
  </interceptSendToEndpoint>
  <routeConfiguration id="audited">
    <interceptFrom>
      <to uri="mock:audited"/>
    </interceptFrom>
  </routeConfiguration>
  <route routeConfigurationId="audited">
    <from uri="direct:a"/>
    <to uri="mock:kafka-a"/>
  </route>
  <route>
    <from uri="direct:b"/>
    <intercept>
      <onWhen><simple>${body} == 'mark'</simple></onWhen>
      <to uri="mock:marked"/>
    </intercept>
    <to uri="mock:b"/>
  </route>
  <route>
    <from uri="direct:c"/>
    <intercept>
      <onWhen>
        <simple>${body} contains 'Hello'</simple>
        <to uri="mock:hello"/>
        <stop/>
      </onWhen>
    </intercept>
    <to uri="mock:c"/>
  </route>
</camelContext>)~");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "mark"));
  ASSERT_TRUE(h.producer.sendBody("direct:c", "Hello there"));
  ASSERT_TRUE(h.producer.sendBody("direct:c", "Bye"));
  EXPECT_EQ(bodies("mock:hello"), std::vector<std::string>{"Hello there"})
      << "steps inside <onWhen> run when it holds, as in Camel's examples";
  EXPECT_EQ(bodies("mock:c"), std::vector<std::string>{"Bye"});
  EXPECT_EQ(bodies("mock:audited"), std::vector<std::string>{"1"});
  EXPECT_EQ(bodies("mock:before"), std::vector<std::string>{"1"});
  EXPECT_EQ(bodies("mock:kafka-a"), std::vector<std::string>{"1"});
  EXPECT_EQ(bodies("mock:after"), std::vector<std::string>{"1"});
  EXPECT_EQ(bodies("mock:marked"), std::vector<std::string>{"mark"});
  EXPECT_EQ(bodies("mock:b"), std::vector<std::string>{"mark"});
}

// routeConfigurationId takes Camel's patterns: `audit*` names every configuration whose id
// starts so, `*` every one with an id; an exact id that names none is an error.
TEST_F(InterceptTest, RouteConfigurationIdPatternsPickEveryMatchingConfiguration) {
  loadYaml(R"~(
- routeConfiguration:
    id: audit-in
    interceptFrom:
      - interceptFrom: {steps: [{to: mock:audit-in}]}
- routeConfiguration:
    id: audit-out
    interceptSendToEndpoint:
      - interceptSendToEndpoint: {uri: "mock:out*", steps: [{to: mock:audit-out}]}
- routeConfiguration:
    id: other
    intercept:
      - intercept: {steps: [{to: mock:other}]}
- route:
    routeConfigurationId: "audit*"
    from: {uri: direct:a, steps: [{to: mock:out-a}]}
- route:
    routeConfigurationId: "*"
    from: {uri: direct:b, steps: [{to: mock:out-b}]}
)~");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "b"));
  EXPECT_EQ(bodies("mock:audit-in"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(bodies("mock:audit-out"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(bodies("mock:other"), std::vector<std::string>{"b"});
  RouteHarness fresh;
  auto loaded = loadYamlRoutes(fresh.context, R"~(
- routeConfiguration: {id: audit-in}
- route:
    routeConfigurationId: "audit-inn"
    from: {uri: direct:a, steps: [{to: mock:a}]}
)~", "routes.yaml");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("no routeConfiguration with id 'audit-inn'"),
            std::string::npos)
      << loaded.error().message;
}

TEST_F(InterceptTest, MistakesInRouteFilesAreRefusedWithTheirPlace) {
  EXPECT_NE(yamlError(R"~(
- routeConfiguration:
    interceptSendToEndpoint:
      - interceptSendToEndpoint:
          steps:
            - to: mock:x
- from:
    uri: direct:a
    steps:
      - to: mock:a
)~")
                .find("interceptSendToEndpoint needs 'uri' at routes.yaml:4:9"),
            std::string::npos);
  RouteHarness fresh;
  auto loaded = loadYamlRoutes(fresh.context, R"~(
- intercept:
    skipSendToOriginalEndpoint: true
    steps:
      - to: mock:x
)~",
                               "routes.yaml");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().toString().find("unknown key 'skipSendToOriginalEndpoint' in "
                                           "intercept"),
            std::string::npos)
      << loaded.error().toString();
  RouteHarness third;
  auto bad = loadYamlRoutes(third.context, R"~(
- interceptFrom:
    onWhen:
      simple: "${header.x} =="
    steps:
      - to: mock:x
- from:
    uri: direct:a
    steps:
      - to: mock:a
)~",
                            "routes.yaml");
  std::string text = bad ? "" : bad.error().toString();
  if (bad) {
    auto started = third.context.start();
    ASSERT_FALSE(started);
    text = started.error().toString();
  }
  EXPECT_NE(text.find("interceptFrom"), std::string::npos) << text;
  EXPECT_NE(text.find("routes.yaml:2:3"), std::string::npos) << text;
}

}  // namespace
}  // namespace dromedary::testing
