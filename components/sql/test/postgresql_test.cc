// SPDX-License-Identifier: Apache-2.0
// The sql component on a real PostgreSQL server on loopback (scripts/postgresql.sh, started by
// CTest's postgresql fixture): the shared behaviour (sql_behaviour.h), then what only a server
// shows: statements that do not hold the caller's thread (and run on it when it waits
// anyway), connections dropped mid-stream or while idle, data sources configured by
// properties.
#include <libpq-fe.h>

#include <barrier>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>

#include <dromedary/engine/exception_types.h>

#include "pg_server.h"
#include "aggregation_repository_behaviour.h"
#include "sql_behaviour.h"
#include "stream_list_behaviour.h"

namespace dromedary::testing {

std::string SqlBehaviour::url() { return serverUrl(); }

INSTANTIATE_TEST_SUITE_P(PostgreSQL, SqlBehaviour, ::testing::Values("postgresql"));

namespace {

// Starts `count` exchanges on `uri` from this thread without waiting for them (as a consumer
// with many in flight does); returns once all completed, with the number that failed.
int sendWithoutWaiting(RouteHarness& h, std::string_view uri, int count) {
  auto producer = h.context.producer(uri);
  EXPECT_TRUE(producer);
  struct Done {
    std::mutex mutex;
    std::condition_variable cv;
    int completed = 0;
    int failed = 0;
  } done;
  std::vector<ExchangePtr> exchanges;
  for (int i = 0; i < count; ++i) {
    exchanges.push_back(acquireExchange(&h.context));
    processAsync(*exchanges.back(), **producer,
                 [](Exchange& ex, void* arg) {
                   auto* d = static_cast<Done*>(arg);
                   std::lock_guard lock(d->mutex);
                   ++d->completed;
                   if (ex.failed()) ++d->failed;
                   d->cv.notify_all();
                 },
                 &done, false);
  }
  std::unique_lock lock(done.mutex);
  done.cv.wait(lock, [&] { return done.completed == count; });
  return done.failed;
}

TEST(PostgreSQLTest, AnExchangeNobodyWaitsForIsParkedAndResumedByTheDataSourcesThread) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl()));
  std::mutex mutex;
  std::set<std::thread::id> resumed_on;
  h.start([&](RouteBuilder& b) {
    b.from("direct:slow").to("sql:select pg_sleep(0.05), 1 as one").process([&](Exchange&) {
      std::lock_guard lock(mutex);
      resumed_on.insert(std::this_thread::get_id());
    });
  });
  EXPECT_FALSE(h.context.endpoint("sql:select pg_sleep(0.05), 1 as one").value()
                   ->createProducer().value()->mayBlock());
  // Eight statements started from this one thread: each start returns once the statement is
  // handed over, and the rest of the route runs where its result came back.
  EXPECT_EQ(sendWithoutWaiting(h, "direct:slow", 8), 0);
  EXPECT_FALSE(resumed_on.empty());
  EXPECT_FALSE(resumed_on.contains(std::this_thread::get_id()));
}

// A route resumed on the data source's thread that runs a second statement starts it there:
// the request is reused and the thread, which takes it in before it polls again, is not woken.
TEST(PostgreSQLTest, AStatementStartedOnTheDataSourcesThreadRunsWithoutWakingIt) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl(), "", "", 2));
  h.start([&](RouteBuilder& b) {
    b.from("direct:two")
        .to("sql:select 1 as one")
        .to("sql:select pg_sleep(0.001), 2 as two")
        .to("sql:select 3 as three")
        .to("mock:out");
  });
  EXPECT_EQ(sendWithoutWaiting(h, "direct:two", 40), 0);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 40u);
}

