// SPDX-License-Identifier: Apache-2.0
// sql_insert, sql_select_one, sql_batch_insert and sql_idempotent: statements through routes
// beside a bare libpq client doing the same work, in the same run, on the same PostgreSQL
// server (scripts/postgresql.sh's, on loopback). The ratio route / bare is the figure.
//
//   sql_insert        `direct:in -> sql:insert into bench_rows (id, name) values (:#id, :#name)`
//                     from 4 threads; bare: 4 threads, a connection each, PQexecPrepared.
//   sql_select_one    `sql:select name from bench_rows where id = :#id?outputType=SelectOne`,
//                     by primary key, the same way; and its async row: the route driven by
//                     processAsync, 4 in flight (as a consumer drives it: the data source's one
//                     thread drives the connections), beside a bare client that drives 4
//                     connections from one thread with libpq's asynchronous calls.
//   sql_batch_insert  `sql:insert ...?batch=true` with bodies of 1,000 rows (one pipeline, one
//                     transaction each), from 4 threads: rows/s beside pgbench's insert rate
//                     (4 clients, one INSERT per transaction, prepared) on the same server.
//   sql_idempotent    `idempotentConsumer(header id)` on the PostgreSQL repository (one INSERT
//                     ... ON CONFLICT per exchange) against the same route on the memory
//                     repository: the repository's cost per exchange.
// Reports statements/s and this process's CPU per statement (user + system), the better of two
// interleaved rounds of each. `--arm route|bare|async|bare-async` (the last two select only)
// runs only that arm of sql_insert or sql_select_one, once, in a process of its own (for
// `perf stat` of one arm: on a shared VM the interleaved rounds disturb each other).
//
//   dromedary_sql_bench [--url postgresql://postgres@127.0.0.1:25432/postgres]
//                       [--statements 20000] [--only insert|select|batch|idempotent]
//                       [--arm route|bare|async|bare-async]
#include <libpq-fe.h>
#include <poll.h>
#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <dromedary/dromedary.h>
#include <dromedary/sql/sql.h>
#include <fmt/format.h>

namespace {

using Clock = std::chrono::steady_clock;
using namespace dromedary;

constexpr int kThreads = 4;

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "sql_bench: %s\n", why.c_str());
  std::exit(1);
}

struct Figure {
  double perSecond = 0;
  double cpuMicros = 0;  // per statement (or row)
};

// Runs `work(thread, count)` on kThreads threads, `total` in all; the rate and CPU per unit.
template <class Work>
Figure measure(int64_t total, Work work) {
  double cpu0 = cpuSeconds();
  auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { work(t, total / kThreads); });
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  double cpu = cpuSeconds() - cpu0;
  return {static_cast<double>(total) / seconds, cpu * 1e6 / static_cast<double>(total)};
}

Figure better(Figure a, Figure b) { return a.perSecond >= b.perSecond ? a : b; }

class Bare {
 public:
  explicit Bare(const std::string& url) : c_(PQconnectdb(url.c_str())) {
    if (PQstatus(c_) != CONNECTION_OK) die(PQerrorMessage(c_));
  }
  ~Bare() { PQfinish(c_); }
  PGconn* pg() const noexcept { return c_; }
  void exec(const std::string& sql) {
    PGresult* r = PQexec(c_, sql.c_str());
    ExecStatusType s = PQresultStatus(r);
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) die(sql + ": " + PQresultErrorMessage(r));
    PQclear(r);
  }
  void prepare(const char* name, const char* sql) {
    PGresult* r = PQprepare(c_, name, sql, 0, nullptr);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) die(PQresultErrorMessage(r));
    PQclear(r);
  }
  // Runs a prepared statement with text parameters; keeps the value of a one-row result.
  std::string run(const char* name, std::initializer_list<const char*> params) {
    std::vector<const char*> values(params);
    PGresult* r = PQexecPrepared(c_, name, static_cast<int>(values.size()), values.data(),
                                 nullptr, nullptr, 0);
    ExecStatusType s = PQresultStatus(r);
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) die(PQresultErrorMessage(r));
    std::string out = PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    PQclear(r);
    return out;
  }

 private:
  PGconn* c_;
};

