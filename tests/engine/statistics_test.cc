// SPDX-License-Identifier: Apache-2.0
// Route and processor statistics: exact counts from several threads, failures and
// redeliveries, times (ordering, not values), levels, reset, and the processor tree.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include "engine/statistics.h"
#include "support/probe_component.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

const ProcessorStats& processor(const RouteStats& s, std::string_view id) {
  for (const ProcessorStats& p : s.processors) {
    if (p.id == id) return p;
  }
  ADD_FAILURE() << "no processor " << id;
  static ProcessorStats none;
  return none;
}

TEST(StatisticsTest, CountsAreExactWithTwoThreadsSendingAtOnce) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .setHeader("a", constant(1)).id("a")
        .process([](Exchange&) {}).id("p")
        .to("mock:out?retainFirst=1").id("out");
  });
  constexpr int kPerThread = 5000;
  auto send = [&] {
    for (int i = 0; i < kPerThread; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  };
  std::thread t1(send), t2(send);
  t1.join();
  t2.join();
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(s.exchangesTotal, 2u * kPerThread);
  EXPECT_EQ(s.exchangesCompleted, 2u * kPerThread);
  EXPECT_EQ(s.exchangesFailed, 0u);
  EXPECT_EQ(s.exchangesInflight, 0u);
  for (const char* id : {"a", "p", "out"}) {
    EXPECT_EQ(processor(s, id).exchangesTotal, 2u * kPerThread) << id;
  }
  EXPECT_EQ(s.state, "Started");
  EXPECT_GT(s.uptimeMillis, 0.0);
}

TEST(StatisticsTest, CountsAreExactWithMoreThreadsThanStripes) {
  // The threads beyond the private stripes share one, with atomic adds.
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .setHeader("a", constant(1)).id("a")
        .process([](Exchange&) {}).id("p");
  });
  constexpr int kThreads = static_cast<int>(kStripes) + 16;
  constexpr int kPerThread = 200;
  // Every thread takes its stripe before any sends, and none ends (giving its stripe back)
  // before all have sent.
  std::latch all_alive(kThreads), all_sent(kThreads);
  std::atomic<int> sharing{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      if (threadStripe() == kSharedStripe) ++sharing;
      all_alive.arrive_and_wait();
      for (int i = 0; i < kPerThread; ++i) EXPECT_TRUE(h.producer.sendBody("direct:in", "x"));
      all_sent.arrive_and_wait();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_GT(sharing.load(), 16);
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(s.exchangesTotal, uint64_t{kThreads} * kPerThread);
  EXPECT_EQ(s.exchangesCompleted, uint64_t{kThreads} * kPerThread);
  for (const char* id : {"a", "p"}) {
    EXPECT_EQ(processor(s, id).exchangesTotal, uint64_t{kThreads} * kPerThread) << id;
  }
}

TEST(StatisticsTest, StepsInsideASplitAreCountedPerItem) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .split(body()).id("split")
        .setHeader("a", constant(1)).id("a")
        .process([](Exchange&) {}).id("p")
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(ValueList{"x", "y", "z"})));
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value(ValueList{"x", "y"})));
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(processor(s, "split").exchangesTotal, 2u);
  EXPECT_EQ(processor(s, "a").exchangesTotal, 5u);
  EXPECT_EQ(processor(s, "p").exchangesTotal, 5u);
}

