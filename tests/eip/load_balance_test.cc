// SPDX-License-Identifier: Apache-2.0
// loadBalance and idempotentConsumer.
#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(LoadBalanceTest, RoundRobinTakesTurns) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loadBalance().roundRobin().to("mock:a").to("mock:b").end().to("mock:after");
  });
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 4u);
}

TEST(LoadBalanceTest, RandomSendsEachToOne) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loadBalance().random().to("mock:a").to("mock:b").end();
  });
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount() + h.mock("mock:b").receivedCount(), 20u);
}

TEST(LoadBalanceTest, WeightedRoundRobinFollowsTheRatio) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loadBalance().weighted(true, "3,1").to("mock:a").to("mock:b").end();
  });
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 6u);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 2u);
}

TEST(LoadBalanceTest, StickySendsAKeyToTheSameBranch) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").loadBalance().sticky(header("user")).to("mock:a").to("mock:b").end();
  });
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "user", "u1"));
  size_t a = h.mock("mock:a").receivedCount(), b = h.mock("mock:b").receivedCount();
  EXPECT_TRUE((a == 5 && b == 0) || (a == 0 && b == 5));
}

TEST(LoadBalanceTest, TopicSendsACopyToEveryBranchAndKeepsTheMessage) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .loadBalance()
        .topic()
        .to("direct:change")
        .to("mock:b")
        .end()
        .to("mock:after");
    b.from("direct:change").setBody(constant("changed")).to("mock:a");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  ASSERT_EQ(h.mock("mock:a").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:a").receivedExchanges()[0]->message().body().as<std::string>(), "changed");
  ASSERT_EQ(h.mock("mock:b").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:b").receivedExchanges()[0]->message().body().as<std::string>(), "x")
      << "each branch gets a copy of the exchange as it came in";
  ASSERT_EQ(h.mock("mock:after").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body().as<std::string>(), "x");
}

TEST(LoadBalanceTest, TopicStopsAtAFailingBranchAndFailsTheExchange) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .loadBalance()
        .topic()
        .to("mock:a")
        .to("direct:fail")
        .to("mock:c")
        .end()
        .to("mock:after");
    b.from("direct:fail").throwException("java.lang.IllegalStateException", "branch down");
  });
  EXPECT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:c").receivedCount(), 0u);
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST(LoadBalanceTest, FailoverMovesToTheNextEndpoint) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .loadBalance()
        .failover()
        .to("direct:down")
        .to("mock:up")
        .end()
        .to("mock:after");
    b.from("direct:down").setBody(constant("changed")).process([](Exchange&) {
      throw std::runtime_error("down");
    });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto up = h.mock("mock:up").receivedExchanges();
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0]->message().body(), Value("x"));  // each attempt starts from the input
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 1u);
}

TEST(LoadBalanceTest, FailoverGivesUpWhenAllFailAndTheErrorHandlerTakesOver) {
  RouteHarness h;
  int attempts = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(deadLetterChannel("mock:dead"))
        .loadBalance()
        .failover()
        .process([&](Exchange&) { ++attempts; throw std::runtime_error("a"); })
        .process([&](Exchange&) { ++attempts; throw std::runtime_error("b"); })
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(attempts, 2);
  ASSERT_EQ(h.mock("mock:dead").receivedCount(), 1u);
  EXPECT_NE(h.mock("mock:dead").receivedExchanges()[0]->getProperty("CamelExceptionCaught")
                ->as<std::string>().find("b"),
            std::string::npos);
}

TEST(LoadBalanceTest, FailoverOnlyOnTheListedExceptions) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .loadBalance()
        .failover({"java.io.IOException"})
        .process([](Exchange&) { throw std::invalid_argument("not io"); })
        .to("mock:up")
        .end();
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:up").receivedCount(), 0u);
}

TEST(LoadBalanceTest, FailoverAttemptsAreBounded) {
  RouteHarness h;
  int attempts = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .loadBalance()
        .failover(3, true)
        .process([&](Exchange&) { ++attempts; throw std::runtime_error("a"); })
        .process([&](Exchange&) { ++attempts; throw std::runtime_error("b"); })
        .end();
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(attempts, 4);  // the first and 3 failovers, round robin
}

TEST(LoadBalanceTest, BadRatioFailsAtStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").loadBalance().weighted(false, "3,x").to("mock:a").to("mock:b").end();
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("distributionRatio must be whole numbers"),
            std::string::npos);
}

TEST(IdempotentConsumerTest, SkipsDuplicates) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .idempotentConsumer(header("id"), memoryIdempotentRepository())
        .to("mock:once")
        .end()
        .to("mock:after");
  });
  for (const char* id : {"1", "2", "1", "3", "2"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", id));
  }
  EXPECT_EQ(h.mock("mock:once").receivedCount(), 3u);
  auto after = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(after.size(), 5u);
  EXPECT_EQ(*after[2]->getProperty("CamelDuplicateMessage"), Value(true));
}

TEST(IdempotentConsumerTest, DuplicatesRunTheStepsWithoutSkipDuplicate) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .idempotentConsumer(header("id"), memoryIdempotentRepository())
        .skipDuplicate(false)
        .to("mock:all")
        .end();
  });
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));
  auto all = h.mock("mock:all").receivedExchanges();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(*all[1]->getProperty("CamelDuplicateMessage"), Value(true));
}

TEST(IdempotentConsumerTest, AFailedExchangesKeyIsRemoved) {
  RouteHarness h;
  int calls = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .idempotentConsumer(header("id"), memoryIdempotentRepository())
        .process([&](Exchange&) {
          if (++calls == 1) throw std::runtime_error("first try fails");
        })
        .to("mock:done")
        .end();
  });
  ASSERT_FALSE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));  // not a duplicate
  EXPECT_EQ(h.mock("mock:done").receivedCount(), 1u);
}

TEST(IdempotentConsumerTest, TheMemoryRepositoryForgetsTheOldestBeyondItsSize) {
  auto repo = memoryIdempotentRepository(2);
  EXPECT_TRUE(repo->add("a"));
  EXPECT_TRUE(repo->add("b"));
  EXPECT_FALSE(repo->add("a"));
  EXPECT_TRUE(repo->add("c"));
  EXPECT_FALSE(repo->contains("a"));
  EXPECT_TRUE(repo->contains("c"));
}

TEST(IdempotentConsumerTest, NonEagerAddsTheKeyOnlyAfterSuccess) {
  RouteHarness h;
  auto repo = memoryIdempotentRepository();
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .idempotentConsumer(header("id"), repo)
        .eager(false)
        .process([&](Exchange&) { EXPECT_FALSE(repo->contains("1")); })
        .end();
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));
  EXPECT_TRUE(repo->contains("1"));
}

}  // namespace
}  // namespace dromedary