TEST(PostgreSQLTest, ACallerThatWaitsRunsTheStatementOnItsOwnThreadWhenAConnectionIsIdle) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl(), "", "", 1));
  std::atomic<std::thread::id> ran_on;
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to("sql:select 1 as one").process([&](Exchange&) {
      ran_on = std::this_thread::get_id();
    });
  });
  // The first statement opens the pool's connection (on the data source's thread).
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
    EXPECT_EQ(ran_on.load(), std::this_thread::get_id());
  }
  // Eight waiting callers on one connection: those that find it busy are queued to the
  // data source's thread, and every one gets its result.
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    callers.emplace_back([&] {
      for (int k = 0; k < 20; ++k) ok += h.producer.sendBody("direct:q", Value("x")) ? 1 : 0;
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(ok.load(), 160);
}

// Each waiting caller takes the connection it drove last when that one is idle: a connection's
// buffers and socket stay on one thread (the first idle one for every caller moved them all
// between threads and vCPUs: session 43 measured 0.6x a bare client's insert rate, 0.9x now).
TEST(PostgreSQLTest, AWaitingCallerTakesTheConnectionItDroveLastWhenItIsIdle) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl(), "", "", 2));
  h.start([&](RouteBuilder& b) {
    b.from("direct:pid").to(
        "sql:select pg_backend_pid() as pid from pg_sleep(:#s)?outputType=SelectOne");
  });
  auto pid = [&](double sleep) {
    auto reply = h.producer.requestBodyAndHeader("direct:pid", Value(), "s", Value(sleep));
    return reply ? reply->toString() : "failed: " + reply.error().message;
  };
  // The second caller is one thread throughout (a new thread may get another's token).
  std::barrier step(2);
  std::string first_pid, second_pid;
  std::vector<std::string> second_alone;
  std::thread second([&] {
    for (int round = 0; round < 2; ++round) {
      step.arrive_and_wait();
      second_pid = pid(0.3);
      step.arrive_and_wait();
    }
    for (int i = 0; i < 3; ++i) {
      step.arrive_and_wait();  // the first caller's statement is done
      second_alone.push_back(pid(0));
      step.arrive_and_wait();
    }
  });
  // Twice both at once: the first opens the two connections, the second has each caller
  // drive one of them itself.
  for (int round = 0; round < 2; ++round) {
    step.arrive_and_wait();
    first_pid = pid(0.3);
    step.arrive_and_wait();
  }
  // Then one after the other, each alone: both connections idle, each caller gets its own.
  std::vector<std::string> first_alone;
  for (int i = 0; i < 3; ++i) {
    first_alone.push_back(pid(0));
    step.arrive_and_wait();
    step.arrive_and_wait();
  }
  second.join();
  ASSERT_NE(first_pid, second_pid);
  EXPECT_THAT(first_alone, ::testing::Each(first_pid));
  EXPECT_THAT(second_alone, ::testing::Each(second_pid));
}

// A waiting caller sends a statement its connection has prepared outside libpq's pipeline
// mode (a bare client's PQsendQueryPrepared), then puts the connection back in it: a failure
// there fails only its exchange, and the connection serves both paths after it.
TEST(PostgreSQLTest, AStatementThatFailsOutsideThePipelineLeavesItsConnectionReady) {
  adminExec("DROP TABLE IF EXISTS waiting_caller_rows");
  adminExec("CREATE TABLE waiting_caller_rows (id INTEGER PRIMARY KEY)");
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl(), "", "", 1));
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").to("sql:insert into waiting_caller_rows (id) values (:#id)");
    b.from("direct:four").setHeader("id", constant(4)).to("direct:in");
    b.from("direct:count")
        .to("sql:select count(*) as n from waiting_caller_rows?outputType=SelectOne");
  });
  auto insert = [&](int64_t id) {
    return h.producer.sendBodyAndHeader("direct:in", Value(), "id", Value(id)).has_value();
  };
  ASSERT_TRUE(insert(1));   // prepares the statement on the one connection
  ASSERT_TRUE(insert(2));   // a prepared statement, outside the pipeline
  EXPECT_FALSE(insert(1));  // a duplicate key there: the exchange fails
  EXPECT_TRUE(insert(3));   // the same connection goes on, on either path
  EXPECT_EQ(sendWithoutWaiting(h, "direct:four", 1), 0);  // parked: the pipeline's path
  auto count = h.producer.requestBody("direct:count", Value());
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_EQ(count->toString(), "4");
  adminExec("DROP TABLE waiting_caller_rows");
}