TEST(StatisticsTest, FailuresAndRedeliveriesAreCounted) {
  RouteHarness h;
  int calls = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .process([&](Exchange& ex) {
          ++calls;
          if (ex.message().body() == Value("bad") || calls % 3 != 0) {
            throw std::runtime_error("x");
          }
        }).id("flaky");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "ok"));    // fails twice, then succeeds
  ASSERT_FALSE(h.producer.sendBody("direct:in", "bad"));  // fails three times
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(s.exchangesTotal, 2u);
  EXPECT_EQ(s.exchangesCompleted, 1u);
  EXPECT_EQ(s.exchangesFailed, 1u);
  EXPECT_EQ(s.redeliveries, 4u);
  const ProcessorStats& p = processor(s, "flaky");
  EXPECT_EQ(p.exchangesTotal, 6u) << "every attempt runs the processor";
  EXPECT_EQ(p.exchangesFailed, 5u);
  EXPECT_EQ(p.exchangesCompleted, 1u);
  EXPECT_EQ(p.redeliveries, 4u) << "each redelivery runs the failing processor again";
  EXPECT_GT(p.firstFailedMillis, 0);
  EXPECT_GE(p.lastFailedMillis, p.firstFailedMillis);
  EXPECT_GT(s.firstCompletedMillis, 0);
  EXPECT_GE(s.lastCompletedMillis, s.firstCompletedMillis);
  EXPECT_GT(s.firstFailedMillis, 0);
  EXPECT_GE(s.lastFailedMillis, s.firstCompletedMillis);
}

TEST(StatisticsTest, ExchangesABrokerRedeliveredAreCountedOnceInTheRouteTheirConsumerFeeds) {
  RouteHarness h;
  auto probe = std::make_unique<testing::ProbeComponent>();
  testing::ProbeComponent& component = *probe;
  h.context.addComponent(std::move(probe));
  h.start([](RouteBuilder& b) {
    b.from("probe:in").routeId("consumed").to("direct:next");
    b.from("direct:next").routeId("next").to("mock:out");
  });
  ASSERT_NE(component.entry(), nullptr);
  for (bool redelivered : {false, true, true, false}) {
    ExchangePtr ex = h.context.createExchange();
    EXPECT_FALSE(ex->isExternalRedelivered()) << "a fresh exchange is not a redelivery";
    ex->setExternalRedelivered(redelivered);
    EXPECT_EQ(processAndWait(*ex, *component.entry()), Status::Continue);
  }
  RouteStats consumed = *h.context.routeStatistics("consumed");
  EXPECT_EQ(consumed.exchangesTotal, 4u);
  EXPECT_EQ(consumed.externalRedeliveries, 2u);
  EXPECT_EQ(h.context.routeStatistics("next")->externalRedeliveries, 0u)
      << "counted where the broker's message came in, not again in every route it passes";
  // Processors count every run of such an exchange, as Camel's do.
  EXPECT_EQ(consumed.processors.at(0).externalRedeliveries, 2u);
  EXPECT_EQ(h.context.routeStatistics("next")->processors.at(0).externalRedeliveries, 2u);
  ASSERT_TRUE(h.context.resetStatistics("consumed"));
  EXPECT_EQ(h.context.routeStatistics("consumed")->externalRedeliveries, 0u);
}

TEST(StatisticsTest, TheContextsStatisticsAreItsRoutesSummed) {
  RouteHarness h;
  h.context.setStatisticsTimingSample(1);
  int calls = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:a").routeId("a").to("direct:b");
    b.from("direct:b").routeId("b")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(1).redeliveryDelay(0ms))
        .process([&](Exchange& ex) {
          if (ex.message().body() == Value("bad") || ++calls == 1) throw std::runtime_error("x");
        });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:a", "ok"));     // b fails once, then succeeds
  ASSERT_FALSE(h.producer.sendBody("direct:a", "bad"));   // fails twice in b, and so in a
  ContextStats c = h.context.contextStatistics();
  RouteStats a = *h.context.routeStatistics("a");
  RouteStats b = *h.context.routeStatistics("b");
  EXPECT_EQ(c.exchangesTotal, 4u) << "each exchange counts in both routes it passed";
  EXPECT_EQ(c.exchangesCompleted, a.exchangesCompleted + b.exchangesCompleted);
  EXPECT_EQ(c.exchangesFailed, 2u);
  EXPECT_EQ(c.exchangesInflight, 0u);
  EXPECT_EQ(c.redeliveries, 2u);
  EXPECT_EQ(c.timing.timed, a.timing.timed + b.timing.timed);
  EXPECT_EQ(c.timing.minMillis, std::min(a.timing.minMillis, b.timing.minMillis));
  EXPECT_EQ(c.timing.maxMillis, std::max(a.timing.maxMillis, b.timing.maxMillis));
  EXPECT_GE(c.timing.meanMillis, c.timing.minMillis);
  EXPECT_LE(c.timing.meanMillis, c.timing.maxMillis);
  EXPECT_EQ(c.firstCompletedMillis, std::min(a.firstCompletedMillis, b.firstCompletedMillis));
  EXPECT_EQ(c.lastFailedMillis, std::max(a.lastFailedMillis, b.lastFailedMillis));
}

