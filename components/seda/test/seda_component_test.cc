// SPDX-License-Identifier: Apache-2.0
#include <atomic>
#include <thread>

#include <gmock/gmock.h>

#include "support/route_harness.h"
#include "support/virtual_time_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

// Counts and sums what reaches it, from any thread, without a lock.
class Tally final : public Processor {
 public:
  Status process(Exchange& ex) override {
    count.fetch_add(1, std::memory_order_relaxed);
    sum.fetch_add(ex.message().body().as<int64_t>(), std::memory_order_relaxed);
    return Status::Continue;
  }
  std::atomic<uint64_t> count{0};
  std::atomic<uint64_t> sum{0};
};

void waitFor(const std::function<bool()>& done, std::chrono::seconds limit = 30s) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
}

TEST(SedaTest, OneConsumerKeepsTheOrder) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("seda:q").to("mock:out"); });
  std::vector<Value> expected;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(h.producer.sendBody("seda:q", Value(i)));
    expected.emplace_back(i);
  }
  h.mock("mock:out").expectedBodiesReceived(expected);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(10s));
}

TEST(SedaTest, InOnlyProducerGoesOnAtOnce) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:slow").setBody(simple("sent ${body}")).to("mock:after");
    b.from("seda:slow").delay(50ms).to("mock:slow");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges().size(), 1u);
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(), Value("sent a"));
  h.mock("mock:slow").expectedBodiesReceived({Value("a")});
  EXPECT_TRUE(h.mock("mock:slow").assertIsSatisfied(5s)) << "the copy, not the changed original";
}

TEST(SedaTest, ExactlyOnceWithTwoProducersAndTwoConsumers) {
  RouteHarness h;
  auto tally = std::make_shared<Tally>();
  h.start([&](RouteBuilder& b) {
    b.from("seda:big?concurrentConsumers=2&size=10000").process(tally);
  });
  constexpr int64_t kPerProducer = 500'000;
  std::vector<std::thread> producers;
  for (int p = 0; p < 2; ++p) {
    producers.emplace_back([&, p] {
      ProducerTemplate producer(h.context);
      for (int64_t i = 0; i < kPerProducer; ++i) {
        auto r = producer.sendBody("seda:big?blockWhenFull=true", Value(p * kPerProducer + i));
        if (!r) {
          ADD_FAILURE() << r.error().message;
          return;
        }
      }
    });
  }
  for (auto& t : producers) t.join();
  waitFor([&] { return tally->count.load() == 2 * kPerProducer; }, 120s);
  const uint64_t n = 2 * kPerProducer;
  EXPECT_EQ(tally->count.load(), n);
  EXPECT_EQ(tally->sum.load(), n * (n - 1) / 2) << "every message once: the checksum";
}

TEST(SedaTest, FullQueueFailsWithQueueFull) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("seda:tiny?size=2"); });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "1"));  // no consumer: the messages wait
  ASSERT_TRUE(h.producer.sendBody("direct:in", "2"));
  auto third = h.producer.sendBody("direct:in", "3");
  ASSERT_FALSE(third);
  EXPECT_EQ(third.error().message, "Queue full: seda://tiny?size=2");
}

TEST(SedaTest, BlockWhenFullWaitsUpToOfferTimeout) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:tiny?size=1&blockWhenFull=true&offerTimeout=50");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "1"));
  auto second = h.producer.sendBody("direct:in", "2");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, ErrorCode::Timeout);
  EXPECT_EQ(second.error().message,
            "Queue full: no room within offerTimeout: seda://tiny?blockWhenFull=true&"
            "offerTimeout=50&size=1");
}

TEST(SedaTest, BlockWhenFullGoesOnWhenTheConsumerMakesRoom) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:q?size=1&blockWhenFull=true");
    b.from("seda:q?size=1").delay(5ms).to("mock:out");
  });
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(i)));
  h.mock("mock:out").expectedMessageCount(20);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(10s));
}

TEST(SedaTest, FailIfNoConsumers) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("seda:none?failIfNoConsumers=true"); });
  auto sent = h.producer.sendBody("direct:in", "a");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "No consumers available on endpoint: seda://none?failIfNoConsumers=true");
}

TEST(SedaTest, DiscardIfNoConsumers) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:none?discardIfNoConsumers=true").to("mock:after");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges().size(), 1u);
}

TEST(SedaTest, InOutWaitsForTheReply) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("seda:svc").delay(10ms).setBody(simple("reply to ${body}"));
  });
  ExchangePtr ex = h.context.createExchange();
  ex->setPattern(Pattern::InOut);
  ex->message().setBody("a");
  ASSERT_TRUE(h.producer.send("seda:svc", *ex));
  EXPECT_EQ(ex->message().body(), Value("reply to a"));
}

