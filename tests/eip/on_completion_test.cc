// SPDX-License-Identifier: Apache-2.0
// onCompletion: runs on a copy once the exchange has left its last route.
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(OnCompletionTest, RunsOnACopyAfterTheExchangeCompletes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onCompletion().transform(constant("changed by onCompletion")).to("mock:done").end()
        .transform(simple("reply to ${body}"));
  });
  auto reply = h.producer.requestBody("direct:in", "x");
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, Value("reply to x")) << "the reply is not the copy's";
  auto done = h.mock("mock:done").receivedExchanges();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(*done[0]->getProperty("CamelOnCompletion"), Value(true));
}

TEST(OnCompletionTest, OnFailureOnlySeesTheFailure) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onCompletion().onFailureOnly()
            .setBody(simple("failed: ${exception.message}")).to("mock:failed")
        .end()
        .filter(simple("${body} == 'bad'"))
            .process([](Exchange&) { throw std::runtime_error("bad input"); })
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "good"));
  ASSERT_FALSE(h.producer.sendBody("direct:in", "bad"));
  EXPECT_EQ(h.mock("mock:failed").receivedBodies(),
            (std::vector<Value>{Value("failed: bad input")}));
}

TEST(OnCompletionTest, OnCompleteOnlyAndOnWhenFilter) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onCompletion().onCompleteOnly().onWhen(simple("${body} != 'quiet'")).to("mock:done").end()
        .filter(simple("${body} == 'bad'"))
            .process([](Exchange&) { throw std::runtime_error("x"); })
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "quiet"));
  ASSERT_FALSE(h.producer.sendBody("direct:in", "bad"));
  EXPECT_EQ(h.mock("mock:done").receivedBodies(), (std::vector<Value>{Value("a")}));
}

TEST(OnCompletionTest, RunsOnceWhenTheExchangeVisitsItsRouteTwice) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("direct:sub").to("direct:sub");
    b.from("direct:sub").onCompletion().to("mock:done").end().log("sub");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:done").receivedCount(), 1u);
}

TEST(OnCompletionTest, TheBuildersOnCompletionAppliesToRoutesWithoutTheirOwn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.onCompletion().to("mock:global").end();
    b.from("direct:a").to("mock:a");
    b.from("direct:b").onCompletion().to("mock:own").end().to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "2"));
  EXPECT_EQ(h.mock("mock:global").receivedBodies(), (std::vector<Value>{Value("1")}));
  EXPECT_EQ(h.mock("mock:own").receivedBodies(), (std::vector<Value>{Value("2")}));
}

}  // namespace
}  // namespace dromedary
