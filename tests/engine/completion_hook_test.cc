// SPDX-License-Identifier: Apache-2.0
// Completion hooks run once, when the exchange has left its last route, success or failure.
#include <vector>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

std::vector<std::string> calls;

void record(Exchange& ex, void* arg) noexcept {
  calls.push_back(std::string(static_cast<const char*>(arg)) + ":" +
                  (ex.failed() ? "failed" : "ok"));
}

class CompletionHookTest : public ::testing::Test {
 protected:
  CompletionHookTest() { calls.clear(); }
};

TEST_F(CompletionHookTest, RunsAfterTheOutermostRouteNewestFirst) {
  RouteHarness h;
  static const char first[] = "first";
  static const char second[] = "second";
  h.start([](RouteBuilder& b) {
    b.from("direct:a")
        .process([](Exchange& ex) { ex.addCompletionHook(&record, const_cast<char*>(first)); })
        .to("direct:b")
        .process([](Exchange&) { calls.push_back("after b"); });
    b.from("direct:b").process(
        [](Exchange& ex) { ex.addCompletionHook(&record, const_cast<char*>(second)); });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(calls, (std::vector<std::string>{"after b", "second:ok", "first:ok"}));
}

TEST_F(CompletionHookTest, RunsWhenTheExchangeFails) {
  RouteHarness h;
  static const char tag[] = "hook";
  h.start([](RouteBuilder& b) {
    b.from("direct:a")
        .process([](Exchange& ex) { ex.addCompletionHook(&record, const_cast<char*>(tag)); })
        .setBody(simple("${bodyAs(Integer)}"));
  });
  EXPECT_FALSE(h.producer.sendBody("direct:a", "abc"));
  EXPECT_EQ(calls, (std::vector<std::string>{"hook:failed"}));
}

TEST_F(CompletionHookTest, AtMostEightPerExchange) {
  Exchange ex;
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(ex.addCompletionHook(&record, nullptr));
  EXPECT_FALSE(ex.addCompletionHook(&record, nullptr));
}

}  // namespace
}  // namespace dromedary::testing
