// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the sql component does on any database: the same tests run on SQLite (sqlite_test.cc,
// a file per test) and on a real PostgreSQL server (postgresql_test.cc). A test gets a data
// source bound as "db" and a table name of its own.

#include <gmock/gmock.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <string>

#include <dromedary/dsl/route_loader.h>
#include <dromedary/sql/sql.h>

#include "data_sources.h"
#include "database.h"
#include "support/eventually.h"
#include "support/route_harness.h"

namespace dromedary::testing {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

/// Gives each test a database URL (the parameter of the suite is its name, for messages).
class SqlBehaviour : public ::testing::TestWithParam<std::string> {
 protected:
  /// The URL of the database to use: a fresh SQLite file, or the test server.
  static std::string url();

  void SetUp() override {
    dbUrl = url();
    auto bound = bindDataSource(h.context, "db", dbUrl);
    ASSERT_TRUE(bound) << bound.error().toString();
    db = h.context.beanByName<component::sql::Database>("db");
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    // t_ + the test's name, cut, + a hash of the whole name (unique across tests that run at
    // once): short enough that the tests' suffixes (_agg_completed ...) stay within the 63
    // bytes PostgreSQL keeps of a name.
    table = "t_";
    for (char c : name) {
      table += static_cast<char>(std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c)
                                                                             : '_');
    }
    table = fmt::format("{}_{:08x}", table.substr(0, 34),
                        static_cast<uint32_t>(std::hash<std::string>{}(name)));
    exec("DROP TABLE IF EXISTS " + table);
    exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name VARCHAR(50), amount FLOAT, "
         "state VARCHAR(20))");
  }

  // A SQLite test's database file goes with it (kept when the test failed, to look into).
  void TearDown() override {
    constexpr std::string_view kSqlite = "jdbc:sqlite:";
    if (!dbUrl.starts_with(kSqlite) || HasFailure()) return;
    h.context.stop();
    const std::string path = dbUrl.substr(kSqlite.size());
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
      std::remove((path + suffix).c_str());
    }
  }

  bool postgres() const { return db->dialect() == component::sql::Dialect::PostgreSQL; }

  /// Runs SQL on the data source; fails the test when it fails.
  component::sql::QueryResult exec(const std::string& sql) {
    component::sql::StatementText s(sql, /*once=*/true);
    auto outcome = db->executeAndWait(s, {});
    if (auto* e = std::get_if<component::sql::SqlError>(&outcome)) {
      ADD_FAILURE() << sql << ": " << component::sql::describeError(*e);
      return {};
    }
    return std::get<component::sql::QueryResult>(outcome);
  }
  int64_t count(const std::string& where = "1=1") {
    auto r = exec("SELECT COUNT(*) AS n FROM " + table + " WHERE " + where);
    return r.rows.empty() ? -1 : r.rows[0].getMap()[0].second.as<int64_t>();
  }
  void seed() {
    exec("INSERT INTO " + table + " VALUES (1, 'apple', 1.5, 'new'), (2, 'pear', 2.25, 'new'), "
         "(3, 'plum', 3.0, 'old')");
  }
  std::string q(const std::string& sql, const std::string& options = {}) {
    return "sql:" + sql + (options.empty() ? "" : "?" + options);
  }

  /// A JDBC aggregation repository `name` (its tables dropped first) keeping its members by
  /// `member_id`, bound as "groups"; fails the test when it cannot be made.
  std::shared_ptr<AggregationRepository> memberRepository(const std::string& name,
                                                          const std::string& member_id) {
    for (const char* suffix : {"", "_completed", "_members"}) {
      exec("DROP TABLE IF EXISTS " + name + suffix);
    }
    auto repo = jdbcAggregationRepository(h.context, "db", name, {}, member_id);
    if (!repo) {
      ADD_FAILURE() << repo.error().toString();
      return nullptr;
    }
    h.context.bindAggregationRepository("groups", *repo);
    return *repo;
  }
  /// Starts direct:in aggregating by header `group` into "groups", `size` at a time, with
  /// optimisticLocking; completed groups to mock:done, every exchange then to mock:after.
  void startMemberAggregation(int size) {
    h.start([size](RouteBuilder& b) {
      b.from("direct:in")
          .aggregate(header("group"), AggregationStrategies::string(","))
          .completionSize(size)
          .optimisticLocking()
          .aggregationRepositoryRef("groups")
          .to("mock:done")
          .end()
          .to("mock:after");
    });
  }

  RouteHarness h;
  std::shared_ptr<component::sql::Database> db;
  std::string table;
  std::string dbUrl;
};

