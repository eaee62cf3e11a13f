// SPDX-License-Identifier: Apache-2.0
// The flight recorder: exactly the last N completed and failed exchanges of each route, failed
// ones with the step where they failed and the error, the same under two threads with no
// entry lost or torn, nothing at statistics level Off, and no allocation when it records.
#include <fmt/format.h>
#include <gmock/gmock.h>

#include <set>
#include <thread>

#include "alloc_counter.h"
#include "support/resident_bytes.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FlightRecorderTest : public ::testing::Test {
 protected:
  void start(uint32_t size) {
    h.context.setFlightRecorderSize(size);
    h.context.setStatisticsTimingSample(1);  // every exchange timed: every one recorded
    h.start([](RouteBuilder& b) {
      b.from("direct:in")
          .routeId("orders")
          .filter(simple("${body} starts with 'bad'"))
          .throwException("java.lang.IllegalStateException", "refused ${body}")
          .id("refuse")
          .end()
          .setHeader("seen", constant("yes"))
          .to("mock:out");
    });
  }
  std::vector<std::string> bodies(const std::vector<RecordedExchange>& list) {
    std::vector<std::string> out;
    for (const RecordedExchange& e : list) out.push_back(e.body);
    return out;
  }

  RouteHarness h;
};

TEST_F(FlightRecorderTest, KeepsExactlyTheLastNCompletedInOrder) {
  start(3);
  for (int i = 0; i < 7; ++i)
    ASSERT_TRUE(h.producer.sendBody("direct:in", Value(fmt::format("m{}", i))));
  auto recent = h.context.recentExchanges("orders");
  ASSERT_TRUE(recent);
  EXPECT_THAT(bodies(recent->completed), ElementsAre("m4", "m5", "m6"));
  EXPECT_TRUE(recent->failed.empty());
  const RecordedExchange& last = recent->completed.back();
  EXPECT_EQ(last.routeId, "orders");
  EXPECT_FALSE(last.failed);
  EXPECT_EQ(last.bodyType, "String");
  EXPECT_EQ(last.headers, "seen=yes");
  EXPECT_GT(last.elapsedMillis, 0.0);
  EXPECT_GE(last.endMillis, last.createdMillis);
  EXPECT_FALSE(h.context.recentExchanges("nope"));
}

TEST_F(FlightRecorderTest, FailedExchangesKeepTheStepAndTheError) {
  start(2);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "good"));
  for (const char* body : {"bad-1", "bad-2", "bad-3"}) {
    EXPECT_FALSE(h.producer.sendBody("direct:in", body));
  }
  auto recent = h.context.recentExchanges("orders");
  EXPECT_THAT(bodies(recent->completed), ElementsAre("good"));
  ASSERT_THAT(bodies(recent->failed), ElementsAre("bad-2", "bad-3"));
  const RecordedExchange& f = recent->failed.back();
  EXPECT_TRUE(f.failed);
  EXPECT_EQ(f.nodeId, "refuse");
  EXPECT_THAT(f.error, HasSubstr("refused bad-3"));
  EXPECT_FALSE(f.exchangeId.empty());
}

TEST_F(FlightRecorderTest, LongBodiesAndHeadersAreCut) {
  start(1);
  std::string big(1000, 'x');
  ASSERT_TRUE(
      h.producer.sendBodyAndHeader("direct:in", Value(big), "long", Value(std::string(500, 'h'))));
  const RecordedExchange e = h.context.recentExchanges("orders")->completed.back();
  EXPECT_EQ(e.body.size(), 160u);
  EXPECT_TRUE(e.body.ends_with("xx..."));
  EXPECT_EQ(e.headers.size(), 200u);
  EXPECT_TRUE(e.headers.starts_with("long=hhh")) << e.headers;
}

// Two threads send at once: the recorder ends with exactly N entries, none torn (each body
// matches its header), and each thread's entries are the last ones it sent.
TEST_F(FlightRecorderTest, TwoThreadsLoseNoEntryAndTearNone) {
  constexpr int kEach = 3000;
  constexpr uint32_t kKept = 10;
  start(kKept);
  auto sender = [&](int thread) {
    for (int i = 0; i < kEach; ++i) {
      std::string body = fmt::format("t{}-{:05}", thread, i);
      ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(body), "copy", Value(body)));
    }
  };
  std::thread a(sender, 0), b(sender, 1);
  a.join();
  b.join();
  auto recent = h.context.recentExchanges("orders");
  ASSERT_EQ(recent->completed.size(), kKept);
  std::map<int, std::vector<int>> by_thread;
  std::set<std::string> seen;
  for (const RecordedExchange& e : recent->completed) {
    EXPECT_EQ(e.headers, "copy=" + e.body + ", seen=yes") << "torn: " << e.body;
    EXPECT_TRUE(seen.insert(e.body).second) << "twice: " << e.body;
    by_thread[e.body[1] - '0'].push_back(std::stoi(e.body.substr(3)));
  }
  for (auto& [thread, seqs] : by_thread) {
    std::sort(seqs.begin(), seqs.end());
    EXPECT_EQ(seqs.back(), kEach - 1) << "thread " << thread << " lost its last";
    for (size_t k = 1; k < seqs.size(); ++k) {
      EXPECT_EQ(seqs[k], seqs[k - 1] + 1) << "thread " << thread << " lost one between";
    }
  }
}