void reset(const std::string& url) {
  Bare admin(url);
  admin.exec("DROP TABLE IF EXISTS bench_rows");
  admin.exec("CREATE TABLE bench_rows (id BIGINT PRIMARY KEY, name TEXT)");
  admin.exec("DROP TABLE IF EXISTS bench_seen");
}

Figure bareInsert(const std::string& url, int64_t n, int64_t base) {
  return measure(n, [&](int t, int64_t count) {
    Bare c(url);
    c.prepare("ins", "insert into bench_rows (id, name) values ($1, $2)");
    for (int64_t i = 0; i < count; ++i) {
      std::string id = std::to_string(base + t * count + i);
      c.run("ins", {id.c_str(), "name"});
    }
  });
}

Figure bareSelect(const std::string& url, int64_t n, int64_t rows) {
  return measure(n, [&](int t, int64_t count) {
    Bare c(url);
    c.prepare("sel", "select name from bench_rows where id = $1");
    for (int64_t i = 0; i < count; ++i) {
      std::string id = std::to_string((t * count + i) % rows);
      if (c.run("sel", {id.c_str()}).empty()) die("a row is missing");
    }
  });
}

// The bare client of the async arm: one thread drives kThreads connections with libpq's
// asynchronous calls (PQsendQueryPrepared, poll on every socket, PQconsumeInput), as the
// data source's thread does for exchanges nobody waits for.
Figure bareAsyncSelect(const std::string& url, int64_t n, int64_t rows) {
  std::vector<std::unique_ptr<Bare>> connections;
  for (int t = 0; t < kThreads; ++t) {
    connections.push_back(std::make_unique<Bare>(url));
    connections.back()->prepare("sel", "select name from bench_rows where id = $1");
  }
  double cpu0 = cpuSeconds();
  auto t0 = Clock::now();
  int64_t started = 0, finished = 0;
  std::vector<std::string> ids(kThreads);
  auto start = [&](int t) {
    ids[t] = std::to_string(started++ % rows);
    const char* values[] = {ids[t].c_str()};
    if (PQsendQueryPrepared(connections[t]->pg(), "sel", 1, values, nullptr, nullptr, 0) != 1) {
      die(PQerrorMessage(connections[t]->pg()));
    }
  };
  for (int t = 0; t < kThreads; ++t) start(t);
  std::vector<pollfd> fds(kThreads);
  while (finished < n) {
    for (int t = 0; t < kThreads; ++t) fds[t] = {PQsocket(connections[t]->pg()), POLLIN, 0};
    if (::poll(fds.data(), fds.size(), -1) < 0) die("poll failed");
    for (int t = 0; t < kThreads; ++t) {
      if (!fds[t].revents) continue;
      PGconn* pg = connections[t]->pg();
      if (PQconsumeInput(pg) != 1) die(PQerrorMessage(pg));
      bool done = false;
      while (!PQisBusy(pg)) {
        PGresult* r = PQgetResult(pg);
        if (!r) {
          done = true;
          break;
        }
        if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) die("a select failed");
        PQclear(r);
      }
      if (!done) continue;
      ++finished;
      if (started < n) start(t);
    }
  }
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return {static_cast<double>(n) / seconds, (cpuSeconds() - cpu0) * 1e6 / static_cast<double>(n)};
}

// The route driven as a consumer drives it: exchanges started with processAsync, kInFlight at a
// time (the bare client's concurrency), each completion starting the next on whichever thread
// completed it (the pool's, without a hop back to a waiting caller).
struct AsyncDriver {
  static constexpr int kInFlight = kThreads;
  AsyncDriver(Context* c, Processor* e) : context(c), entry(e) {}
  Context* context;
  Processor* entry;
  std::function<void(Exchange&, int64_t)> fill;
  int64_t total = 0;
  std::atomic<int64_t> started{0}, finished{0}, failed{0};
  std::mutex mutex;
  std::condition_variable all_done;

