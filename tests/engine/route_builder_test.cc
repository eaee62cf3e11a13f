// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

Error addError(const std::function<void(RouteBuilder&)>& configure) {
  RouteHarness h;
  auto added = h.context.addRoutes(configure);
  EXPECT_FALSE(added);
  return added ? Error{} : added.error();
}

TEST(RouteBuilderTest, WhenOutsideChoiceIsReported) {
  Error e = addError([](RouteBuilder& b) { b.from("direct:a").routeId("r").when(header("x")); });
  EXPECT_EQ(e.code, ErrorCode::InvalidRoute);
  EXPECT_EQ(e.message, "when() without an open choice() (in route 'r' from 'direct:a')");
}

TEST(RouteBuilderTest, EndWithoutOpenBlockIsReported) {
  Error e = addError([](RouteBuilder& b) { b.from("direct:a").routeId("r").to("mock:x").end(); });
  EXPECT_EQ(e.message,
            "end() without an open block (filter, choice, split, multicast, loop ...) (in route 'r' from 'direct:a')");
}

TEST(RouteBuilderTest, StepDirectlyInsideChoiceIsReported) {
  Error e = addError([](RouteBuilder& b) {
    b.from("direct:a").routeId("r").choice().to("mock:x").end();
  });
  EXPECT_EQ(e.message,
            "a step was added directly inside choice(); put it inside when() or otherwise() (in "
            "route 'r' from 'direct:a')");
}

TEST(RouteBuilderTest, UnknownConvertBodyTypeSuggestsTheOneMeant) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:a").routeId("r").convertBodyTo("Strng"); }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "unknown type 'Strng' for convertBodyTo; did you mean 'String'? (in route 'r', step "
            "convertBodyTo[Strng])");
}

TEST(RouteBuilderTest, UnknownLanguageIsReportedAtStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:a").routeId("r").setBody(language("groovy", "1+1"));
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "unknown language 'groovy' in expression '1+1'; known languages: constant, "
            "exchangeProperty, header, jq, jsonpath, simple, variable (in route 'r', step setBody[groovy{1+1}])");
}

TEST(RouteBuilderTest, RouteIdsAreGeneratedWhenNotGiven) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:a");
    b.from("direct:b").routeId("named");
    b.from("direct:c");
  });
  EXPECT_EQ(h.context.routeIds(), (std::vector<std::string>{"route1", "named", "route2"}));
}

TEST(RouteBuilderTest, GeneratedNodeIdsNumberOutermostFirstInRouteOrder) {
  // As Camel numbers them: the split before the to inside it, then the to after it.
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:a").routeId("r").split(body()).to("mock:inner").end().to("mock:after");
  });
  auto stats = h.context.routeStatistics("r");
  ASSERT_TRUE(stats);
  std::vector<std::pair<std::string, std::string>> ids;
  for (const auto& p : stats->processors) ids.emplace_back(p.id, p.description);
  EXPECT_EQ(ids, (std::vector<std::pair<std::string, std::string>>{
                     {"split1", "split[body]"},
                     {"to1", "to[mock:inner]"},
                     {"to2", "to[mock:after]"}}));
}

TEST(RouteBuilderTest, EndChoiceReturnsToTheChoice) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:a")
        .choice()
        .when(header("n") == 1)
        .to("mock:one")
        .endChoice()
        .when(header("n") == 2)
        .to("mock:two")
        .end()
        .to("mock:all");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:a", "x", "n", 2));
  EXPECT_EQ(h.mock("mock:two").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:all").receivedCount(), 1u);
}

TEST(RouteBuilderTest, LanguageExpressionsCompileThroughTheContext) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:a").setHeader("h", language("header", "src")).filter(language("header", "flag"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:a", "x", Headers{{"src", 5}, {"flag", "true"}}));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().getHeader("h")->getInt(), 5);
}

}  // namespace
}  // namespace dromedary
