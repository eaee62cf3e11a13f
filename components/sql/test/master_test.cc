// SPDX-License-Identifier: Apache-2.0
// master: on the test PostgreSQL server: of two contexts running the same route, one leads
// and consumes; it stopping or losing its connection hands the lead to the other, never
// leaving two consuming at once.
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <libpq-fe.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <dromedary/sql/sql.h>

#include "pg_server.h"
#include "support/eventually.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

// One instance: a context whose route fires under master:, counting its fires; `active`
// counts the instances firing at once, `overlaps` how often two did.
struct Instance {
  Instance(const std::string& member, const std::string& ns, std::atomic<int>& active,
           std::atomic<int>& overlaps, std::chrono::milliseconds work = 2ms) {
    h.context.properties().set("camel.cluster.postgresql.id", member);
    h.context.properties().set("camel.cluster.postgresql.acquireLockInterval", "100");
    EXPECT_TRUE(bindDataSource(h.context, "db", serverUrl() + "?application_name=" + member));
    h.start([&, ns, work](RouteBuilder& b) {
      b.from("master:" + ns + ":timer:tick?period=20&delay=0")
          .routeId("poller")
          .process([&, work](Exchange&) {
            if (++active > 1) ++overlaps;
            ++fires;
            std::this_thread::sleep_for(work);
            --active;
          });
    });
  }
  std::string role() {
    for (auto& [k, v] : h.context.routeConsumerDetails("poller")) {
      if (k == "role") return v;
    }
    return {};
  }
  std::string term() {
    for (auto& [k, v] : h.context.routeConsumerDetails("poller")) {
      if (k == "term") return v;
    }
    return {};
  }
  RouteHarness h;
  std::atomic<int> fires{0};
};


TEST(MasterTest, OneOfTwoInstancesConsumesAndTheOtherTakesOverWhenItStops) {
  std::atomic<int> active{0}, overlaps{0};
  Instance a("member-a", "stop-ns", active, overlaps);
  Instance b("member-b", "stop-ns", active, overlaps);
  ASSERT_TRUE(eventually([&] { return a.fires + b.fires >= 10; }, 10s));
  Instance& leader = a.fires > 0 ? a : b;
  Instance& follower = a.fires > 0 ? b : a;
  EXPECT_EQ(follower.fires.load(), 0);
  EXPECT_EQ(leader.role(), "leader");
  EXPECT_EQ(follower.role(), "follower");
  std::string first_term = leader.term();
  leader.h.context.stop();
  ASSERT_TRUE(eventually([&] { return follower.fires >= 5; }, 10s)) << "no takeover";
  EXPECT_EQ(follower.role(), "leader");
  EXPECT_EQ(std::stoll(follower.term()), std::stoll(first_term) + 1);
  EXPECT_EQ(overlaps.load(), 0);
}

// The lease is held until the stopping leader's exchanges have finished: the next leader
// does not start while one of them still runs.
TEST(MasterTest, AStoppingLeaderKeepsTheLeaseUntilItsExchangeHasFinished) {
  std::atomic<int> active{0}, overlaps{0};
  Instance a("member-e", "drain-ns", active, overlaps, 600ms);
  ASSERT_TRUE(eventually([&] { return a.fires >= 1; }, 10s));
  Instance b("member-f", "drain-ns", active, overlaps, 600ms);
  ASSERT_TRUE(eventually([&] { return active.load() == 1; }, 5s));  // a fire is under way
  std::thread stopper([&] { a.h.context.stop(); });
  ASSERT_TRUE(eventually([&] { return b.fires >= 1; }, 10s)) << "no takeover";
  stopper.join();
  EXPECT_EQ(overlaps.load(), 0);
}

// As Camel's MasterConsumer: a suspended leader keeps the lease (its delegate is suspended);
// resumed, it consumes again, and the other member never led meanwhile.
TEST(MasterTest, ASuspendedLeaderKeepsTheLeaseAndConsumesAgainWhenResumed) {
  std::atomic<int> active{0}, overlaps{0};
  Instance a("member-g", "suspend-ns", active, overlaps);
  ASSERT_TRUE(eventually([&] { return a.fires >= 3; }, 10s));
  Instance b("member-h", "suspend-ns", active, overlaps);
  ASSERT_TRUE(a.h.context.suspendRoute("poller"));
  const int fired = a.fires;
  std::this_thread::sleep_for(600ms);  // several of the other's lock attempts (100 ms apart)
  EXPECT_EQ(a.fires.load(), fired);
  EXPECT_EQ(b.fires.load(), 0) << "the lease stayed with the suspended leader";
  ASSERT_TRUE(a.h.context.resumeRoute("poller"));
  ASSERT_TRUE(eventually([&] { return a.fires >= fired + 3; }, 10s)) << "not consuming again";
  EXPECT_EQ(a.role(), "leader");
  EXPECT_EQ(b.fires.load(), 0);
  EXPECT_EQ(overlaps.load(), 0);
}

TEST(MasterTest, ALeaderThatLosesItsConnectionStopsAndTheOtherTakesOver) {
  std::atomic<int> active{0}, overlaps{0};
  Instance a("member-c", "drop-ns", active, overlaps);
  ASSERT_TRUE(eventually([&] { return a.fires >= 3; }, 10s));
  Instance b("member-d", "drop-ns", active, overlaps);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(b.fires.load(), 0);
  adminExec("select pg_terminate_backend(pid) from pg_stat_activity where application_name = "
            "'member-c'");
  ASSERT_TRUE(eventually([&] { return b.fires >= 3; }, 10s)) << "no takeover";
  EXPECT_EQ(overlaps.load(), 0);
  // member-c stopped when its check failed; it stands by now (or leads again later, never both).
  ASSERT_TRUE(eventually([&] { return a.role() == "follower"; }, 5s));
}

TEST(MasterTest, TheLeaseNeedsAPostgreSQLDataSource) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", "jdbc:sqlite::memory:"));
  auto added = h.context.addRoutes(
      [](RouteBuilder& b) { b.from("master:ns:timer:t").to("log:x"); });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("holds its lease in PostgreSQL"));
}

TEST(MasterTest, AUriWithoutANamespaceIsRefusedSayingTheForm) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) { b.from("master:timer").to("log:x"); });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("expected master:NAMESPACE:ENDPOINT"));
}

}  // namespace
}  // namespace dromedary::testing