TEST_P(SqlBehaviour, ASelectGivesTheRowsAsMapsOfTypedValuesInColumnOrder) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select id, name, amount from " + table + " order by id"));
  });
  auto reply = h.producer.requestBody("direct:q", Value("ignored"));
  ASSERT_TRUE(reply) << reply.error().toString();
  ASSERT_TRUE(reply->isList());
  const ValueList& rows = reply->getList();
  ASSERT_EQ(rows.size(), 3u);
  const ValueMap& first = rows[0].getMap();
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].first, "id");
  EXPECT_EQ(first[0].second, Value(int64_t{1}));
  EXPECT_EQ(first[1].second, Value("apple"));
  EXPECT_EQ(first[2].second, Value(1.5));
}

TEST_P(SqlBehaviour, TheRowCountHeaderSaysHowManyRowsCameBack) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select * from " + table + " where state = 'new'")).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
  auto ex = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex->message().getHeader("CamelSqlRowCount")->as<int64_t>(), 2);
}

TEST_P(SqlBehaviour, NamedParametersComeFromTheBodysMapBeforeTheHeaders) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select name from " + table + " where state = :#state and id > :#min "
                            "order by id"));
  });
  Exchange ex(&h.context);
  ex.message().setBody(Value(ValueMap{{"state", Value("new")}}));
  ex.message().setHeader("state", Value("old"));
  ex.message().setHeader("min", Value(int64_t{1}));
  ASSERT_TRUE(h.producer.send("direct:q", ex));
  ASSERT_FALSE(ex.failed()) << ex.error().message();
  ASSERT_EQ(ex.message().body().getList().size(), 1u);
  EXPECT_EQ(ex.message().body().getList()[0].getMap()[0].second, Value("pear"));
}

TEST_P(SqlBehaviour, SimpleExpressionsAreParameters) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .setProperty("wanted", constant(Value(int64_t{3})))
        .to(q("select name from " + table + " where id = :#${exchangeProperty.wanted}",
              "outputType=SelectOne"));
  });
  auto reply = h.producer.requestBody("direct:q", Value("x"));
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("plum"));
}

TEST_P(SqlBehaviour, PositionalParametersTakeAListBodyInOrderOrATextSplitAtTheSeparator) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:list").to(q("select name from " + table + " where id = # or id = # order by id"));
    b.from("direct:text").to(q("select name from " + table + " where id = # or id = # order by id",
                               "separator=;"));
  });
  auto list = h.producer.requestBody("direct:list",
                                     Value(ValueList{Value(int64_t{3}), Value(int64_t{1})}));
  ASSERT_TRUE(list) << list.error().toString();
  ASSERT_EQ(list->getList().size(), 2u);
  EXPECT_EQ(list->getList()[0].getMap()[0].second, Value("apple"));
  auto text = h.producer.requestBody("direct:text", Value("2;3"));
  ASSERT_TRUE(text) << text.error().toString();
  EXPECT_EQ(text->getList().size(), 2u);
}

TEST_P(SqlBehaviour, TooFewPositionalValuesFailTheExchangeSayingHowMany) {
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select * from " + table + " where id = # and name = #"));
  });
  auto reply = h.producer.requestBody("direct:q", Value(int64_t{1}));
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("Expected count: 2, actual count: 1"));
}