  static void done(Exchange& ex, void* self) noexcept {
    auto* d = static_cast<AsyncDriver*>(self);
    if (ex.failed()) ++d->failed;
    ExchangeRecycler{}(&ex);
    if (++d->finished == d->total) {
      std::lock_guard lock(d->mutex);
      d->all_done.notify_one();
      return;
    }
    d->startNext();
  }
  void startNext() {
    int64_t i = started++;
    if (i >= total) return;
    ExchangePtr ex = context->createExchange();
    fill(*ex, i);
    processAsync(*ex.release(), *entry, &AsyncDriver::done, this, /*done_may_block=*/false);
  }
  Figure run(int64_t n) {
    total = n;
    started = finished = failed = 0;
    double cpu0 = cpuSeconds();
    auto t0 = Clock::now();
    for (int k = 0; k < kInFlight; ++k) startNext();
    std::unique_lock lock(mutex);
    all_done.wait(lock, [&] { return finished.load() == total; });
    double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (failed) die("exchanges failed");
    return {static_cast<double>(n) / seconds, (cpuSeconds() - cpu0) * 1e6 / static_cast<double>(n)};
  }
};

Figure routeInsert(ProducerTemplate& p, int64_t n, int64_t base) {
  return measure(n, [&](int t, int64_t count) {
    // The headers made once and updated, as the routing scenarios do: what the route costs,
    // not a new header list per call.
    Headers headers{{"id", Value(int64_t{0})}, {"name", Value("name")}};
    const Value body("x");
    for (int64_t i = 0; i < count; ++i) {
      headers.slot("id").setInt(base + t * count + i);
      if (!p.sendBodyAndHeaders("direct:insert", body, headers)) die("an insert failed");
    }
  });
}

Figure routeSelect(ProducerTemplate& p, int64_t n, int64_t rows) {
  return measure(n, [&](int t, int64_t count) {
    // A pooled exchange, as a ProducerTemplate's request does (not one made per call).
    for (int64_t i = 0; i < count; ++i) {
      auto name = p.requestBodyAndHeader("direct:select", Value(), "id",
                                         Value((t * count + i) % rows));
      if (!name || name->isNull()) die("a select failed");
    }
  });
}

Figure routeBatch(ProducerTemplate& p, int64_t n, int64_t base) {
  constexpr int64_t kBatch = 1000;
  return measure(n, [&](int t, int64_t count) {
    for (int64_t done = 0; done < count; done += kBatch) {
      ValueList rows;
      rows.reserve(kBatch);
      for (int64_t i = 0; i < kBatch; ++i) {
        rows.emplace_back(ValueList{Value(base + t * count + done + i), Value("name")});
      }
      if (!p.requestBody("direct:batch", Value(std::move(rows)))) die("a batch failed");
    }
  });
}

Figure routeIdempotent(ProducerTemplate& p, const char* uri, int64_t n, int64_t base) {
  return measure(n, [&](int t, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
      if (!p.sendBodyAndHeader(uri, Value("x"), "id", Value(base + t * count + i))) {
        die("an exchange failed");
      }
    }
  });
}

// pgbench's rate of one-row INSERT transactions, 4 clients, prepared statements, 5 s.
double pgbenchInserts(const std::string& url) {
  std::string script = "/tmp/dromedary-sql-bench.pgbench";
  FILE* f = std::fopen(script.c_str(), "w");
  std::fputs("\\set id random(1, 1000000000000)\n"
             "INSERT INTO bench_pgbench (id, name) VALUES (:id, 'name') ON CONFLICT DO NOTHING;\n",
             f);
  std::fclose(f);
  Bare admin(url);
  admin.exec("DROP TABLE IF EXISTS bench_pgbench");
  admin.exec("CREATE TABLE bench_pgbench (id BIGINT PRIMARY KEY, name TEXT)");
  std::string command = fmt::format(
      "/usr/lib/postgresql/15/bin/pgbench -n -M prepared -c 4 -j 2 -T 5 -f {} '{}' 2>/dev/null",
      script, url);
  FILE* out = popen(command.c_str(), "r");
  if (!out) return 0;
  char line[512];
  double tps = 0;
  while (std::fgets(line, sizeof line, out)) {
    if (std::sscanf(line, "tps = %lf", &tps) == 1) break;
  }
  pclose(out);
  return tps;
}