TEST_F(FlightRecorderTest, NothingIsRecordedWithStatisticsOffOrSizeZero) {
  start(0);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_FALSE(h.producer.sendBody("direct:in", "bad"));
  EXPECT_TRUE(h.context.recentExchanges("orders")->completed.empty());
  EXPECT_TRUE(h.context.recentExchanges("orders")->failed.empty());

  RouteHarness off;
  off.context.setStatisticsLevel(StatisticsLevel::Off);
  off.start([](RouteBuilder& b) {
    b.from("direct:x").routeId("x").throwException("java.lang.IllegalStateException", "no");
  });
  EXPECT_FALSE(off.producer.sendBody("direct:x", "y"));
  EXPECT_TRUE(off.context.recentExchanges("x")->failed.empty());
}

// Rings given back are reused as they are (not zeroed): a route given a removed route's ring
// shows none of that route's exchanges, only its own.
TEST_F(FlightRecorderTest, ARouteReusingARemovedRoutesRingShowsOnlyItsOwnExchanges) {
  start(3);
  for (const char* body : {"old-1", "old-2", "old-3"})
    ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  EXPECT_FALSE(h.producer.sendBody("direct:in", "bad-old"));
  ASSERT_TRUE(h.context.stopRoute("orders"));
  ASSERT_TRUE(h.context.removeRoute("orders"));
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:next").routeId("next").setHeader("seen", constant("new"));
  }));
  auto before = h.context.recentExchanges("next");
  ASSERT_TRUE(before);
  EXPECT_TRUE(before->completed.empty());
  EXPECT_TRUE(before->failed.empty());
  ASSERT_TRUE(h.producer.sendBody("direct:next", "new-1"));
  auto after = h.context.recentExchanges("next");
  EXPECT_THAT(bodies(after->completed), ElementsAre("new-1"));
  EXPECT_EQ(after->completed.back().headers, "seen=new");
  EXPECT_TRUE(after->failed.empty());
}

// The rings are reserved memory that becomes resident only where a route records. Removing
// routes must not write them either: zeroing every ring on removal made a context of 50,000
// routes that never ran take 650 MB more when it stopped (about 13 KB a route).
TEST(FlightRecorderMemoryTest, RoutesThatNeverRanTakeNoRingMemoryWhenRemoved) {
  constexpr int kRoutes = 2000;
  auto h = std::make_unique<RouteHarness>();
  h->start([](RouteBuilder& b) {
    for (int i = 0; i < kRoutes; ++i)
      b.from(fmt::format("direct:in{}", i)).routeId(fmt::format("r{}", i)).log("r ${body}");
  });
  ASSERT_EQ(h->context.routeIds().size(), size_t{kRoutes});
  h->context.stop();
  const size_t before = residentBytes();
  h.reset();  // every route's rings given back
  const size_t after = residentBytes();
  // With each ring written on removal this grows by ~26 MB; freeing the routes only shrinks it.
  EXPECT_LT(after, before + (4u << 20)) << "resident " << before << " -> " << after;
}

// Every exchange timed, so every one recorded: still nothing allocated once warm (the route
// has no mock endpoint, which keeps what it receives).
TEST(FlightRecorderAllocationTest, RecordingEveryExchangeAllocatesNothing) {
  RouteHarness h;
  h.context.setStatisticsTimingSample(1);
  h.start([](RouteBuilder& b) {
    b.from("direct:plain").routeId("plain").setHeader("seen", constant("yes"));
  });
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(h.producer.sendBody("direct:plain", "warm"));
  AllocationScope scope;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(h.producer.sendBody("direct:plain", "order-1"));
  EXPECT_EQ(scope.allocations(), 0u);
  auto recent = h.context.recentExchanges("plain");
  ASSERT_EQ(recent->completed.size(), 10u);
  EXPECT_EQ(recent->completed.back().body, "order-1");
}

}  // namespace
}  // namespace dromedary::testing