TEST(StatisticsTest, AProcessorsInflightCountsTheExchangesWaitingInIt) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").delay(300ms).id("wait").to("mock:out").id("out");
  });
  std::thread sender([&] { EXPECT_TRUE(h.producer.sendBody("direct:in", "x")); });
  uint64_t waiting = 0;
  for (int i = 0; i < 100 && waiting == 0; ++i) {
    std::this_thread::sleep_for(2ms);
    waiting = processor(*h.context.routeStatistics("r"), "wait").exchangesInflight;
  }
  EXPECT_EQ(waiting, 1u);
  RouteStats during = *h.context.routeStatistics("r");
  EXPECT_EQ(processor(during, "wait").exchangesCompleted, 0u);
  EXPECT_EQ(processor(during, "out").exchangesTotal, 0u);
  ASSERT_TRUE(h.context.resetStatistics("r"));  // keeps what is in flight
  EXPECT_EQ(processor(*h.context.routeStatistics("r"), "wait").exchangesInflight, 1u);
  sender.join();
  RouteStats after = *h.context.routeStatistics("r");
  EXPECT_EQ(processor(after, "wait").exchangesInflight, 0u);
  EXPECT_EQ(processor(after, "out").exchangesCompleted, 1u);
}

TEST(StatisticsTest, AWaitForARedeliveryIsNoProcessorsInFlight) {
  RouteHarness h;
  int calls = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(20ms))
        .delay(simple("${header.d}")).id("wait")
        .process([&](Exchange&) {
          if (++calls < 3) throw std::runtime_error("x");
        }).id("flaky");
  });
  // Fails twice, waiting 20 ms for each redelivery: those waits are in no step.
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "d", 1));
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(processor(s, "wait").exchangesInflight, 0u);
  EXPECT_EQ(processor(s, "wait").exchangesCompleted, 1u);
  EXPECT_EQ(processor(s, "flaky").exchangesInflight, 0u);
  EXPECT_EQ(processor(s, "flaky").redeliveries, 2u);
  EXPECT_EQ(processor(s, "flaky").exchangesCompleted, 1u);
  // And the counts still pair afterwards: an exchange waiting in `wait` is seen there.
  std::thread sender([&] { EXPECT_TRUE(h.producer.sendBodyAndHeader("direct:in", "y", "d", 300)); });
  uint64_t waiting = 0;
  for (int i = 0; i < 100 && waiting == 0; ++i) {
    std::this_thread::sleep_for(2ms);
    waiting = processor(*h.context.routeStatistics("r"), "wait").exchangesInflight;
  }
  EXPECT_EQ(waiting, 1u);
  sender.join();
}

TEST(StatisticsTest, TimesOrderAsTheProcessorsDelays) {
  RouteHarness h;
  h.context.setStatisticsTimingSample(1);
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .process([](Exchange&) { std::this_thread::sleep_for(1ms); }).id("fast")
        .process([](Exchange&) { std::this_thread::sleep_for(6ms); }).id("slow");
  });
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats s = *h.context.routeStatistics("r");
  const TimingStats& fast = processor(s, "fast").timing;
  const TimingStats& slow = processor(s, "slow").timing;
  EXPECT_EQ(fast.timed, 5u);
  EXPECT_EQ(slow.timed, 5u);
  EXPECT_GE(fast.minMillis, 1.0);
  EXPECT_LT(fast.meanMillis, slow.meanMillis);
  EXPECT_LE(slow.minMillis, slow.meanMillis);
  EXPECT_LE(slow.meanMillis, slow.maxMillis);
  EXPECT_EQ(s.timing.timed, 5u);
  EXPECT_GT(processor(s, "slow").firstCompletedMillis, 0);
  EXPECT_GE(processor(s, "slow").lastCompletedMillis, processor(s, "slow").firstCompletedMillis);
  EXPECT_EQ(processor(s, "slow").lastFailedMillis, 0);
  EXPECT_GE(s.timing.minMillis, 7.0) << "the route's time covers both steps";
  EXPECT_LE(s.p50Millis, s.p99Millis);
  EXPECT_LE(s.p99Millis, s.p999Millis);
  EXPECT_GE(s.p99Millis, s.timing.minMillis * 0.8);
  EXPECT_GT(s.lastExchangeMillis, 0);
}

