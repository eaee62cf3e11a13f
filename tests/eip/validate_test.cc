// SPDX-License-Identifier: Apache-2.0
// validate: an exchange the predicate refuses fails with a PredicateValidationException that
// onException and doCatch take by Camel's names; one it accepts goes on.
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(ValidateTest, ARefusedExchangeFailsNamingThePredicateAndAnAcceptedOneGoesOn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").validate(simple("${body} regex '[0-9]+'")).to("mock:ok");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "123"));
  EXPECT_EQ(h.mock("mock:ok").receivedCount(), 1u);
  auto sent = h.producer.sendBody("direct:in", "abc");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("Validation failed for Predicate["), std::string::npos)
      << sent.error().message;
  EXPECT_EQ(h.mock("mock:ok").receivedCount(), 1u);
}

TEST(ValidateTest, TheFailureIsCaughtByCamelsExceptionNames) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"org.apache.camel.support.processor.validation.PredicateValidationException"})
          .handled(true)
          .setBody(constant("invalid"))
        .end()
        .validate(simple("${header.id} != null"))
        .setBody(constant("valid"));
    b.from("direct:try")
        .doTry()
          .validate(simple("${header.id} != null"))
        .doCatch({"org.apache.camel.ValidationException"})
          .setBody(constant("caught"))
        .end();
  });
  EXPECT_EQ(*h.producer.requestBody("direct:in", "x"), Value("invalid"));
  EXPECT_EQ(*h.producer.requestBodyAndHeader("direct:in", "x", "id", Value(1)), Value("valid"));
  EXPECT_EQ(*h.producer.requestBody("direct:try", "x"), Value("caught"));
}

}  // namespace
}  // namespace dromedary