TEST_P(SqlBehaviour, AMissingNamedParameterFailsTheExchangeNamingIt) {
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select * from " + table + " where id = :#orderId"));
  });
  auto reply = h.producer.requestBody("direct:q", Value("x"));
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("Cannot find key [orderId]"));
}

TEST_P(SqlBehaviour, SelectOneGivesOneColumnsValueOneRowsMapNullForNoneAndFailsForMore) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:value").to(q("select count(*) from " + table, "outputType=SelectOne"));
    b.from("direct:row").to(q("select id, name from " + table + " where id = 2",
                              "outputType=SelectOne"));
    b.from("direct:none").to(q("select id from " + table + " where id = 99",
                               "outputType=SelectOne"));
    b.from("direct:many").to(q("select id from " + table, "outputType=SelectOne"));
  });
  EXPECT_EQ(h.producer.requestBody("direct:value", Value("x"))->as<int64_t>(), 3);
  auto row = h.producer.requestBody("direct:row", Value("x"));
  ASSERT_TRUE(row && row->isMap());
  EXPECT_EQ(*row->mapGet("name"), Value("pear"));
  auto none = h.producer.requestBody("direct:none", Value("x"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->isNull());
  auto many = h.producer.requestBody("direct:many", Value("x"));
  ASSERT_FALSE(many);
  EXPECT_THAT(many.error().message, HasSubstr("Got 3 count instead"));
}

TEST_P(SqlBehaviour, OutputHeaderKeepsTheBody) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to(q("select max(id) from " + table, "outputType=SelectOne&outputHeader=top"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("keep me")));
  auto ex = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex->message().body(), Value("keep me"));
  EXPECT_EQ(ex->message().getHeader("top")->as<int64_t>(), 3);
}

TEST_P(SqlBehaviour, SelectOneCountsTheRowItFoundAndNoneWhenThereIsNone) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:one")
        .to(q("select name from " + table + " where id = 2", "outputType=SelectOne"))
        .to("mock:one");
    b.from("direct:none")
        .to(q("select name from " + table + " where id = 99", "outputType=SelectOne"))
        .to("mock:none");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:one", Value("x")));
  ASSERT_TRUE(h.producer.sendBody("direct:none", Value("x")));
  auto one = h.mock("mock:one").receivedExchanges().at(0);
  EXPECT_EQ(one->message().body(), Value("pear"));
  EXPECT_EQ(one->message().getHeader("CamelSqlRowCount")->as<int64_t>(), 1);
  auto none = h.mock("mock:none").receivedExchanges().at(0);
  EXPECT_TRUE(none->message().body().isNull());
  EXPECT_EQ(none->message().getHeader("CamelSqlRowCount")->as<int64_t>(), 0);
}

TEST_P(SqlBehaviour, AnUpdateSetsTheUpdateCountAndKeepsTheBody) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to(q("update " + table + " set state = 'done' where state = :#from"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:q", Value("body"), "from", Value("new")));
  auto ex = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex->message().getHeader("CamelSqlUpdateCount")->as<int64_t>(), 2);
  EXPECT_EQ(ex->message().body(), Value("body"));
  EXPECT_EQ(count("state = 'done'"), 2);
}

TEST_P(SqlBehaviour, NoopKeepsTheBodyOfASelect) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select * from " + table, "noop=true")).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("mine")));
  auto ex = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex->message().body(), Value("mine"));
  EXPECT_EQ(ex->message().getHeader("CamelSqlRowCount")->as<int64_t>(), 3);
}