TEST(SedaTest, WaitForTaskToCompleteAlwaysWaitsForInOnlyToo) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:svc?waitForTaskToComplete=Always").to("mock:after");
    b.from("seda:svc").setHeader("done", constant(true));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(*h.mock("mock:after").receivedExchanges()[0]->message().getHeader("done"),
            Value(true));
}

// A waiting producer's timeout is a task of the scheduler's, holding the producer's record:
// an answer that comes first cancels it, and the record goes with the answer, not when the
// timeout would have run (the task was kept: its record with it, 30 s per request here).
TEST(SedaTest, ARequestAnsweredBeforeItsTimeoutLeavesNoTaskBehind) {
  VirtualTimeHarness harness;
  harness.routes.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:svc?waitForTaskToComplete=Always&timeout=30000");
    b.from("seda:svc").setHeader("done", constant(true));
  });
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(harness.routes.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(harness.clock->pending(), 0u);
}

TEST(SedaTest, WaitingProducerTimesOut) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:slow?waitForTaskToComplete=Always&timeout=30");
    b.from("seda:slow").delay(300ms);
  });
  auto sent = h.producer.sendBody("direct:in", "a");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::Timeout);
  EXPECT_EQ(sent.error().message,
            "Timed out waiting for the seda consumer to complete: "
            "seda://slow?timeout=30&waitForTaskToComplete=Always");
}

TEST(SedaTest, ConsumerFailureReachesAWaitingProducer) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("seda:svc").setBody(simple("${bodyAs(Integer)}"));
  });
  ExchangePtr ex = h.context.createExchange();
  ex->setPattern(Pattern::InOut);
  ex->message().setBody("abc");
  auto sent = h.producer.send("seda:svc", *ex);
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().message, ::testing::HasSubstr("cannot convert String 'abc'"));
}

TEST(SedaTest, MultipleConsumersEachGetACopy) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("seda:news?multipleConsumers=true").to("mock:a");
    b.from("seda:news?multipleConsumers=true").to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("seda:news?multipleConsumers=true", "x"));
  h.mock("mock:a").expectedBodiesReceived({Value("x")});
  h.mock("mock:b").expectedBodiesReceived({Value("x")});
  EXPECT_TRUE(h.mock("mock:a").assertIsSatisfied(5s));
  EXPECT_TRUE(h.mock("mock:b").assertIsSatisfied(5s));
}

TEST(SedaTest, SecondConsumerWithoutMultipleConsumersIsRefused) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("seda:q").routeId("one");
    b.from("seda:q").routeId("two");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "'seda://q' already has a consuming route; set multipleConsumers=true for "
            "publish-subscribe (starting route 'two')");
}

TEST(SedaTest, GracefulStopDrainsTheQueue) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:work");
    b.from("seda:work").delay(1ms).to("mock:out");
  });
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(i)));
  StopReport report = h.context.stop();
  EXPECT_TRUE(report.graceful);
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 100u) << "nothing queued was lost";
}

TEST(SedaTest, PurgeWhenStoppingDropsWhatIsQueued) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:work");
    b.from("seda:work?purgeWhenStopping=true").delay(20ms).to("mock:out");
  });
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(i)));
  h.context.stop();
  EXPECT_LT(h.mock("mock:out").receivedExchanges().size(), 50u);
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

TEST(SedaRouteControlTest, StoppedConsumingRouteLeavesMessagesQueuedForItsRestart) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("seda:q");
    b.from("seda:q").routeId("consumer").to("mock:out");
  });
  ASSERT_TRUE(h.context.suspendRoute("consumer"));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(i)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 0u) << "suspended: takes no work";
  ASSERT_TRUE(h.context.resumeRoute("consumer"));
  h.mock("mock:out").expectedMessageCount(5);
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST(SedaRouteControlTest, StoppedDirectRouteRejectsWithAClearError) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:svc?block=false").routeId("svc").to("mock:out");
  });
  ASSERT_TRUE(h.context.stopRoute("svc"));
  auto sent = h.producer.sendBody("direct:svc?block=false", "a");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message, "No consumers available on endpoint: direct://svc");
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

TEST(SedaOptionsTest, SizeMustBePositive) {
  RouteHarness h;
  auto e = h.context.endpoint("seda:q?size=0");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "size must be at least 1 for 'seda:q?size=0'");
}

TEST(SedaOptionsTest, ConcurrentConsumersWithinBounds) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("seda:q?concurrentConsumers=0").routeId("r");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "concurrentConsumers must be 1 to 1000 for 'seda://q?concurrentConsumers=0' "
            "(starting route 'r')");
}

}  // namespace
}  // namespace dromedary::testing