TEST(PostgreSQLTest, AnIdleConnectionTheServerClosedIsReplacedNotUsed) {
  RouteHarness h;
  ASSERT_TRUE(
      bindDataSource(h.context, "db", serverUrl() + "?application_name=idle_drop", "", "", 1));
  h.start([&](RouteBuilder& b) { b.from("direct:q").to("sql:select 1 as one").to("mock:out"); });
  auto closeIdle = [] {
    adminExec("select pg_terminate_backend(pid) from pg_stat_activity where application_name = "
              "'idle_drop'");
    std::this_thread::sleep_for(100ms);  // the server's goodbye reaches the socket
  };
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
  closeIdle();
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));  // a waiting caller's
  closeIdle();
  EXPECT_EQ(sendWithoutWaiting(h, "direct:q", 1), 0);  // the data source thread's
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 3u);
}

TEST(PostgreSQLTest, AStreamListThatFailsPartWayGivesTheRowsBeforeThenFailsTheSplit) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl()));
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to("sql:select 10 / (i - 3) as n from generate_series(1, 2000) i?outputType=StreamList")
        .split(body())
        .streaming()
        .stopOnException()
        .to("mock:rows");
  });
  auto sent = h.producer.sendBody("direct:q", Value("x"));
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().message, HasSubstr("division by zero"));
  // The server sends rows as they are made: the two before the failing one arrive first.
  EXPECT_EQ(h.mock("mock:rows").receivedCount(), 2u);
}

TEST(PostgreSQLTest, ADroppedConnectionFailsItsExchangeToTheErrorHandlerAndIsReopened) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl() + "?application_name=drop_me", "", "", 1));
  std::atomic<int> failed{0};
  h.start([&](RouteBuilder& b) {
    b.onException({"org.springframework.dao.DataAccessResourceFailureException"})
        .handled(true)
        .process([&](Exchange&) { ++failed; });
    b.from("direct:q").to("sql:select pg_sleep(:#s)").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:q", Value("x"), "s", Value(int64_t{0})));
  std::thread killer([] {
    std::this_thread::sleep_for(300ms);
    adminExec("select pg_terminate_backend(pid) from pg_stat_activity where application_name = "
              "'drop_me'");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:q", Value("x"), "s", Value(int64_t{3})));
  killer.join();
  EXPECT_EQ(failed.load(), 1);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:q", Value("x"), "s", Value(int64_t{0})));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 2u);  // before and after the drop
}

TEST(PostgreSQLTest, ADataSourceFromPropertiesTakesAJdbcUrlAndItsCredentials) {
  RouteHarness h;
  const char* port = std::getenv("DROMEDARY_PG_PORT");
  h.context.properties().set("camel.datasource.orders.url",
                             fmt::format("jdbc:postgresql://127.0.0.1:{}/postgres?ApplicationName=x",
                                         port ? port : "25432"));
  h.context.properties().set("camel.datasource.orders.username", "postgres");
  h.context.properties().set("camel.datasource.orders.poolSize", "2");
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to("sql:select current_user?outputType=SelectOne&dataSource=#orders");
  });
  auto reply = h.producer.requestBody("direct:q", Value("x"));
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("postgres"));
}