TEST(StatisticsTest, TimesAreSampledButCountsAreNot) {
  RouteHarness h;
  h.context.setStatisticsTimingSample(4);
  h.start([](RouteBuilder& b) { b.from("direct:in").routeId("r").process([](Exchange&) {}); });
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(s.exchangesTotal, 40u);
  EXPECT_EQ(s.processors[0].exchangesTotal, 40u);
  EXPECT_EQ(s.timing.timed, 10u);
  EXPECT_EQ(s.processors[0].timing.timed, 10u);
}

TEST(StatisticsTest, LevelsDecideWhatIsKeptAndCanChangeWhileRunning) {
  RouteHarness h;
  h.context.setStatisticsTimingSample(1);
  h.context.setStatisticsLevel(StatisticsLevel::Off);
  h.start([](RouteBuilder& b) { b.from("direct:in").routeId("r").process([](Exchange&) {}); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats off = *h.context.routeStatistics("r");
  EXPECT_EQ(off.exchangesTotal, 1u) << "route counts are always kept";
  EXPECT_EQ(off.timing.timed, 0u);
  EXPECT_EQ(off.processors[0].exchangesTotal, 0u);

  h.context.setStatisticsLevel(StatisticsLevel::RoutesOnly);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats routes = *h.context.routeStatistics("r");
  EXPECT_EQ(routes.timing.timed, 1u);
  EXPECT_EQ(routes.processors[0].exchangesTotal, 0u);

  h.context.setStatisticsLevel(StatisticsLevel::Default);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats all = *h.context.routeStatistics("r");
  EXPECT_EQ(all.timing.timed, 2u);
  EXPECT_EQ(all.processors[0].exchangesTotal, 1u);
  EXPECT_EQ(all.processors[0].timing.timed, 1u);
}

TEST(StatisticsTest, ResetZeroesCountsAndTimes) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").routeId("r").process([](Exchange&) {}); });
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  ASSERT_TRUE(h.context.resetStatistics("r"));
  RouteStats s = *h.context.routeStatistics("r");
  EXPECT_EQ(s.exchangesTotal, 0u);
  EXPECT_EQ(s.processors[0].exchangesTotal, 0u);
  EXPECT_EQ(s.timing.timed, 0u);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.context.routeStatistics("r")->exchangesTotal, 1u);
  EXPECT_FALSE(h.context.resetStatistics("nope"));
  EXPECT_FALSE(h.context.routeStatistics("nope"));
}

TEST(StatisticsTest, ProcessorsAreListedAsATree) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .filter(constant(true)).id("f")
          .setHeader("a", constant(1)).id("inner")
        .end()
        .to("mock:out").id("out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  RouteStats s = *h.context.routeStatistics("r");
  ASSERT_EQ(s.processors.size(), 3u);
  EXPECT_EQ(s.processors[0].id, "f");
  EXPECT_EQ(s.processors[0].depth, 0u);
  EXPECT_EQ(s.processors[1].id, "inner");
  EXPECT_EQ(s.processors[1].depth, 1u);
  EXPECT_EQ(s.processors[1].description, "setHeader[a=constant{1}]");
  EXPECT_EQ(s.processors[2].id, "out");
  EXPECT_EQ(s.processors[2].depth, 0u);
}

