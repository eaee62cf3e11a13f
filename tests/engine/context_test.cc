// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using ::testing::HasSubstr;
using testing::RouteHarness;

Error startError(RouteHarness& h, const std::function<void(RouteBuilder&)>& configure) {
  auto added = h.context.addRoutes(configure);
  if (!added) return added.error();
  auto started = h.context.start();
  EXPECT_FALSE(started) << "start was expected to fail";
  return started ? Error{} : started.error();
}

TEST(ContextTest, UnknownComponentNamesItAndTheKnownOnes) {
  RouteHarness h;
  Error e = startError(h, [](RouteBuilder& b) { b.from("direct:a").to("nope:x"); });
  EXPECT_EQ(e.code, ErrorCode::UnknownComponent);
  EXPECT_EQ(e.message,
            "unknown component 'nope' in endpoint 'nope:x'; known components: activemq, amqp, bean, "
            "cron, direct, file, http, https, jms, kafka, kamelet, log, master, mock, platform-http, rest, scheduler, seda, sjms, sjms2, sql, stream, timer (in route 'route1', step to[nope:x])");
}

TEST(ContextTest, MisspelledComponentSuggestsTheOneMeant) {
  RouteHarness h;
  Error e = startError(h, [](RouteBuilder& b) { b.from("direct:a").to("drect:x"); });
  EXPECT_THAT(e.message, HasSubstr("unknown component 'drect' in endpoint 'drect:x'; did you "
                                   "mean 'direct'?"));
}

TEST(ContextTest, UnknownOptionFailsAtStartNamingOptionEndpointAndSuggestion) {
  RouteHarness h;
  Error e = startError(h, [](RouteBuilder& b) {
    b.from("direct:a").routeId("r").to("direct:b?timout=5");
  });
  EXPECT_EQ(e.code, ErrorCode::UnknownOption);
  EXPECT_EQ(e.message,
            "unknown option 'timout' for endpoint 'direct:b?timout=5'; did you mean 'timeout'? "
            "(in route 'r', step to[direct:b?timout=5])");
}

TEST(ContextTest, BadFromEndpointNamesTheRoute) {
  RouteHarness h;
  Error e = startError(h, [](RouteBuilder& b) { b.from("direct:a?bogus=1").routeId("r"); });
  EXPECT_THAT(e.message, HasSubstr("unknown option 'bogus' for endpoint 'direct:a?bogus=1'"));
  EXPECT_THAT(e.message, HasSubstr("(in route 'r', from[direct:a?bogus=1])"));
}

TEST(ContextTest, DuplicateRouteIdIsRejected) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:a").routeId("same");
    b.from("direct:b").routeId("same");
  });
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().message, "route id 'same' is used by more than one route");
}

// An id is a label in /metrics, a value in the management API's JSON and a word in log lines:
// one that is not UTF-8 text (from a route file, say) made all three fail.
TEST(ContextTest, ARouteIdThatIsNotPrintableUtf8IsRejectedShowingItsBytes) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:a").routeId("bad\xff\x01id");
  });
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().message,
            "route id 'bad\\xff\\x01id' is not printable UTF-8 text (route from 'direct:a')");
  EXPECT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:b").routeId("b\xc3\xbcro-\xe2\x82\xac");  // "büro-€"
  }));
}

TEST(ContextTest, SecondConsumerOnADirectEndpointIsRejected) {
  RouteHarness h;
  Error e = startError(h, [](RouteBuilder& b) {
    b.from("direct:a").routeId("one");
    b.from("direct:a").routeId("two");
  });
  EXPECT_EQ(e.code, ErrorCode::DuplicateConsumer);
  EXPECT_EQ(e.message,
            "Cannot add a 2nd consumer to the same endpoint: direct://a. A direct endpoint "
            "allows only one consumer. (starting route 'two')");
}

TEST(ContextTest, EndpointsAreCachedByNormalisedUri) {
  RouteHarness h;
  Endpoint* a = *h.context.endpoint("direct:x?timeout=5&block=false");
  Endpoint* b = *h.context.endpoint("direct://x?block=false&timeout=5");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->uri(), "direct://x?block=false&timeout=5");
}

