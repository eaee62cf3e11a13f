// SPDX-License-Identifier: Apache-2.0
// Queries read from files (`sql:classpath:NAME`, `sql:file:PATH`) on SQLite: read when the
// route starts, blank and `--` comment lines dropped as Camel does, errors naming the file.
#include <dromedary/sql/sql.h>
#include <gmock/gmock.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

class SqlQueryFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("dromedary-sql-files-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sql");
    ASSERT_TRUE(bindDataSource(h.context, "db", "jdbc:sqlite:" + (dir / "t.db").string()));
    // The folder of the route files is the classpath, as `dromedary run` sets it.
    h.context.properties().set("dromedary.classpath", dir.string());
    std::ofstream(dir / "sql" / "create.sql") << "create table fruit (id integer, name text)";
    std::ofstream(dir / "sql" / "insert.sql")
        << "-- one fruit per message\n\n  -- indented comment\ninsert into fruit (id, name)\n"
           "  values (:#id, :#name)\n";
    std::ofstream(dir / "sql" / "comments.sql") << "-- only a comment\n\n";
  }
  void TearDown() override {
    h.context.stop();
    fs::remove_all(dir);
  }

  // Starts a route from direct:q to `to`; "" or the start's error.
  std::string start(const std::string& to) {
    auto added = h.context.addRoutes([&](RouteBuilder& b) {
      b.from("direct:q").to(to).to("mock:out");
      b.from("direct:create").to("sql:file:" + (dir / "sql" / "create.sql").string());
    });
    if (!added) return added.error().message;
    auto started = h.context.start();
    return started ? "" : started.error().message;
  }

  fs::path dir;
  RouteHarness h;
};

TEST_F(SqlQueryFileTest, AClasspathQueryRunsWithoutItsCommentLines) {
  ASSERT_EQ(start("sql:classpath:sql/insert.sql?dataSource=#db"), "");
  ASSERT_TRUE(h.producer.sendBody("direct:create", Value("")));
  Headers headers;
  headers.set("id", Value(int64_t{7}));
  headers.set("name", Value("plum"));
  auto sent = h.producer.sendBodyAndHeaders("direct:q", Value(""), headers);
  ASSERT_TRUE(sent) << sent.error().toString();
  auto ex = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex->message().getHeader("CamelSqlUpdateCount")->as<int64_t>(), 1);
}

TEST_F(SqlQueryFileTest, AMissingQueryFileFailsTheStartNamingItAndWhereItWasLooked) {
  std::string error = start("sql:classpath:sql/nope.sql");
  EXPECT_THAT(error, ::testing::HasSubstr("classpath:sql/nope.sql"));
  EXPECT_THAT(error, ::testing::HasSubstr(dir.string()));
}

TEST_F(SqlQueryFileTest, AMissingFileQueryFailsTheStartNamingIt) {
  EXPECT_THAT(start("sql:file:/no/such/query.sql"),
              ::testing::HasSubstr("'/no/such/query.sql' is not a regular file"));
}

TEST_F(SqlQueryFileTest, AQueryFileOfOnlyCommentsIsRefusedNamingIt) {
  EXPECT_THAT(start("sql:classpath:sql/comments.sql"),
              ::testing::HasSubstr("the query file 'classpath:sql/comments.sql' holds no "
                                   "statement"));
}

}  // namespace
}  // namespace dromedary::testing