TEST(PostgreSQLTest, ATableNamePostgreSQLWouldCutIsRefusedNamingTheOptionAndTheLimit) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", serverUrl()));
  // 53 bytes: NAME_completed is 63, PostgreSQL's limit.
  const std::string fits(53, 'a');
  auto ok = jdbcAggregationRepository(h.context, "db", "long_names." + fits);
  EXPECT_FALSE(ok) << "the schema long_names does not exist: creating must fail, not the name";
  EXPECT_THAT(ok.error().message, ::testing::Not(HasSubstr("too long")));
  auto repo = jdbcAggregationRepository(h.context, "db", fits + "b");
  ASSERT_FALSE(repo);
  EXPECT_THAT(repo.error().message,
              HasSubstr("repositoryName '" + fits + "b' is too long for PostgreSQL: '" + fits +
                        "b_completed' is 64 bytes, and PostgreSQL keeps 63 of a name"));
  auto seen = jdbcIdempotentRepository(h.context, "db", "p", std::string(64, 't'));
  ASSERT_FALSE(seen);
  EXPECT_THAT(seen.error().message, HasSubstr("tableName '" + std::string(64, 't') +
                                              "' is too long for PostgreSQL"));
  EXPECT_TRUE(jdbcIdempotentRepository(h.context, "db", "p", std::string(63, 't')));
  adminExec("DROP TABLE IF EXISTS " + std::string(63, 't'));
}

TEST(PostgreSQLTest, AnUnreachableServerFailsTheExchangeNotTheProcess) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "db", "postgresql://postgres@127.0.0.1:1/postgres"));
  h.start([&](RouteBuilder& b) { b.from("direct:q").to("sql:select 1"); });
  auto reply = h.producer.requestBody("direct:q", Value("x"));
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().message, HasSubstr("cannot connect to postgresql://postgres@127.0.0.1:1"));
}

TEST(PostgreSQLTest, AnUnknownDataSourceFailsTheRouteSayingWhatThereIs) {
  RouteHarness h;
  ASSERT_TRUE(bindDataSource(h.context, "main", serverUrl()));
  auto added = h.context.addRoutes([&](RouteBuilder& b) {
    b.from("direct:q").to("sql:select 1?dataSource=#other");
  });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, HasSubstr("no data source named 'other'"));
  EXPECT_THAT(started.error().message, HasSubstr("there are: main"));
}

TEST(PostgreSQLTest, ThePostgreSQLKameletsMoveRowsAsJsonThroughTheirOwnBeans) {
  adminExec("DROP TABLE IF EXISTS kamelet_accounts");
  adminExec("CREATE TABLE kamelet_accounts (id SERIAL PRIMARY KEY, username TEXT, city TEXT, "
            "done BOOLEAN DEFAULT false)");
  RouteHarness h;
  const char* port = std::getenv("DROMEDARY_PG_PORT");
  std::string yaml = fmt::format(R"yaml(
- route:
    from:
      uri: direct:accounts
      steps:
        - to: "kamelet:postgresql-sink?serverName=127.0.0.1&serverPort={port}&username=postgres&password=x&databaseName=postgres&query=insert into kamelet_accounts (username, city) values (:#username, :#city)"
- route:
    from:
      uri: "kamelet:postgresql-source?serverName=127.0.0.1&serverPort={port}&username=postgres&password=x&databaseName=postgres&delay=50&query=select username, city from kamelet_accounts where done = false order by id&consumedQuery=update kamelet_accounts set done = true where username = :#username"
      steps:
        - to: mock:rows
)yaml",
                                 fmt::arg("port", port ? port : "25432"));
  auto loaded = loadYamlRoutes(h.context, yaml, "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  auto started = h.context.start();
  ASSERT_TRUE(started) << started.error().toString();
  auto& rows = h.mock("mock:rows");
  rows.expectedMessageCount(2);
  ASSERT_TRUE(h.producer.sendBody("direct:accounts", R"({"username": "ada", "city": "London"})"));
  ASSERT_TRUE(h.producer.sendBody("direct:accounts", R"({"username": "bob", "city": "Paris"})"));
  ASSERT_TRUE(rows.assertIsSatisfied(10s));
  EXPECT_EQ(rows.receivedExchanges()[0]->message().body().toString(),
            R"({"username":"ada","city":"London"})");
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(rows.receivedExchanges().size(), 2u);  // each row once: consumedQuery marked it
}

}  // namespace
}  // namespace dromedary::testing