// The table grows many times over (from 16 slots): every endpoint is still found, once.
TEST(ContextTest, ThousandsOfEndpointsAreEachFoundAgainAndListedOnce) {
  RouteHarness h;
  constexpr int kEndpoints = 5000;
  std::vector<Endpoint*> made;
  for (int i = 0; i < kEndpoints; ++i) {
    made.push_back(*h.context.endpoint("mock:e" + std::to_string(i)));
  }
  for (int i = 0; i < kEndpoints; ++i) {
    ASSERT_EQ(*h.context.endpoint("mock://e" + std::to_string(i)), made[i]) << i;
  }
  std::vector<std::string> uris = h.context.endpointUris();
  EXPECT_EQ(std::count_if(uris.begin(), uris.end(),
                          [](const std::string& u) { return u.starts_with("mock://e"); }),
            kEndpoints);
  EXPECT_TRUE(std::is_sorted(uris.begin(), uris.end()));
}

TEST(ContextTest, RoutesWithoutAutoStartupStayStoppedUntilStarted) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:lazy?block=false").routeId("lazy").autoStartup(false).to("mock:out");
  });
  EXPECT_EQ(h.context.routeStatus("lazy"), RouteStatus::Stopped);
  EXPECT_FALSE(h.producer.sendBody("direct:lazy?block=false", "x"));
  ASSERT_TRUE(h.context.startRoute("lazy"));
  EXPECT_EQ(h.context.routeStatus("lazy"), RouteStatus::Started);
  EXPECT_TRUE(h.producer.sendBody("direct:lazy?block=false", "x"));
}

TEST(ContextTest, StoppedRouteRejectsWithAClearError) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:a").routeId("a").to("mock:out"); });
  ASSERT_TRUE(h.context.stopRoute("a"));
  auto sent = h.producer.sendBody("direct:a?block=false", "x");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "No consumers available on endpoint: direct://a");
}

TEST(ContextTest, ARouteIsRemovedOnlyOnceStoppedAndItsIdIsFreeAgain) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:a").routeId("a").to("mock:old");
    b.from("direct:b").routeId("b").to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  auto refused = h.context.removeRoute("a");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "route 'a' is started: stop it before removing it");
  ASSERT_TRUE(h.context.stopRoute("a"));
  ASSERT_TRUE(h.context.removeRoute("a"));
  EXPECT_EQ(h.context.routeIds(), std::vector<std::string>{"b"});
  EXPECT_FALSE(h.context.routeStatistics("a"));
  EXPECT_EQ(h.context.exchangesDone(), 1u) << "what a removed route finished still counts";

  auto added = h.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:a").routeId("a").to("mock:new"); });
  ASSERT_TRUE(added) << added.error().toString();
  ASSERT_TRUE(h.producer.sendBody("direct:a", "y"));
  EXPECT_EQ(h.mock("mock:new").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:old").receivedCount(), 1u);
}

TEST(ContextTest, RemovingAnUnknownRouteListsTheRoutes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:a").routeId("a"); });
  auto r = h.context.removeRoute("b");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no route with id 'b'; routes: a");
}

TEST(ContextTest, StartingAnUnknownRouteListsTheRoutes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:a").routeId("a"); });
  auto r = h.context.startRoute("b");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no route with id 'b'; routes: a");
}

TEST(ContextTest, StoppedContextStartsAgain) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:a").to("mock:out"); });
  h.context.stop();
  ASSERT_TRUE(h.context.start());
  EXPECT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

