// SPDX-License-Identifier: Apache-2.0
// throwException: the exchange fails with a failure of the named type and the message
// (Simple); doCatch and onException take it by that type, the closest clause first.
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(ThrowExceptionTest, TheExchangeFailsWithTheTypesFailureAndTheMessage) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").throwException("java.lang.IllegalArgumentException", "bad ${body}")
        .to("mock:after");
  });
  auto sent = h.producer.sendBody("direct:in", "order-7");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("bad order-7"), std::string::npos) << sent.error().message;
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST(ThrowExceptionTest, DoCatchTakesItByItsType) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .doTry()
          .throwException("java.io.IOException", "disk full")
        .doCatch({"java.lang.IllegalArgumentException"})
          .setBody(constant("wrong clause"))
        .doCatch({"java.io.IOException"})
          .setBody(simple("caught ${exception.message}"))
        .end()
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto& mock = h.mock("mock:out");
  mock.expectedBodiesReceived({"caught disk full"});
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(ThrowExceptionTest, OnExceptionPicksTheClosestClauseForAnApplicationsType) {
  struct PaymentDeclined : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  RouteHarness h;
  ASSERT_TRUE(h.context.registerExceptionType<PaymentDeclined>("com.acme.PaymentDeclined",
                                                               "std::runtime_error"));
  h.start([](RouteBuilder& b) {
    b.onException({"std::runtime_error"}).handled(true).setBody(constant("runtime")).end();
    b.onException({"com.acme.PaymentDeclined"}).handled(true).setBody(constant("declined"))
        .end();
    b.from("direct:in").throwException("com.acme.PaymentDeclined").to("mock:after");
  });
  auto reply = h.producer.requestBody("direct:in", "x");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->as<std::string>(), "declined");
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST(ThrowExceptionTest, AnUnknownTypeFailsTheRouteStartNamingIt) {
  Context context;
  registerBuiltinComponents(context);
  auto added = context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").throwException("java.lang.IllegalArgumentExcepton", "x");
  });
  if (added) added = context.start();
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("unknown exception type "
                                       "'java.lang.IllegalArgumentExcepton' in throwException; "
                                       "did you mean 'java.lang.IllegalArgumentException'?"),
            std::string::npos)
      << added.error().message;
}

}  // namespace
}  // namespace dromedary
