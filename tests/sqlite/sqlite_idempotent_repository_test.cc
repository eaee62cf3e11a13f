// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include <dromedary/sqlite/sqlite_repositories.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

class SqliteIdempotentRepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("dromedary-sqlite-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    path = (dir / "seen.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::filesystem::path dir;
  std::string path;
};

TEST_F(SqliteIdempotentRepositoryTest, AddsContainsRemovesAndClears) {
  auto repo = sqliteIdempotentRepository(path).value();
  EXPECT_TRUE(repo->add("a"));
  EXPECT_FALSE(repo->add("a"));
  EXPECT_TRUE(repo->contains("a"));
  EXPECT_TRUE(repo->remove("a"));
  EXPECT_FALSE(repo->remove("a"));
  EXPECT_TRUE(repo->add("b"));
  repo->clear();
  EXPECT_FALSE(repo->contains("b"));
}

TEST_F(SqliteIdempotentRepositoryTest, ProcessorsSharingAFileKeepTheirOwnKeys) {
  auto orders = sqliteIdempotentRepository(path, "orders").value();
  auto refunds = sqliteIdempotentRepository(path, "refunds").value();
  EXPECT_TRUE(orders->add("1"));
  EXPECT_TRUE(refunds->add("1"));
  EXPECT_FALSE(orders->add("1"));
}

TEST_F(SqliteIdempotentRepositoryTest, RejectsDuplicatesAcrossARestart) {
  auto route = [](std::shared_ptr<IdempotentRepository> repo) {
    return [repo](RouteBuilder& b) {
      b.from("direct:in").idempotentConsumer(header("id"), repo).to("mock:once").end();
    };
  };
  {
    RouteHarness first;
    first.start(route(sqliteIdempotentRepository(path).value()));
    ASSERT_TRUE(first.producer.sendBodyAndHeader("direct:in", "x", "id", "order-1"));
    EXPECT_EQ(first.mock("mock:once").receivedCount(), 1u);
    first.context.stop();
  }
  RouteHarness second;  // a new process would open the same file
  second.start(route(sqliteIdempotentRepository(path).value()));
  ASSERT_TRUE(second.producer.sendBodyAndHeader("direct:in", "x", "id", "order-1"));
  ASSERT_TRUE(second.producer.sendBodyAndHeader("direct:in", "x", "id", "order-2"));
  auto got = second.mock("mock:once").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(*got[0]->message().getHeader("id"), Value("order-2"));
}

TEST_F(SqliteIdempotentRepositoryTest, AnUnopenableFileIsReportedWithItsPath) {
  auto repo = sqliteIdempotentRepository((dir / "missing" / "dir" / "seen.db").string());
  ASSERT_FALSE(repo);
  EXPECT_NE(repo.error().message.find("cannot open SQLite database '"), std::string::npos);
  EXPECT_NE(repo.error().message.find("missing/dir/seen.db"), std::string::npos);
}

}  // namespace
}  // namespace dromedary
