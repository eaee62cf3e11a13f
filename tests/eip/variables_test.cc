// SPDX-License-Identifier: Apache-2.0
// Camel 4's variables in the C++ DSL: the exchange's own, global and route ones, Simple's
// ${variable.x} and ${variables}, removeVariable, convertVariableTo, copies to sub-exchanges,
// variableSend / variableReceive on to and enrich, and from's variableReceive.
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

std::string bodyOf(RouteHarness& h, std::string_view mock, size_t i = 0) {
  return h.mock(mock).receivedExchanges().at(i)->message().body().as<std::string>();
}

TEST(VariablesTest, AnExchangesVariablesAreItsOwnAndReadBySimple) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setVariable("greeting", simple("hello ${body}"))
        .setBody(constant("replaced"))
        .to("direct:next");
    b.from("direct:next")
        .setBody(simple("${variable.greeting} / ${variable:greeting} / ${variables.size()}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "b"));
  EXPECT_EQ(bodyOf(h, "mock:out", 0), "hello a / hello a / 1");
  EXPECT_EQ(bodyOf(h, "mock:out", 1), "hello b / hello b / 1") << "each exchange has its own";
  EXPECT_FALSE(h.mock("mock:out").receivedExchanges()[0]->getProperty("greeting"))
      << "a variable is not a property";
}

TEST(VariablesTest, GlobalAndRouteVariablesOutliveTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:count")
        .routeId("counter")
        .setVariable("global:last", body())
        .setVariable("route:seen", simple("${variable.route:seen}+"))
        .setVariable("route:other:note", constant("from counter"));
    b.from("direct:read")
        .routeId("other")
        .setBody(simple("${variable.global:last} ${variable.route:note} "
                        "${variable.route:counter:seen}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:count", "one"));
  ASSERT_TRUE(h.producer.sendBody("direct:count", "two"));
  ASSERT_TRUE(h.producer.sendBody("direct:read", "x"));
  EXPECT_EQ(bodyOf(h, "mock:out"), "two from counter ++");
  EXPECT_EQ(h.context.variable("last")->as<std::string>(), "two");
  EXPECT_EQ(h.context.variable("route:counter:seen")->as<std::string>(), "++");
}

TEST(VariablesTest, RemoveAndConvertVariables) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setVariable("n", constant("41"))
        .setVariable("gone", constant("x"))
        .convertVariableTo("n", "Integer", "m")
        .removeVariable("gone")
        .setBody(simple("${variableAs(m, Integer)} ${variable.gone} ${variables.size()}"))
        .removeVariable("*")
        .setHeader("left", simple("${variables.size()}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodyOf(h, "mock:out"), "41  2");
  EXPECT_EQ(
      h.mock("mock:out").receivedExchanges()[0]->message().headers().get("left")->as<std::string>(),
      "0");
}

TEST(VariablesTest, SplitItemsGetACopyAndDoNotLeakIntoEachOther) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setVariable("outer", constant("o"))
        .split(body())
        .setBody(simple("${body}-${variable.outer}-${variable.inner}"))
        .setVariable("inner", body())
        .to("mock:item")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(ValueList{Value("a"), Value("b")})));
  EXPECT_EQ(bodyOf(h, "mock:item", 0), "a-o-");
  EXPECT_EQ(bodyOf(h, "mock:item", 1), "b-o-");
}

TEST(VariablesTest, VariableReceiveKeepsTheMessageAndStoresTheReply) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:service").setHeader("level", constant("gold")).setBody(constant("Bye"));
    b.from("direct:in")
        .toV("direct:service", "", "answer")
        .setHeader("got", simple("${variable.answer} ${variable:header:answer.level}"))
        .to("mock:out");
    b.from("direct:send")
        .setVariable("payload", constant("from a variable"))
        .to("direct:echo")
        .variableSend("payload")
        .to("mock:sent");
    b.from("direct:echo").setBody(simple("echo: ${body}"));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "Hello"));
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "Hello");
  EXPECT_EQ(ex.message().headers().get("got")->as<std::string>(), "Bye gold");
  EXPECT_FALSE(ex.message().headers().get("level")) << "the reply's headers stay in variables";
  ASSERT_TRUE(h.producer.sendBody("direct:send", "original"));
  EXPECT_EQ(bodyOf(h, "mock:sent"), "echo: from a variable");
}

// enrich is request-reply even for an InOnly exchange: the reply of a seda consumer comes back
// into the variable (a to with variableReceive keeps the exchange's pattern instead).
TEST(VariablesTest, EnrichWithVariableReceiveWaitsForTheReplyOfAnInOnlyExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("seda:stock").setBody(simple("stock for ${body}"));
    b.from("direct:in")
        .setExchangePattern(Pattern::InOnly)
        .enrich("seda:stock").variableReceive("stock")
        .setBody(simple("${body} / ${variable.stock}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "o-1"));
  EXPECT_EQ(bodyOf(h, "mock:out"), "o-1 / stock for o-1");
}

TEST(VariablesTest, FromVariableReceiveMovesTheBodyIntoAVariable) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .fromVariableReceive("incoming")
        .setBody(simple("Bye ${body}|${variable.incoming}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "World"));
  EXPECT_EQ(bodyOf(h, "mock:out"), "Bye |World");
}

TEST(VariablesTest, AnUnknownRepositoryIsAnErrorAtStart) {
  RouteHarness h;
  auto added = h.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:in").setVariable("cache:x", constant(1)); });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("VariableRepository with id: cache does not exist"),
            std::string::npos)
      << started.error().message;
}

TEST(VariablesTest, ADynamicNameIsEvaluatedPerExchangeAndABadOneFailsIt) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .setVariable("${header.scope}:${header.name}", body())
        .setBody(simple("${variable.global:x}"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "one",
                                            Headers{{"scope", "global"}, {"name", "x"}}));
  EXPECT_EQ(bodyOf(h, "mock:out"), "one");
  auto bad = h.producer.sendBodyAndHeaders("direct:in", "two",
                                           Headers{{"scope", "cache"}, {"name", "x"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("VariableRepository with id: cache does not exist"),
            std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace dromedary::testing