TEST_P(SqlBehaviour, ABatchRunsOncePerElementAndCountsEveryRow) {
  h.start([&](RouteBuilder& b) {
    b.from("direct:maps").to(q("insert into " + table + " (id, name) values (:#id, :#name)",
                               "batch=true"));
    b.from("direct:lists").to(q("insert into " + table + " (id, name) values (#, #)",
                                "batch=true"));
  });
  Exchange ex(&h.context);
  ValueList maps;
  for (int64_t i = 1; i <= 50; ++i) {
    maps.emplace_back(ValueMap{{"id", Value(i)}, {"name", Value(fmt::format("n{}", i))}});
  }
  ex.message().setBody(Value(std::move(maps)));
  ASSERT_TRUE(h.producer.send("direct:maps", ex));
  ASSERT_FALSE(ex.failed()) << ex.error().message();
  EXPECT_EQ(ex.message().getHeader("CamelSqlUpdateCount")->as<int64_t>(), 50);
  ValueList lists;
  lists.emplace_back(ValueList{Value(int64_t{51}), Value("a")});
  lists.emplace_back(ValueList{Value(int64_t{52}), Value("b")});
  ASSERT_TRUE(h.producer.requestBody("direct:lists", Value(std::move(lists))));
  EXPECT_EQ(count(), 52);
}

TEST_P(SqlBehaviour, ABatchWithAFailingElementChangesNothing) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("insert into " + table + " (id, name) values (#, #)", "batch=true"));
  });
  ValueList rows;
  rows.emplace_back(ValueList{Value(int64_t{10}), Value("new")});
  rows.emplace_back(ValueList{Value(int64_t{1}), Value("duplicate key")});
  auto reply = h.producer.requestBody("direct:q", Value(std::move(rows)));
  ASSERT_FALSE(reply);
  EXPECT_EQ(count(), 3);  // row 10 was rolled back with the batch
}

TEST_P(SqlBehaviour, AnInListExpandsToOneParameterPerElement) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select name from " + table + " where name in (:#in:names) order by id"));
  });
  auto list = h.producer.sendBodyAndHeader("direct:q", Value("x"), "names",
                                           Value(ValueList{Value("plum"), Value("apple")}));
  ASSERT_TRUE(list);
  Exchange ex(&h.context);
  ex.message().setHeader("names", Value("pear,plum"));
  ASSERT_TRUE(h.producer.send("direct:q", ex));
  ASSERT_FALSE(ex.failed()) << ex.error().message();
  ASSERT_EQ(ex.message().body().getList().size(), 2u);
  EXPECT_EQ(ex.message().body().getList()[0].getMap()[0].second, Value("pear"));
}

TEST_P(SqlBehaviour, GeneratedKeysComeBackInHeadersWhenAsked) {
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("insert into " + table + " (id, name) values (:#id, 'k');"));
  });
  Exchange ex(&h.context);
  ex.message().setHeader("id", Value(int64_t{77}));
  ex.message().setHeader("CamelSqlRetrieveGeneratedKeys", Value(true));
  ASSERT_TRUE(h.producer.send("direct:q", ex));
  ASSERT_FALSE(ex.failed()) << ex.error().message();
  EXPECT_EQ(ex.message().getHeader("CamelSqlGeneratedKeysRowCount")->as<int64_t>(), 1);
  const Value* rows = ex.message().getHeader("CamelSqlGeneratedKeyRows");
  ASSERT_TRUE(rows && rows->isList());
  EXPECT_EQ(*rows->getList()[0].mapGet("id"), Value(int64_t{77}));
}

TEST_P(SqlBehaviour, TheBodyCanBeTheStatementAndAHeaderTheQuery) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:body").to("sql:?useMessageBodyForSql=true");
    b.from("direct:header").to(q("select 1"));
  });
  Exchange ex(&h.context);
  ex.message().setBody(Value("select name from " + table + " where id = ?"));
  ex.message().setHeader("CamelSqlParameters", Value(ValueList{Value(int64_t{2})}));
  ASSERT_TRUE(h.producer.send("direct:body", ex));
  ASSERT_FALSE(ex.failed()) << ex.error().message();
  EXPECT_EQ(ex.message().body().getList()[0].getMap()[0].second, Value("pear"));
  Exchange hx(&h.context);
  hx.message().setBody(Value(int64_t{3}));
  hx.message().setHeader("CamelSqlQuery", Value("select name from " + table + " where id = #"));
  ASSERT_TRUE(h.producer.send("direct:header", hx));
  ASSERT_FALSE(hx.failed()) << hx.error().message();
  EXPECT_EQ(hx.message().body().getList()[0].getMap()[0].second, Value("plum"));
}

