// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(ProducerTemplateTest, RequestBodyReturnsTheReply) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:echo").setBody(expression([](const Exchange& ex) {
      return Value{"echo " + ex.message().body().as<std::string>()};
    }));
  });
  auto reply = h.producer.requestBody("direct:echo", "hi");
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->getString(), "echo hi");
}

TEST(ProducerTemplateTest, RequestSetsInOutAndSendSetsInOnly) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  ASSERT_TRUE(h.producer.requestBody("direct:in", "b"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->pattern(), Pattern::InOnly);
  EXPECT_EQ(got[1]->pattern(), Pattern::InOut);
}

TEST(ProducerTemplateTest, SendBodyAndHeadersDeliversThem) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("mock:out"); });
  auto& mock = h.mock("mock:out");
  mock.expectedHeaderReceived("a", 1);
  mock.expectedHeaderReceived("b", "two");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", Headers{{"a", 1}, {"B", "two"}}));
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(ProducerTemplateTest, UnresolvableUriIsAnErrorNotAThrow) {
  RouteHarness h;
  h.start([](RouteBuilder&) {});
  auto sent = h.producer.sendBody("nosuch:thing", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::UnknownComponent);
}

TEST(ProducerTemplateTest, SendToMockDirectly) {
  RouteHarness h;
  h.start([](RouteBuilder&) {});
  ASSERT_TRUE(h.producer.sendBody("mock:direct-send", 42));
  auto& mock = h.mock("mock:direct-send");
  mock.expectedBodiesReceived({42});
  EXPECT_TRUE(mock.assertIsSatisfied());
}

}  // namespace
}  // namespace dromedary