TEST(ContextTest, RoutesAddedToARunningContextStartAtOnce) {
  RouteHarness h;
  h.start([](RouteBuilder&) {});
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) { b.from("direct:late").to("mock:late"); }));
  EXPECT_TRUE(h.producer.sendBody("direct:late", "x"));
  EXPECT_EQ(h.mock("mock:late").receivedCount(), 1u);
}

}  // namespace
// Two routes consuming a channel that takes one consumer are found without starting them
// (dromedary validate): direct always, seda unless multipleConsumers=true.
// A send to an endpoint that cannot make a producer fails, and leaves the context able to
// stop (an empty producer entry was left behind and stop() called it: SIGSEGV).
TEST(ContextTest, AProducerThatCannotBeMadeLeavesTheContextStoppable) {
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([](RouteBuilder& r) { r.from("direct:in").to("mock:x"); }));
  ASSERT_TRUE(context.start());
  auto sent = ProducerTemplate(context).sendBody("timer:only-consumes", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("only consumes"), std::string::npos) << sent.error().message;
  EXPECT_FALSE(ProducerTemplate(context).sendBody("timer:only-consumes", "x"));  // again
  context.stop();
}

TEST(ContextTest, CompilingFindsTwoConsumersOfAOneConsumerChannel) {
  for (auto [a, b, ok] : {std::tuple{"direct:x", "direct:x?timeout=5", false},
                          std::tuple{"seda:q", "seda:q?size=10", false},
                          std::tuple{"seda:q?multipleConsumers=true",
                                     "seda:q?multipleConsumers=true&concurrentConsumers=2", true},
                          std::tuple{"direct:x", "direct:y", true}}) {
    Context context;
    registerBuiltinComponents(context);
    ASSERT_TRUE(context.addRoutes([&](RouteBuilder& r) {
      r.from(a).routeId("one").to("mock:a");
      r.from(b).routeId("two").to("mock:b");
    }));
    auto compiled = context.compileRoutes();
    EXPECT_EQ(bool(compiled), ok) << a << " " << b;
    if (!compiled) {
      EXPECT_NE(compiled.error().message.find("routes 'one' and 'two' both consume from"),
                std::string::npos)
          << compiled.error().message;
    }
  }
}

// Of several channels consumed twice, the one reported is the first met in route order: the
// second route of the pair is the earliest route that consumes what an earlier one does.
TEST(ContextTest, TheFirstSecondConsumerInRouteOrderIsReported) {
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([&](RouteBuilder& r) {
    r.from("direct:x").routeId("a").to("mock:a");
    r.from("direct:y").routeId("b").to("mock:b");
    r.from("direct:y?timeout=5").routeId("c").to("mock:c");
    r.from("direct:x?block=false").routeId("d").to("mock:d");
    r.from("direct:y?block=false").routeId("e").to("mock:e");
  }));
  EXPECT_EQ(context.routeCount(), 5u);
  auto compiled = context.compileRoutes();
  ASSERT_FALSE(compiled);
  EXPECT_NE(compiled.error().message.find("routes 'b' and 'c' both consume from direct://y"),
            std::string::npos)
      << compiled.error().message;
}

// A step's id is kept in its route's labels with a 16-bit length: a longer one is refused,
// naming the step, rather than cut.
TEST(ContextTest, AStepIdLongerThan65535CharactersIsRefused) {
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([&](RouteBuilder& r) {
    r.from("direct:long").routeId("long").to("mock:a").id(std::string(70000, 'x'));
  }));
  auto compiled = context.compileRoutes();
  ASSERT_FALSE(compiled);
  EXPECT_NE(compiled.error().message.find("has 70000 characters: at most 65535 (in route "
                                          "'long', step to[mock:a])"),
            std::string::npos)
      << compiled.error().message.substr(0, 300);
}

// The ids of steps, given or generated, read back as they were named once the route compiled.
TEST(ContextTest, StepIdsGivenAndGeneratedReadBackFromTheRoutesLabels) {
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([&](RouteBuilder& r) {
    r.from("direct:ids").routeId("ids").to("mock:a").id("first").log("x").to("mock:b");
  }));
  ASSERT_TRUE(context.compileRoutes());
  auto stats = context.routeStatistics("ids");
  ASSERT_TRUE(stats);
  std::vector<std::string> ids;
  for (const auto& p : stats->processors) ids.push_back(p.id);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], "first");
  EXPECT_EQ(ids[1].rfind("log", 0), 0u) << ids[1];
  EXPECT_EQ(ids[2].rfind("to", 0), 0u) << ids[2];
}

}  // namespace dromedary
