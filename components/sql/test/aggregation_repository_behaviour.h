// SPDX-License-Identifier: Apache-2.0
#pragma once

// The JDBC aggregation repository on any database (included after sql_behaviour.h by
// sqlite_test.cc and postgresql_test.cc): open groups kept for the next start, optimistic
// locking across instances, members folded once (memberId), recovery of completed groups whose
// steps failed, and the dead letter after maximumRedeliveries.

#include "sql_behaviour.h"

namespace dromedary::testing {

TEST_P(SqlBehaviour, AnAggregationRepositoryKeepsOpenGroupsForTheNextStart) {
  auto repo = jdbcAggregationRepository(h.context, "db", table + "_agg");
  ASSERT_TRUE(repo) << repo.error().toString();
  exec("DELETE FROM " + table + "_agg");
  exec("DELETE FROM " + table + "_agg_completed");
  h.context.bindAggregationRepository("groups", *repo);
  auto routes = [&](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("order"), AggregationStrategies::string(","))
        .completionSize(3)
        .aggregationRepositoryRef("groups")
        .to("mock:done")
        .end();
  };
  h.start(routes);
  for (const char* body : {"a", "b"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(body), "order", Value("o1")));
  }
  h.context.stop();
  RouteHarness again;
  ASSERT_TRUE(bindDataSource(again.context, "db", dbUrl));
  again.context.bindAggregationRepository(
      "groups", *jdbcAggregationRepository(again.context, "db", table + "_agg"));
  again.start(routes);
  ASSERT_TRUE(again.producer.sendBodyAndHeader("direct:in", Value("c"), "order", Value("o1")));
  auto& done = again.mock("mock:done");
  ASSERT_EQ(done.receivedExchanges().size(), 1u);
  EXPECT_EQ(done.receivedExchanges()[0]->message().body(), Value("a,b,c"));
}

namespace {

// `first` and `other` (a second instance on the same database) each with a repository on
// TABLE bound as "shared" (with `member_id` when not empty), running `routes`.
void startOnSharedRepository(RouteHarness& first, RouteHarness& other, const std::string& url,
                             const std::string& table, const std::string& member_id,
                             const std::function<void(RouteBuilder&)>& routes) {
  ASSERT_TRUE(bindDataSource(other.context, "db", url));
  for (RouteHarness* instance : {&first, &other}) {
    auto repo = member_id.empty()
                    ? jdbcAggregationRepository(instance->context, "db", table)
                    : jdbcAggregationRepository(instance->context, "db", table, {}, member_id);
    ASSERT_TRUE(repo) << repo.error().toString();
    instance->context.bindAggregationRepository("shared", *repo);
    instance->start(routes);
  }
}

// Four threads send ids 0 .. groups * per_group - 1 to direct:in with header group g<id %
// groups>: threads 0 and 2 through `first`, 1 and 3 through `other` (each id once), or with
// `twice`, threads 0 and 1 through `first` and 2 and 3 through `other` (each id to both).
void sendFromFourThreads(RouteHarness& first, RouteHarness& other, int groups, int per_group,
                         bool twice) {
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t) {
    senders.emplace_back([&, t] {
      RouteHarness& instance = (twice ? t < 2 : t % 2 == 0) ? first : other;
      int step = twice ? 2 : 4;
      for (int i = twice ? t % 2 : t; i < groups * per_group; i += step) {
        auto sent = instance.producer.sendBodyAndHeader(
            "direct:in", Value(int64_t{i}), "group", Value(fmt::format("g{}", i % groups)));
        EXPECT_TRUE(sent) << sent.error().toString();
      }
    });
  }
  for (auto& t : senders) t.join();
}

}  // namespace

TEST_P(SqlBehaviour, TwoInstancesWithOptimisticLockingCompleteEveryGroupOnceWithEveryExchange) {
  constexpr int kGroups = 20, kPerGroup = 10;
  exec("DROP TABLE IF EXISTS " + table + "_shared");
  exec("DROP TABLE IF EXISTS " + table + "_shared_completed");
  std::atomic<int> completed{0};
  std::mutex seen_mutex;
  std::map<std::string, std::string> seen;  // group -> its body
  auto routes = [&](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("group"), AggregationStrategies::string(","))
        .completionSize(kPerGroup)
        .optimisticLocking()
        .aggregationRepositoryRef("shared")
        .process([&](Exchange& ex) {
          std::lock_guard lock(seen_mutex);
          seen[ex.getProperty("CamelAggregatedCorrelationKey")->toString()] +=
              ex.message().body().toString() + "|";
          ++completed;
        })
        .end();
  };
  RouteHarness other;
  ASSERT_NO_FATAL_FAILURE(
      startOnSharedRepository(h, other, dbUrl, table + "_shared", "", routes));
  // Two threads per instance, every group fed from both instances at once.
  sendFromFourThreads(h, other, kGroups, kPerGroup, /*twice=*/false);
  EXPECT_EQ(completed.load(), kGroups);
  ASSERT_EQ(seen.size(), static_cast<size_t>(kGroups));
  for (auto& [group, body] : seen) {
    std::string text = body.substr(0, body.size() - 1);
    EXPECT_EQ(std::count(text.begin(), text.end(), ','), kPerGroup - 1) << group << ": " << body;
  }
  other.context.stop();
}