TEST_P(SqlBehaviour, BadSqlFailsTheRouteStartNamingTheRouteAndTheStatement) {
  auto added = h.context.addRoutes([&](RouteBuilder& b) {
    b.from("direct:q").routeId("orders").to(q("selec * frm " + table));
  });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("selec * frm"));
  EXPECT_THAT(started.error().message, HasSubstr("orders"));
}

TEST_P(SqlBehaviour, ADuplicateKeyIsCaughtByCamelsExceptionNames) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.onException({"org.springframework.dao.DataIntegrityViolationException"})
        .handled(true)
        .setBody(constant(Value("duplicate")));
    b.from("direct:q").to(q("insert into " + table + " (id, name) values (#, 'x')"));
  });
  auto reply = h.producer.requestBody("direct:q", Value(int64_t{1}));
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("duplicate"));
}

TEST_P(SqlBehaviour, TheConsumerRoutesEachRowOnceAndMarksItWithOnConsume) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + " where state = 'new' order by id",
             "initialDelay=0&delay=20&onConsume=update " + table +
                 " set state = 'done' where id = :#id&onConsumeBatchComplete=update " + table +
                 " set amount = 0 where state = 'old'"))
        .to("mock:rows");
  });
  auto& rows = h.mock("mock:rows");
  rows.expectedMessageCount(2);
  ASSERT_TRUE(rows.assertIsSatisfied(10s));
  std::this_thread::sleep_for(200ms);  // more polls: nothing more to route
  ASSERT_EQ(rows.receivedExchanges().size(), 2u);
  auto first = rows.receivedExchanges()[0];
  EXPECT_EQ(*first->message().body().mapGet("name"), Value("apple"));
  EXPECT_EQ(first->getProperty("CamelBatchSize")->as<int64_t>(), 2);
  EXPECT_EQ(count("state = 'done'"), 2);
  EXPECT_EQ(count("amount = 0"), 1);
}

TEST_P(SqlBehaviour, ATransactedConsumersFailedRowIsReadAgainAndTheOthersAreNot) {
  seed();
  std::atomic<int> pear_attempts{0};
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + " where state = 'new' order by id",
             "initialDelay=0&delay=20&transacted=true&onConsume=update " + table +
                 " set state = 'done' where id = :#id"))
        .process([&](Exchange& ex) {
          if (*ex.message().body().mapGet("name") == Value("pear") && ++pear_attempts <= 2) {
            throw std::runtime_error("not yet");
          }
        })
        .to("mock:rows");
  });
  auto& rows = h.mock("mock:rows");
  rows.expectedMessageCount(2);
  ASSERT_TRUE(rows.assertIsSatisfied(10s));
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(rows.receivedExchanges().size(), 2u);  // apple once, pear once it succeeded
  EXPECT_EQ(pear_attempts.load(), 3);
  EXPECT_EQ(count("state = 'done'"), 2);
}

// A stop takes no more rows, but the row in the route finishes and its onConsume runs before
// the stop returns.
TEST_P(SqlBehaviour, AStopLetsTheRowInTheRouteFinishAndMarksIt) {
  seed();
  std::atomic<bool> in_route{false};
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + " where state = 'new' order by id",
             "initialDelay=0&delay=20&onConsume=update " + table +
                 " set state = 'done' where id = :#id"))
        .process([&](Exchange&) {
          in_route = true;
          std::this_thread::sleep_for(300ms);
        })
        .to("mock:rows");
  });
  for (int i = 0; i < 500 && !in_route; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(in_route);
  StopReport report = h.context.stop();
  EXPECT_TRUE(report.graceful);
  EXPECT_EQ(h.mock("mock:rows").receivedExchanges().size(), 1u);
  EXPECT_EQ(count("state = 'done'"), 1);  // apple's; pear waits for the next start
}