// Two threads must never write near each other: each stripe's run counters start on a cache
// line and lie a page or more from the next stripe's (a CPU prefetching the lines after one
// thread's writes would otherwise take the next thread's lines from it), whatever the number
// of steps; and a route's counters do not overlap another's.
TEST(StatisticsTest, EachStripesCountersLieAPageFromTheNextStripes) {
  std::vector<std::unique_ptr<detail::RouteStatistics>> routes;
  for (uint32_t steps : {1u, 7u, 8u, 10u, 16u, 9000u}) {
    routes.push_back(std::make_unique<detail::RouteStatistics>(steps));
    detail::RouteStatistics& stats = *routes.back();
    EXPECT_GE(stats.countStride() * sizeof(uint64_t), 4096u) << steps << " steps";
    EXPECT_GE(stats.countStride(), steps);
    for (uint32_t stripe = 0; stripe < kStripes; ++stripe) {
      auto address = reinterpret_cast<uintptr_t>(stats.stepCount0(0) +
                                                 static_cast<size_t>(stripe) * stats.countStride());
      EXPECT_EQ(address % 64, 0u) << steps << " steps, stripe " << stripe;
    }
  }
  // Counting in one route leaves the others at zero.
  uint64_t* cell = routes[2]->stepCount0(7);
  addTo(*cell, 5, 0);
  for (size_t r = 0; r < routes.size(); ++r) {
    for (uint32_t i = 0; i < routes[r]->steps(); ++i) {
      EXPECT_EQ(routes[r]->stepTotals(i).total, r == 2 && i == 7 ? 5u : 0u) << r << " " << i;
    }
  }
}

// A route's counters freed (its route removed) are reused by the next route: zeroed first.
TEST(StatisticsTest, ANewRoutesCountersStartAtZeroWhereAnOldRoutesWere) {
  uint64_t* old_cell = nullptr;
  {
    detail::RouteStatistics old_route(10);
    old_cell = old_route.stepCount0(3);
    for (uint32_t stripe : {0u, 5u, kSharedStripe}) {
      addTo(old_route.stepCount0(3)[stripe * old_route.countStride()], 7, stripe);
    }
    ASSERT_EQ(old_route.stepTotals(3).total, 21u);
  }
  detail::RouteStatistics next(10);
  EXPECT_EQ(next.stepCount0(3), old_cell);  // the same cells, reused
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(next.stepTotals(i).total, 0u) << i;
}

}  // namespace
}  // namespace dromedary

namespace dromedary {
namespace {

// Each processor says where it sits (the console draws routes from this): its parent step,
// which of that step's blocks, that block's label; clause steps are marked.
TEST(StatisticsTest, ProcessorsSayWhereTheySit) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .onException({"std::runtime_error"}).handled(true).to("mock:handled").id("handler").end()
        .choice().id("pick")
          .when(header("a") == 1).to("mock:a").id("on-a")
          .when(header("b") == 1).to("mock:b").id("on-b")
          .otherwise().to("mock:c").id("else")
        .end()
        .doTry().id("try")
          .to("mock:body").id("tried")
        .doCatch({"std::runtime_error"}).to("mock:caught").id("caught")
        .doFinally().to("mock:finally").id("finally")
        .end();
  });
  std::map<std::string, ProcessorStats> by_id;
  const RouteStats stats = *h.context.routeStatistics("r");
  for (const ProcessorStats& p : stats.processors) by_id[p.id] = p;
  auto place = [&](const std::string& id) {
    const ProcessorStats& p = by_id.at(id);
    return p.parent + "/" + std::to_string(p.branch) + "/" + p.branchLabel +
           (p.clause ? "/clause" : "");
  };
  EXPECT_EQ(place("pick"), "/0/");
  EXPECT_EQ(place("on-a"), "pick/0/when[header(a) == constant{1}]");
  EXPECT_EQ(place("on-b"), "pick/1/when[header(b) == constant{1}]");
  EXPECT_EQ(place("else"), "pick/2/otherwise");
  EXPECT_EQ(place("tried"), "try/0/doTry");
  EXPECT_EQ(place("caught"), "try/1/doCatch[std::runtime_error]");
  EXPECT_EQ(place("finally"), "try/2/doFinally");
  EXPECT_EQ(place("handler"), "/0//clause");
}

}  // namespace
}  // namespace dromedary