// With a memberId, the repository keeps the members it folded: a record delivered again is
// not folded again, neither into its open group nor, after the group completed, into a new one.
TEST_P(SqlBehaviour, WithAMemberIdARecordDeliveredTwiceIsFoldedOnceEvenAfterItsGroupCompleted) {
  auto repo = memberRepository("agg_once", "${header.id}");
  ASSERT_TRUE(repo);
  startMemberAggregation(3);
  auto send = [&](const char* id) {
    Headers headers;
    headers.set("id", Value(id));
    headers.set("group", Value("g"));
    ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", Value(id), headers));
  };
  for (const char* id : {"a1", "a2", "a2", "a3"}) send(id);
  auto& done = h.mock("mock:done");
  ASSERT_EQ(done.receivedExchanges().size(), 1u);
  EXPECT_EQ(done.receivedExchanges()[0]->message().body(), Value("a1,a2,a3"));
  send("a2");  // late: its group completed
  EXPECT_EQ(done.receivedExchanges().size(), 1u);
  EXPECT_TRUE(repo->recover(h.context).empty()) << "a group was opened by a duplicate";
  auto after = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(after.size(), 5u);  // every exchange goes on after the aggregate
  for (size_t i : {size_t{2}, size_t{4}}) {
    const Value* dup = after[i]->getProperty("CamelDuplicateMessage");
    ASSERT_NE(dup, nullptr) << i;
    EXPECT_EQ(*dup, Value(true));
  }
  EXPECT_EQ(after[1]->getProperty("CamelDuplicateMessage"), nullptr);
  EXPECT_EQ(exec("SELECT COUNT(*) AS n FROM agg_once_members").rows.at(0).getMap()[0]
                .second.as<int64_t>(),
            3);
}

// Every record sent by both instances at once: each folded once, every group complete once
// with exactly its members.
TEST_P(SqlBehaviour, TwoInstancesGivenEveryRecordTwiceFoldEachOnce) {
  constexpr int kGroups = 10, kPerGroup = 10;
  for (const char* t : {"agg_twice", "agg_twice_completed", "agg_twice_members"}) {
    exec(std::string("DROP TABLE IF EXISTS ") + t);
  }
  std::atomic<int> completed{0};
  std::mutex seen_mutex;
  std::map<std::string, std::vector<std::string>> seen;  // group -> its bodies
  auto routes = [&](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("group"), AggregationStrategies::string(","))
        .completionSize(kPerGroup)
        .optimisticLocking()
        .aggregationRepositoryRef("shared")
        .process([&](Exchange& ex) {
          std::lock_guard lock(seen_mutex);
          seen[ex.getProperty("CamelAggregatedCorrelationKey")->toString()].push_back(
              ex.message().body().toString());
          ++completed;
        })
        .end();
  };
  RouteHarness other;
  ASSERT_NO_FATAL_FAILURE(startOnSharedRepository(h, other, dbUrl, "agg_twice", "${body}", routes));
  sendFromFourThreads(h, other, kGroups, kPerGroup, /*twice=*/true);  // both get every record
  EXPECT_EQ(completed.load(), kGroups);
  ASSERT_EQ(seen.size(), static_cast<size_t>(kGroups));
  for (auto& [group, bodies] : seen) {
    ASSERT_EQ(bodies.size(), 1u) << group << " completed more than once";
    std::string text = bodies[0];
    EXPECT_EQ(std::count(text.begin(), text.end(), ','), kPerGroup - 1) << group << ": " << text;
  }
  other.context.stop();
}

TEST_P(SqlBehaviour, AnExchangeWithoutAMemberIdFailsNamingItsGroup) {
  auto repo = memberRepository("agg_noid", "${header.id}");
  ASSERT_TRUE(repo);
  startMemberAggregation(2);
  auto sent = h.producer.sendBodyAndHeader("direct:in", Value("a"), "group", Value("g"));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message,
            "No member id could be found using the aggregation repository's memberId "
            "expression: the exchange of the group 'g'");
  EXPECT_TRUE(repo->recover(h.context).empty());
}