// Past the shutdown timeout the stop returns, and the row whose exchange had not finished is
// not marked: the next poll (after a restart, or another instance's) reads it again.
TEST_P(SqlBehaviour, AStopPastItsTimeoutReturnsAndLeavesTheUnfinishedRowUnmarked) {
  seed();
  std::atomic<bool> in_route{false};
  h.context.setShutdownTimeout(300ms);
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + " where state = 'new' order by id",
             "initialDelay=0&delay=20&onConsume=update " + table +
                 " set state = 'done' where id = :#id"))
        .process([&](Exchange&) { in_route = true; })
        .delay(constant(Value(int64_t{10000})))
        .to("mock:rows");
  });
  for (int i = 0; i < 500 && !in_route; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(in_route);
  const auto begin = std::chrono::steady_clock::now();
  StopReport report = h.context.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);  // not the delay's 10 s
  EXPECT_FALSE(report.graceful);
  EXPECT_EQ(count("state = 'done'"), 0);
}

TEST_P(SqlBehaviour, ARouteStoppedPastItsTimeoutStartsAgainWithoutWaitingForItsOldRow) {
  seed();
  std::atomic<int> entered{0};
  h.context.setShutdownTimeout(300ms);
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + " where state = 'new' order by id",
             "initialDelay=0&delay=20&maxMessagesPerPoll=1&onConsume=update " + table +
                 " set state = 'done' where id = :#id"))
        .routeId("rows")
        .process([&](Exchange& ex) {
          // The first row's exchange outlasts the stop's timeout by far.
          ex.message().setHeader("wait", Value(int64_t{++entered == 1 ? 4000 : 0}));
        })
        .delay(header("wait"))
        .to("mock:rows");
  });
  ASSERT_TRUE(eventually([&] { return entered.load() >= 1; }));
  auto stopped = h.context.stopRoute("rows");
  ASSERT_TRUE(stopped) << stopped.error().toString();
  EXPECT_FALSE(stopped->graceful);
  const auto begin = std::chrono::steady_clock::now();
  auto started = h.context.startRoute("rows");
  ASSERT_TRUE(started) << started.error().toString();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);  // not the old exchange's end
  // The abandoned row was not marked: the restarted consumer routes it again, then the other
  // new one (seed(): rows 1 and 2 are new).
  EXPECT_TRUE(eventually([&] { return count("state = 'done'") == 2; }));
  EXPECT_EQ(entered.load(), 3);
}

TEST_P(SqlBehaviour, InstancesSharingTheIdempotentTableAgreeOnDuplicates) {
  auto first = jdbcIdempotentRepository(h.context, "db", "orders", table + "_seen");
  ASSERT_TRUE(first) << first.error().toString();
  auto second = jdbcIdempotentRepository(h.context, "db", "orders", table + "_seen");
  auto other = jdbcIdempotentRepository(h.context, "db", "invoices", table + "_seen");
  ASSERT_TRUE(second && other);
  (*first)->clear();
  (*other)->clear();
  EXPECT_TRUE((*first)->add("k1"));
  EXPECT_FALSE((*second)->add("k1"));
  EXPECT_TRUE((*second)->contains("k1"));
  EXPECT_TRUE((*other)->add("k1"));  // another processorName: another set of keys
  EXPECT_TRUE((*second)->remove("k1"));
  EXPECT_FALSE((*first)->contains("k1"));
}