void row(const char* scenario, const char* unit, Figure route, Figure bare) {
  std::printf("| %s | %.0f | %.0f | %.2fx | %.1f | %.1f |\n", scenario, route.perSecond,
              bare.perSecond, route.perSecond / bare.perSecond, route.cpuMicros, bare.cpuMicros);
  (void)unit;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url = "postgresql://postgres@127.0.0.1:25432/postgres";
  int64_t n = 20000;
  std::string only;
  std::string arm;  // empty: both, interleaved
  const std::string usage =
      "usage: dromedary_sql_bench [--url URL] [--statements N] "
      "[--only insert|select|batch|idempotent] [--arm route|bare|async|bare-async]";
  for (int i = 1; i < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--help") {
      std::printf("%s\n", usage.c_str());
      return 0;
    }
    if (i + 1 >= argc) die(a + " needs a value; " + usage);
    if (a == "--url") {
      url = argv[i + 1];
    } else if (a == "--statements") {
      n = std::atoll(argv[i + 1]);
      if (n <= 0) die("--statements is a positive number, not '" + std::string(argv[i + 1]) + "'");
    } else if (a == "--only") {
      only = argv[i + 1];
      if (only != "insert" && only != "select" && only != "batch" && only != "idempotent") {
        die("--only is insert, select, batch or idempotent, not '" + only + "'");
      }
    } else if (a == "--arm") {
      arm = argv[i + 1];
    } else {
      die("unknown option '" + a + "'; " + usage);
    }
  }
  if (!arm.empty() && arm != "route" && arm != "bare" && arm != "async" && arm != "bare-async") {
    die("--arm is route, bare, async or bare-async");
  }
  if (!arm.empty() && only != "insert" && only != "select") {
    die("--arm needs --only insert or --only select");
  }
  setLogLevel(LoggingLevel::Warn);
  reset(url);
  Context context;
  registerBuiltinComponents(context);
  if (!bindDataSource(context, "db", url, "", "", kThreads)) die("cannot bind the data source");
  context.bindIdempotentRepository("memory", memoryIdempotentRepository(1 << 22));
  auto pg_repo = jdbcIdempotentRepository(context, "db", "bench", "bench_seen");
  if (!pg_repo) die(pg_repo.error().message);
  context.bindIdempotentRepository("pg", *pg_repo);
  auto added = context.addRoutes([](RouteBuilder& b) {
    b.from("direct:insert").to("sql:insert into bench_rows (id, name) values (:#id, :#name)");
    b.from("direct:select").to("sql:select name from bench_rows where id = :#id?outputType=SelectOne");
    b.from("direct:batch").to("sql:insert into bench_rows (id, name) values (#, #)?batch=true");
    b.from("direct:seen-pg").idempotentConsumer(header("id"), "pg").to("log:x?level=OFF").end();
    b.from("direct:seen-memory").idempotentConsumer(header("id"), "memory").to("log:x?level=OFF").end();
  });
  if (!added) die(added.error().message);
  if (auto s = context.start(); !s) die(s.error().message);
  ProducerTemplate p(context);

  std::printf("| scenario | route /s | bare /s | route / bare | route CPU µs | bare CPU µs |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: |\n");
  int64_t base = 0;
  auto next = [&] { return base += 10'000'000; };
  auto one = [&](const char* scenario, const Figure& f) {
    std::printf("| %s, %s arm alone | %.0f | | | %.1f | |\n", scenario, arm.c_str(),
                f.perSecond, f.cpuMicros);
  };
  if (only == "insert" && (arm == "async" || arm == "bare-async")) {
    die("--arm async and bare-async are for --only select");
  }
  if (only == "insert" && !arm.empty()) {
    one("sql_insert", arm == "route" ? routeInsert(p, n, next()) : bareInsert(url, n, next()));
    return 0;
  }
  if (only.empty() || only == "insert") {
    Figure r = routeInsert(p, n, next()), b = bareInsert(url, n, next());
    r = better(r, routeInsert(p, n, next()));
    b = better(b, bareInsert(url, n, next()));
    row("sql_insert", "statements", r, b);
    auto producer = context.endpoint("sql:insert into bench_rows (id, name) values (:#id, :#name)")
                        .value()->createProducer().value();
    AsyncDriver d(&context, producer.get());
    d.fill = [&](Exchange& ex, int64_t i) {
      ex.message().setHeader("id", Value(base + i));
      ex.message().setHeader("name", Value("name"));
    };
    next();
    Figure a = d.run(n);
    next();
    a = better(a, d.run(n));
    row("sql_insert (async, 4 in flight)", "statements", a, b);
  }
  if (only.empty() || only == "select") {
    int64_t rows = n;  // ids 0 .. n-1
    bareInsert(url, rows, 0);
    auto async = [&] {
      auto producer =
          context.endpoint("sql:select name from bench_rows where id = :#id?outputType=SelectOne")
              .value()->createProducer().value();
      AsyncDriver d(&context, producer.get());
      d.fill = [&](Exchange& ex, int64_t i) { ex.message().setHeader("id", Value(i % rows)); };
      return d.run(n);
    };
    if (!arm.empty()) {
      one("sql_select_one", arm == "route"        ? routeSelect(p, n, rows)
                            : arm == "async"      ? async()
                            : arm == "bare-async" ? bareAsyncSelect(url, n, rows)
                                                  : bareSelect(url, n, rows));
      return 0;
    }
    Figure r = routeSelect(p, n, rows), b = bareSelect(url, n, rows);
    r = better(r, routeSelect(p, n, rows));
    b = better(b, bareSelect(url, n, rows));
    row("sql_select_one", "statements", r, b);
    Figure a = better(async(), async());
    Figure ba = better(bareAsyncSelect(url, n, rows), bareAsyncSelect(url, n, rows));
    row("sql_select_one (async, 4 in flight, one thread)", "statements", a, ba);
  }
  if (only.empty() || only == "batch") {
    int64_t rows = std::max<int64_t>(n * 10, 40000);
    Figure r = better(routeBatch(p, rows, next()), routeBatch(p, rows, next()));
    double tps = pgbenchInserts(url);
    std::printf("| sql_batch_insert (rows) | %.0f | %.0f (pgbench) | %.2fx | %.1f | |\n",
                r.perSecond, tps, tps > 0 ? r.perSecond / tps : 0.0, r.cpuMicros);
  }
  if (only.empty() || only == "idempotent") {
    Figure pg = routeIdempotent(p, "direct:seen-pg", n, next());
    Figure mem = routeIdempotent(p, "direct:seen-memory", n, next());
    pg = better(pg, routeIdempotent(p, "direct:seen-pg", n, next()));
    mem = better(mem, routeIdempotent(p, "direct:seen-memory", n, next()));
    std::printf("| sql_idempotent (PostgreSQL vs memory repository) | %.0f | %.0f | %.3fx | %.1f | "
                "%.1f |\n",
                pg.perSecond, mem.perSecond, pg.perSecond / mem.perSecond, pg.cpuMicros,
                mem.cpuMicros);
    std::printf("\nPostgreSQL repository: %.1f µs per exchange more than memory (4 threads)\n",
                1e6 * kThreads / pg.perSecond - 1e6 * kThreads / mem.perSecond);
  }
  context.stop();
  return 0;
}