// Members are checked where a group is written at a version: a memberId without
// optimisticLocking would be accepted and do nothing, so the route does not start.
TEST_P(SqlBehaviour, AMemberIdWithoutOptimisticLockingIsRefusedAtStart) {
  ASSERT_TRUE(memberRepository("agg_nolock", "${header.id}"));
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("group"), AggregationStrategies::string(","))
        .completionSize(2)
        .aggregationRepositoryRef("groups")
        .to("mock:done")
        .end();
  });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message,
              HasSubstr("the aggregation repository 'groups' has a memberId, which needs "
                        "optimisticLocking: true on the aggregate"));
}

TEST_P(SqlBehaviour, ABadMemberIdIsRefusedNamingIt) {
  auto repo = jdbcAggregationRepository(h.context, "db", table + "_bad", {}, "${header.");
  ASSERT_FALSE(repo);
  EXPECT_THAT(repo.error().message, HasSubstr("memberId '${header.'"));
}

TEST_P(SqlBehaviour, OptimisticLockingNeedsARepositoryThatSupportsIt) {
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in")
        .aggregate(header("g"), AggregationStrategies::string())
        .completionSize(2)
        .optimisticLocking()
        .to("mock:x")
        .end();
  });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message,
              HasSubstr("optimisticLocking needs an aggregationRepository"));
}

namespace {

// Groups of two (header g) kept in a repository on TABLE with `recovery`, completed into
// `step` and then `then` (none when empty); "a" and "b" are sent into group x.
void aggregateTwoWithRecovery(RouteHarness& h, const std::string& table,
                              const AggregationRecovery& recovery,
                              std::function<void(Exchange&)> step, const std::string& then) {
  auto repo = jdbcAggregationRepository(h.context, "db", table, recovery);
  ASSERT_TRUE(repo) << repo.error().toString();
  h.context.bindAggregationRepository("groups", *repo);
  h.start([&](RouteBuilder& b) {
    auto& aggregated = b.from("direct:in")
                           .aggregate(header("g"), AggregationStrategies::string(","))
                           .completionSize(2)
                           .aggregationRepositoryRef("groups")
                           .process(std::move(step));
    if (!then.empty()) aggregated.to(then);
    aggregated.end();
  });
  for (const char* body : {"a", "b"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value(body), "g", Value("x")));
  }
}

}  // namespace

TEST_P(SqlBehaviour, ACompletedGroupWhoseStepsFailedRunsAgainUntilTheySucceed) {
  std::atomic<int> attempts{0};
  ASSERT_NO_FATAL_FAILURE(aggregateTwoWithRecovery(
      h, table + "_rec", {true, std::chrono::milliseconds(50), 0, ""},
      [&](Exchange&) {
        if (++attempts <= 2) throw std::runtime_error("downstream is away");
      },
      "mock:done"));
  auto& done = h.mock("mock:done");
  done.expectedBodiesReceived({Value("a,b")});
  ASSERT_TRUE(done.assertIsSatisfied(10s));
  EXPECT_EQ(attempts.load(), 3);
  EXPECT_EQ(done.receivedExchanges()[0]->getProperty("CamelRedeliveryCounter")->as<int64_t>(), 2);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(exec("SELECT COUNT(*) FROM " + table + "_rec_completed").rows[0].getMap()[0].second,
            Value(int64_t{0}));
}

TEST_P(SqlBehaviour, AGroupThatFailsMoreThanMaximumRedeliveriesGoesToTheDeadLetterUri) {
  std::atomic<int> attempts{0};
  ASSERT_NO_FATAL_FAILURE(aggregateTwoWithRecovery(
      h, table + "_dlq", {true, std::chrono::milliseconds(50), 2, "mock:dead"},
      [&](Exchange&) {
        ++attempts;
        throw std::runtime_error("always");
      },
      ""));
  auto& dead = h.mock("mock:dead");
  dead.expectedBodiesReceived({Value("a,b")});
  ASSERT_TRUE(dead.assertIsSatisfied(10s));
  EXPECT_EQ(attempts.load(), 3);  // the first run and two more
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(exec("SELECT COUNT(*) FROM " + table + "_dlq_completed").rows[0].getMap()[0].second,
            Value(int64_t{0}));
  auto bad = jdbcAggregationRepository(h.context, "db", table + "_x",
                                       {true, std::chrono::milliseconds(50), 2, ""});
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("maximumRedeliveries needs a deadLetterUri"));
}

}  // namespace dromedary::testing