TEST_P(SqlBehaviour, ARouteFilesBeansGiveTheDataSourceAndTheRepository) {
  seed();
  std::string yaml = fmt::format(R"(
- beans:
    - name: shop
      type: "#class:org.apache.commons.dbcp2.BasicDataSource"
      properties:
        url: "{url}"
        driverClassName: org.postgresql.Driver
    - name: seen
      type: org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository
      properties:
        dataSource: "#bean:shop"
        processorName: files
        tableName: {table}_keys
- route:
    from:
      uri: direct:in
      steps:
        - idempotentConsumer:
            idempotentRepository: seen
            header: id
            steps:
              - to:
                  uri: "sql:select name from {table} where id = :#id"
                  parameters:
                    dataSource: "#shop"
                    outputType: SelectOne
              - to: mock:out
)",
                                 fmt::arg("url", dbUrl), fmt::arg("table", table));
  auto loaded = loadYamlRoutes(h.context, yaml, "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  auto started = h.context.start();
  ASSERT_TRUE(started) << started.error().toString();
  h.context.idempotentRepositoryByName("seen")->clear();
  for (int64_t id : {2, 2, 3}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("x"), "id", Value(id)));
  }
  auto& out = h.mock("mock:out");
  ASSERT_EQ(out.receivedExchanges().size(), 2u);
  EXPECT_EQ(out.receivedExchanges()[1]->message().body(), Value("plum"));
}

// Data sources configured by properties alone, in a context of their own (this suite's
// context has "db" bound): the name of row 2, or the error, through `options`.
Result<Value> nameOfRowTwo(const std::string& table,
                           const std::vector<std::pair<std::string, std::string>>& properties,
                           const std::string& options = {}) {
  RouteHarness other;
  for (const auto& [key, value] : properties) other.context.properties().set(key, value);
  const std::string uri = "sql:select name from " + table +
                          " where id = 2?outputType=SelectOne" + (options.empty() ? "" : "&") +
                          options;
  auto added = other.context.addRoutes([&](RouteBuilder& b) { b.from("direct:q").to(uri); });
  if (!added) return added.error();
  auto started = other.context.start();
  if (!started) return started.error();
  return other.producer.requestBody("direct:q", Value("x"));
}

TEST_P(SqlBehaviour, SpringBootsDataSourcePropertiesGiveTheDataSourceOfEndpointsNamingNone) {
  seed();
  // Camel JBang's own sql example configures PostgreSQL this way, and names no data source.
  auto name = nameOfRowTwo(table, {{"spring.datasource.url", dbUrl},
                                   {"spring.datasource.driverClassName", "org.postgresql.Driver"},
                                   {"spring.datasource.hikari.maximum-pool-size", "2"}});
  ASSERT_TRUE(name) << name.error().toString();
  EXPECT_EQ(*name, Value("pear"));
}

TEST_P(SqlBehaviour, QuarkusDataSourcePropertiesGiveTheDefaultAndNamedDataSources) {
  seed();
  auto unnamed = nameOfRowTwo(table, {{"quarkus.datasource.db-kind", "postgresql"},
                                      {"quarkus.datasource.jdbc.url", dbUrl}});
  ASSERT_TRUE(unnamed) << unnamed.error().toString();
  EXPECT_EQ(*unnamed, Value("pear"));
  // A name with a dot is quoted, as Quarkus has it; dataSource names it without the quotes.
  auto named = nameOfRowTwo(table,
                            {{"quarkus.datasource.\"orders.eu\".jdbc.url", dbUrl},
                             {"quarkus.datasource.\"orders.eu\".jdbc.max-size", "2"},
                             {"quarkus.datasource.audit.jdbc.url", dbUrl}},
                            "dataSource=#orders.eu");
  ASSERT_TRUE(named) << named.error().toString();
  EXPECT_EQ(*named, Value("pear"));
  // Two named ones and no name: the endpoint must say which, listing both.
  auto ambiguous = nameOfRowTwo(table, {{"quarkus.datasource.\"orders.eu\".jdbc.url", dbUrl},
                                        {"quarkus.datasource.audit.jdbc.url", dbUrl}});
  ASSERT_FALSE(ambiguous);
  EXPECT_THAT(ambiguous.error().message, HasSubstr("there are 2 data sources"));
  EXPECT_THAT(ambiguous.error().message, HasSubstr("orders.eu"));
  EXPECT_THAT(ambiguous.error().message, HasSubstr("audit"));
}

