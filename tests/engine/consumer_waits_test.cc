// SPDX-License-Identifier: Apache-2.0
// ConsumerWaits (spi/consumer_waits.h): a consumer's thread routes an exchange and waits for
// its end, also when a step suspended it; abandon() (the consumer going) gives the waits up,
// and each exchange given up ends alone, in the callback given with it.
#include <dromedary/spi/consumer_waits.h>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using Outcome = ConsumerWaits::Outcome;
using testing::RouteHarness;

class ConsumerWaitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h.start([](RouteBuilder& b) {
      b.from("direct:quick").setBody(constant("done"));
      b.from("direct:slow").delay(constant(Value(int64_t{1000}))).setBody(constant("done"));
      b.from("direct:fails").process([](Exchange&) { throw std::runtime_error("no"); });
    });
  }

  // The processor a consumer would be given: here the route's entry through its endpoint.
  Producer& route(const std::string& uri) {
    auto endpoint = h.context.endpoint(uri);
    EXPECT_TRUE(endpoint) << endpoint.error().toString();
    auto made = (*endpoint)->createProducer();
    EXPECT_TRUE(made) << made.error().toString();
    return *producers.emplace_back(std::move(*made));
  }

  // Marks the exchange given up as ended, then recycles it.
  static void endedAlone(Exchange& exchange, void* flag) noexcept {
    static_cast<std::atomic<bool>*>(flag)->store(true);
    ExchangeRecycler{}(&exchange);
  }

  RouteHarness h;
  std::vector<std::unique_ptr<Producer>> producers;
  ConsumerWaits waits;
  ConsumerWaits::Member member{waits};
  ConsumerWaits::Slot* slot = &member.slot();
};

TEST_F(ConsumerWaitsTest, AnExchangeThatEndsAtOnceIsTheCallersAgain) {
  ExchangePtr ex = h.context.createExchange();
  EXPECT_EQ(waits.process(*slot, *ex, route("direct:quick"), &ConsumerWaits::recycle, nullptr),
            Outcome::Completed);
  EXPECT_EQ(ex->message().body(), Value("done"));
}

TEST_F(ConsumerWaitsTest, TheThreadWaitsForAnExchangeThatSuspended) {
  ExchangePtr ex = h.context.createExchange();
  EXPECT_EQ(waits.process(*slot, *ex, route("direct:slow"), &ConsumerWaits::recycle, nullptr),
            Outcome::Completed);
  EXPECT_EQ(ex->message().body(), Value("done"));
}

TEST_F(ConsumerWaitsTest, AFailedExchangeIsSaidFailed) {
  ExchangePtr ex = h.context.createExchange();
  EXPECT_EQ(waits.process(*slot, *ex, route("direct:fails"), &ConsumerWaits::recycle, nullptr),
            Outcome::Failed);
  EXPECT_TRUE(ex->failed());
}

TEST_F(ConsumerWaitsTest, AbandonWakesTheWaitingThreadAndTheExchangeEndsInTheCallback) {
  Producer& slow = route("direct:slow");
  std::atomic<bool> ended{false};
  std::atomic<bool> returned{false};
  Outcome outcome = Outcome::Completed;
  std::thread consumer([&] {
    ExchangePtr ex = h.context.createExchange();
    outcome = waits.process(*slot, *ex, slow, &endedAlone, &ended);
    if (outcome == Outcome::Abandoned) (void)ex.release();  // the callback's now
    returned = true;
  });
  std::this_thread::sleep_for(100ms);  // the exchange waits in its delay
  EXPECT_FALSE(returned.load());
  waits.abandon();
  consumer.join();
  EXPECT_EQ(outcome, Outcome::Abandoned);
  EXPECT_FALSE(ended.load()) << "the thread came back before the exchange ended";
  for (int i = 0; i < 500 && !ended; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(ended.load()) << "the exchange ended alone, in the callback";
}

TEST_F(ConsumerWaitsTest, AfterAbandonNothingIsRoutedUntilReset) {
  Producer& quick = route("direct:quick");
  waits.abandon();
  ExchangePtr ex = h.context.createExchange();
  EXPECT_EQ(waits.process(*slot, *ex, quick, &ConsumerWaits::recycle, nullptr), Outcome::Refused);
  EXPECT_TRUE(ex->message().body().isNull()) << "not routed";
  waits.reset();
  EXPECT_EQ(waits.process(*slot, *ex, quick, &ConsumerWaits::recycle, nullptr),
            Outcome::Completed);
  EXPECT_EQ(ex->message().body(), Value("done"));
}

}  // namespace
}  // namespace dromedary
