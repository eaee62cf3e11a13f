// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <unistd.h>

#include <dromedary/sqlite/sqlite_repositories.h>

#include <dromedary/sqlite/exchange_codec.h>
#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

class SqliteAggregationRepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("dromedary-aggregation-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    path = (dir / "groups.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  static std::function<void(RouteBuilder&)> route(std::shared_ptr<AggregationRepository> repo,
                                                  std::string target) {
    return [repo, target](RouteBuilder& b) {
      b.from("direct:in")
          .aggregate(header("id"), AggregationStrategies::groupedBody())
          .completionSize(3)
          .aggregationRepository(repo)
          .to(target)
          .end();
    };
  }

  static void waitFor(component::mock::MockEndpoint& mock, size_t n) {
    for (int i = 0; i < 500 && mock.receivedCount() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  std::filesystem::path dir;
  std::string path;
};

TEST_F(SqliteAggregationRepositoryTest, TheCodecKeepsTypes) {
  Exchange ex;
  ex.setPattern(Pattern::InOut);
  ex.message().setHeader("n", 42);
  ex.message().setHeader("d", 1.5);
  ex.setProperty("flag", true);
  ex.message().setBody(Value(ValueList{"a", Value(Bytes("b\0c")),
                                       Value(ValueMap{{"k", Value()}})}));
  Exchange back;
  ASSERT_TRUE(sqlite::decodeExchange(sqlite::encodeExchange(ex), back));
  EXPECT_EQ(back.pattern(), Pattern::InOut);
  EXPECT_EQ(*back.message().getHeader("n"), Value(42));
  EXPECT_EQ(*back.message().getHeader("d"), Value(1.5));
  EXPECT_EQ(*back.getProperty("flag"), Value(true));
  EXPECT_EQ(back.message().body(), ex.message().body());
  EXPECT_FALSE(sqlite::decodeExchange("DX1\\0garbage", back));
}

TEST_F(SqliteAggregationRepositoryTest, AnOpenGroupSurvivesARestart) {
  {
    RouteHarness first;
    first.start(route(sqliteAggregationRepository(path).value(), "mock:out"));
    ASSERT_TRUE(first.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
    ASSERT_TRUE(first.producer.sendBodyAndHeader("direct:in", "a2", "id", "a"));
    first.context.stop();
    EXPECT_EQ(first.mock("mock:out").receivedCount(), 0u);
  }
  RouteHarness second;
  second.start(route(sqliteAggregationRepository(path).value(), "mock:out"));
  ASSERT_TRUE(second.producer.sendBodyAndHeader("direct:in", "a3", "id", "a"));
  auto got = second.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"a1", "a2", "a3"}));
}

TEST_F(SqliteAggregationRepositoryTest, ACompletedGroupWhoseStepsFailedRunsAgainOnRestart) {
  {
    RouteHarness first;
    first.start(route(sqliteAggregationRepository(path).value(), "direct:down?block=false"));
    for (const char* b : {"b1", "b2", "b3"}) {
      ASSERT_TRUE(first.producer.sendBodyAndHeader("direct:in", b, "id", "b"));
    }
    first.context.stop();  // direct:down has no consumer: the group's steps failed
  }
  RouteHarness second;
  second.start([&](RouteBuilder& b) {
    route(sqliteAggregationRepository(path).value(), "direct:down")(b);
    b.from("direct:down").to("mock:out");
  });
  auto& out = second.mock("mock:out");
  waitFor(out, 1);
  auto got = out.receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"b1", "b2", "b3"}));
  second.context.stop();
  // Done now: a third start finds nothing to run again.
  RouteHarness third;
  third.start([&](RouteBuilder& b) {
    route(sqliteAggregationRepository(path).value(), "mock:again")(b);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(third.mock("mock:again").receivedCount(), 0u);
}

TEST_F(SqliteAggregationRepositoryTest, AUserObjectCannotBeStored) {
  struct Opaque {};
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .aggregate(constant("k"), AggregationStrategies::useLatest())
        .completionSize(5)
        .aggregationRepository(sqliteAggregationRepository(path).value())
        .to("mock:out")
        .end();
  });
  auto sent = h.producer.sendBody("direct:in", Value::makeObject<Opaque>());
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("cannot store a value of type"), std::string::npos)
      << sent.error().message;
}

}  // namespace
}  // namespace dromedary