TEST_P(SqlBehaviour, CamelsDataSourcePropertiesComeBeforeSpringBootsAndABadPoolSizeIsNamed) {
  seed();
  auto name = nameOfRowTwo(table, {{"camel.datasource.url", dbUrl},
                                   {"spring.datasource.url", "jdbc:nowhere:x"}});
  ASSERT_TRUE(name) << name.error().toString();
  EXPECT_EQ(*name, Value("pear"));
  auto bad = nameOfRowTwo(table, {{"spring.datasource.url", dbUrl},
                                  {"spring.datasource.hikari.maximum-pool-size", "lots"}});
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message,
              HasSubstr("spring.datasource.hikari.maximum-pool-size must be a whole number"));
  auto none = nameOfRowTwo(table, {});
  ASSERT_FALSE(none);
  EXPECT_THAT(none.error().message,
              HasSubstr("set camel.datasource.NAME.url, spring.datasource.url or "
                        "quarkus.datasource.jdbc.url"));
}

TEST_P(SqlBehaviour, SpringXmlBeansGiveTheDataSourceAndTheRepository) {
  seed();
  std::string xml = fmt::format(R"xml(<beans xmlns="http://www.springframework.org/schema/beans">
  <bean id="shop" class="org.apache.commons.dbcp2.BasicDataSource">
    <property name="url" value="{url}"/>
  </bean>
  <bean id="seen" class="org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository">
    <property name="dataSource" ref="shop"/>
    <property name="processorName" value="xml"/>
    <property name="tableName" value="{table}_xmlkeys"/>
  </bean>
  <bean id="jms" class="org.apache.activemq.ActiveMQConnectionFactory"/>
  <camelContext xmlns="http://camel.apache.org/schema/spring">
    <route>
      <from uri="direct:in"/>
      <idempotentConsumer idempotentRepository="seen">
        <header>id</header>
        <to uri="sql:select name from {table} where id = :#id?dataSource=#shop&amp;outputType=SelectOne"/>
        <to uri="mock:out"/>
      </idempotentConsumer>
    </route>
  </camelContext>
</beans>)xml",
                                fmt::arg("url", dbUrl), fmt::arg("table", table));
  auto loaded = loadXmlRoutes(h.context, xml, "routes.xml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_EQ(loaded->notes.size(), 1u);  // the JMS factory, which nothing here makes
  EXPECT_THAT(loaded->notes[0], HasSubstr("ignored <bean id=\"jms\">"));
  auto started = h.context.start();
  ASSERT_TRUE(started) << started.error().toString();
  h.context.idempotentRepositoryByName("seen")->clear();
  for (int64_t id : {1, 1, 3}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", Value("x"), "id", Value(id)));
  }
  ASSERT_EQ(h.mock("mock:out").receivedExchanges().size(), 2u);
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[1]->message().body(), Value("plum"));
}

TEST_P(SqlBehaviour, AConsumerWhoseQueryFailsReportsItsHealthAndKeepsPolling) {
  exec("DROP TABLE IF EXISTS " + table + "_later");  // left by an earlier run on this server
  h.start([&](RouteBuilder& b) {
    b.from(q("select * from " + table + "_later", "initialDelay=0&delay=20"))
        .routeId("poller")
        .to("mock:rows");
  });
  auto until = std::chrono::steady_clock::now() + 5s;
  while (h.context.routeConsumerProblem("poller").empty()) {
    ASSERT_LT(std::chrono::steady_clock::now(), until) << "no problem reported";
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_THAT(h.context.routeConsumerProblem("poller"), HasSubstr(table + "_later"));
  exec("CREATE TABLE " + table + "_later (id INTEGER)");
  exec("INSERT INTO " + table + "_later VALUES (1)");
  h.mock("mock:rows").expectedMinimumMessageCount(1);
  ASSERT_TRUE(h.mock("mock:rows").assertIsSatisfied(5s));  // the next polls work
  EXPECT_EQ(h.context.routeConsumerProblem("poller"), "");
}

}  // namespace dromedary::testing
