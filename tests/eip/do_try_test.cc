// SPDX-License-Identifier: Apache-2.0
// doTry / doCatch / doFinally: Java's try/catch/finally in a route.
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

template <class E>
std::function<void(Exchange&)> thrower(const char* what) {
  return [what](Exchange&) { throw E(what); };
}

TEST(DoTryTest, ACatchTakesTheFailureAndTheRouteGoesOn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .process(thrower<std::runtime_error>("boom"))
            .to("mock:not-reached")
        .doCatch({"std::runtime_error"})
            .setBody(simple("caught: ${exception.message}"))
        .end()
        .to("mock:after");
  });
  auto reply = h.producer.requestBody("direct:in", "x");
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("caught: boom"));
  EXPECT_EQ(h.mock("mock:not-reached").receivedCount(), 0u);
  auto after = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(after.size(), 1u);
  ASSERT_NE(after[0]->getProperty("CamelExceptionCaught"), nullptr);
}

TEST(DoTryTest, CatchesAreTriedInOrderWithOnWhen) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .process(thrower<std::invalid_argument>("bad"))
        .doCatch({"std::invalid_argument"}).onWhen(header("lenient") == true)
            .setBody(constant("lenient"))
        .doCatch({"std::logic_error"})
            .setBody(constant("logic"))
        .doCatch({"std::invalid_argument"})
            .setBody(constant("never: an earlier catch took it"))
        .end();
  });
  EXPECT_EQ(h.producer.requestBodyAndHeader("direct:in", "x", "lenient", true).value(),
            Value("lenient"));
  EXPECT_EQ(h.producer.requestBodyAndHeader("direct:in", "x", "lenient", false).value(),
            Value("logic"));
}

TEST(DoTryTest, FinallyRunsOnSuccessAndAfterACatch) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .filter(simple("${body} == 'fail'")).process(thrower<std::runtime_error>("x")).end()
        .doCatch()
            .to("mock:caught")
        .doFinally()
            .to("mock:finally")
        .end()
        .to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "ok"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "fail"));
  EXPECT_EQ(h.mock("mock:caught").receivedBodies(), (std::vector<Value>{Value("fail")}));
  EXPECT_EQ(h.mock("mock:finally").receivedBodies(),
            (std::vector<Value>{Value("ok"), Value("fail")}));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 2u);
}

TEST(DoTryTest, AnUncaughtFailureRunsFinallyThenGoesToTheCaller) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .process(thrower<std::runtime_error>("not caught"))
        .doCatch({"std::logic_error"})
            .to("mock:caught")
        .doFinally()
            .to("mock:finally")
        .end()
        .to("mock:after");
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("not caught"), std::string::npos);
  EXPECT_EQ(h.mock("mock:caught").receivedCount(), 0u);
  EXPECT_EQ(h.mock("mock:finally").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST(DoTryTest, AFailureInACatchRunsFinallyAndGoesOn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .process(thrower<std::runtime_error>("first"))
        .doCatch()
            .process(thrower<std::logic_error>("in catch"))
        .doFinally()
            .to("mock:finally")
        .end();
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("in catch"), std::string::npos);
  EXPECT_EQ(h.mock("mock:finally").receivedCount(), 1u);
}

TEST(DoTryTest, AFailureInFinallyIsNotOfferedToTheSameCatches) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .to("mock:body")
        .doCatch()
            .to("mock:caught")
        .doFinally()
            .process(thrower<std::runtime_error>("in finally"))
        .end();
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("in finally"), std::string::npos);
  EXPECT_EQ(h.mock("mock:caught").receivedCount(), 0u);
}

TEST(DoTryTest, TheErrorHandlerDoesNotRedeliverWhatACatchTook) {
  RouteHarness h;
  int runs = 0;
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(0ms));
    b.from("direct:in")
        .doTry()
            .process([&](Exchange&) {
              ++runs;
              throw std::runtime_error("x");
            })
        .doCatch()
            .setBody(constant("caught"))
        .end();
  });
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("caught"));
  EXPECT_EQ(runs, 1);
}

TEST(DoTryTest, NestedTriesCatchInnermostFirst) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .doTry()
                .process(thrower<std::runtime_error>("inner"))
            .doCatch({"std::logic_error"})
                .setBody(constant("inner catch"))
            .end()
        .doCatch({"std::runtime_error"})
            .setBody(constant("outer catch"))
        .end();
  });
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("outer catch"));
}

TEST(DoTryTest, FailuresFromACalledRouteAreCaught) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
            .to("direct:sub")
        .doCatch()
            .setBody(constant("caught"))
        .end();
    b.from("direct:sub").errorHandler(noErrorHandler())
        .process(thrower<std::runtime_error>("in sub"));
  });
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("caught"));
  EXPECT_EQ(h.context.inflight(), 0u);
}

TEST(DoTryTest, ADoTryWithoutCatchOrFinallyFailsAtStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").doTry().to("mock:out").end();
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "doTry needs at least one doCatch or a doFinally (in route 'r', step doTry)");
}

TEST(DoTryTest, DoCatchWithoutDoTryIsReported) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").doCatch().to("mock:out");
  });
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().message,
            "doCatch() without an open doTry() (in route 'r' from 'direct:in')");
}

}  // namespace
}  // namespace dromedary
