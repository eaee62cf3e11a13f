// SPDX-License-Identifier: Apache-2.0
// kafka_produce, kafka_consume and kafka_pipeline: 1 KB records through routes beside
// librdkafka's own bare producer and consumer doing the same work, in the same run, on the
// same cluster (dromedary-kafka-cluster, librdkafka's mock cluster, in a process of its own so
// that this process's CPU is the client's only). The ratio route / bare is the figure.
//
//   kafka_produce   N keyed records sent, every one acknowledged (acks=all, idempotent, the
//                   component's defaults, set alike on the bare producer); up to --window
//                   (1,000) in flight. Route: processAsync into `direct:in -> kafka:produced`.
//                   More in flight than the exchange pool keeps (256 per thread and 1,024
//                   shared) and exchanges are allocated and freed: 8,000 costs the route
//                   1.3-2x the bare producer's CPU per record, against 1.0-1.1x at 1,000.
//   kafka_consume   N records read by a group member, each one's offset stored once it is
//                   done (at-least-once, the bare consumer stores them the same way), from the
//                   first record to the last (the group join is not timed).
//   kafka_pipeline  `kafka:in -> setBody(${body}) -> kafka:out`: records/s through it, and the
//                   latency from send to arrival at a reader of `out` at a paced 1,000/s (p50,
//                   p99); both consumers with fetch.wait.max.ms=10 (see pipeline()).
// The test cluster keeps 5 MB per partition (older records are dropped), so the topics read
// back have 32 partitions: room for 150,000 records of 1 KB.
// Reports records/s and CPU per record (user + system of this process), the better of two
// interleaved rounds of each.
//
//   dromedary_kafka_bench [--records 100000] [--size 1024] [--only produce|consume|pipeline]
//                         [--window 1000]
//                         [--cluster build/bin/dromedary-kafka-cluster]
#include <librdkafka/rdkafka.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <dromedary/dromedary.h>
#include <fmt/format.h>

#include "latency_histogram.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

// This process's CPU time, user and system, and its context switches (voluntary or not): a
// thread handing work to another pays in switches and system time what its instruction
// count does not show.
struct Usage {
  double user = 0, sys = 0;
  long switches = 0;
  static Usage now() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto seconds = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return {seconds(u.ru_utime), seconds(u.ru_stime), u.ru_nvcsw + u.ru_nivcsw};
  }
  Usage operator-(const Usage& before) const {
    return {user - before.user, sys - before.sys, switches - before.switches};
  }
  double cpu() const { return user + sys; }
};

double secondsSince(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

pid_t cluster_pid = -1;  // stopped on the way out, also by die()
size_t seenHeaders = 0;  // headers the bare consumer read

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "kafka_bench: %s\n", what.c_str());
  if (cluster_pid > 0) ::kill(cluster_pid, SIGTERM);
  std::_Exit(1);
}

// The test cluster in a child process; its bootstrap address from its first line.
class Cluster {
 public:
  explicit Cluster(const std::string& program) {
    int out[2];
    if (::pipe(out) != 0) die("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<std::string> args = {program, "--brokers", "1"};
    for (const char* t : {"produced:6", "bare_produced:6", "consumed:32", "in:32", "out:32"}) {
      args.emplace_back("--topic");
      args.emplace_back(t);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      die("cannot start " + program);
    }
    posix_spawn_file_actions_destroy(&actions);
    cluster_pid = pid_;
    ::close(out[1]);
    char line[512];
    ssize_t n = ::read(out[0], line, sizeof line - 1);
    if (n <= 0) die("the cluster printed no address");
    line[n] = 0;
    bootstrap_ = std::string(line, strcspn(line, "\n"));
    ::close(out[0]);
  }
  ~Cluster() {
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  const std::string& bootstrap() const { return bootstrap_; }

 private:
  pid_t pid_ = -1;
  std::string bootstrap_;
};

struct Row {
  std::string name;
  double seconds = 1e9;
  Usage used{};
  void keepBest(double s, const Usage& u) {
    if (s < seconds) {
      seconds = s;
      used = u;
    }
  }
};

void set(rd_kafka_conf_t* conf, const char* name, const std::string& value) {
  char error[512];
  if (rd_kafka_conf_set(conf, name, value.c_str(), error, sizeof error) != RD_KAFKA_CONF_OK) {
    die(fmt::format("{}={}: {}", name, value, error));
  }
}

// The producer settings the kafka component uses by default (kafka_settings.cc), alike here.
rd_kafka_t* bareProducer(const std::string& bootstrap) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", bootstrap);
  set(conf, "acks", "all");
  set(conf, "enable.idempotence", "true");
  set(conf, "linger.ms", "0");
  set(conf, "batch.size", "16384");
  set(conf, "partitioner", "murmur2_random");
  set(conf, "queue.buffering.max.messages", "10000");
  set(conf, "log_level", "3");
  rd_kafka_conf_set_dr_msg_cb(conf, [](rd_kafka_t*, const rd_kafka_message_t* m, void*) {
    if (m->err) die(rd_kafka_err2str(m->err));
  });
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!rk) die(error);
  return rk;
}

// At most `window` records in flight, as the route's pusher keeps (and refilled the same way,
// 256 at a time): without one librdkafka takes up to 100,000, and the bare producer's CPU per
// record varied with how many it held.
void produceBare(const std::string& bootstrap, const std::string& topic, int records,
                 int window, const std::string& payload, Row& row) {
  rd_kafka_t* rk = bareProducer(bootstrap);
  auto begin = Clock::now();
  Usage used = Usage::now();
  for (int i = 0; i < records; ++i) {
    if (rd_kafka_outq_len(rk) >= window) {
      while (rd_kafka_outq_len(rk) > window - 256) rd_kafka_poll(rk, 1);
    }
    std::string key = std::to_string(i);
    for (;;) {
      rd_kafka_resp_err_t err = rd_kafka_producev(
          rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
          RD_KAFKA_V_VALUE(const_cast<char*>(payload.data()), payload.size()),
          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) die(rd_kafka_err2str(err));
      rd_kafka_poll(rk, 1);
    }
    rd_kafka_poll(rk, 0);
  }
  rd_kafka_flush(rk, 60000);
  row.keepBest(secondsSince(begin), Usage::now() - used);
  rd_kafka_destroy(rk);
}

// Exchanges pushed into a route with processAsync, at most `window` in flight. The count in
// flight is an atomic: the pusher and the completions (on the producer's thread) take the
// lock only to wait and to wake, as a caller that cares about its cost would write it (a lock
// on both sides for every record made the threads contend, and that is not the component's).
class Pusher {
 public:
  Pusher(dromedary::Context& context, dromedary::Producer& entry, int window)
      : context_(context), entry_(entry), window_(window) {}

  void push(int records, const std::string& payload) {
    for (int i = 0; i < records; ++i) {
      if (inflight_.load() >= window_) {
        std::unique_lock lock(mutex_);
        waiting_.store(true);
        cv_.wait(lock, [&] { return inflight_.load() <= window_ - kRefill; });
        waiting_.store(false);
      }
      inflight_.fetch_add(1);
      dromedary::Exchange* ex = dromedary::acquireExchange(&context_).release();
      ex->message().setBody(payload);
      ex->message().setHeader("kafka.KEY", dromedary::Value(std::to_string(i)));
      dromedary::processAsync(*ex, entry_, &Pusher::done, this, false);
    }
    std::unique_lock lock(mutex_);
    draining_.store(true);
    cv_.wait(lock, [&] { return inflight_.load() == 0; });
    draining_.store(false);
    if (failed_.load()) die("a send failed");
  }

 private:
  static void done(dromedary::Exchange& ex, void* arg) noexcept {
    auto* self = static_cast<Pusher*>(arg);
    if (ex.failed()) self->failed_.store(true);
    dromedary::ExchangeRecycler{}(&ex);
    int left = self->inflight_.fetch_sub(1) - 1;
    // Woken only when waiting for room (kRefill free) or for the last: the harness's
    // own wake-ups are not the component's cost.
    if ((self->waiting_.load() && left <= self->window_ - kRefill) ||
        (self->draining_.load() && left == 0)) {
      std::lock_guard lock(self->mutex_);
      self->cv_.notify_one();
    }
  }

  // The pusher goes on once this many have completed. Not half the window: a burst of 4,000
  // exchanges completing on the producer's thread overflowed the exchange pool (256 per
  // thread, 1,024 shared), and 78% of the exchanges were allocated and freed (callgrind).
  static constexpr int kRefill = 256;

  dromedary::Context& context_;
  dromedary::Producer& entry_;
  int window_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<int> inflight_{0};
  std::atomic<bool> waiting_{false};
  std::atomic<bool> draining_{false};
  std::atomic<bool> failed_{false};
};

void produceRoute(const std::string& bootstrap, int records, int window,
                  const std::string& payload, Row& row) {
  dromedary::Context context;
  dromedary::registerBuiltinComponents(context);
  auto added = context.addRoutes([&](dromedary::RouteBuilder& b) {
    b.from("direct:in").to("kafka:produced?brokers=" + bootstrap);
  });
  if (!added || !context.start()) die("route start");
  auto entry = context.producer("direct:in");
  if (!entry) die("direct:in");
  Pusher pusher(context, **entry, window);
  pusher.push(200, payload);  // connections and producer ids before the clock starts
  auto begin = Clock::now();
  Usage used = Usage::now();
  pusher.push(records, payload);
  row.keepBest(secondsSince(begin), Usage::now() - used);
  context.stop();
}

// A bare group member subscribed to `topic` from its start, with `extra` properties.
rd_kafka_t* bareConsumer(const std::string& bootstrap, const std::string& group,
                         const char* topic,
                         std::initializer_list<std::pair<const char*, const char*>> extra) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", bootstrap);
  set(conf, "group.id", group);
  set(conf, "auto.offset.reset", "earliest");
  set(conf, "log_level", "3");
  for (const auto& [name, value] : extra) set(conf, name, value);
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
  if (!rk) die(error);
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, topic, RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(rk, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  return rk;
}

// `read_headers`: also asks librdkafka for each record's headers, as a consumer that maps
// them (the route's does: Camel's consumer copies them into the message) must. librdkafka
// parses them on that call, allocating, even for a record with none: ~1,100 instructions.
void consumeBare(const std::string& bootstrap, const std::string& group, int records, Row& row,
                 bool read_headers) {
  rd_kafka_t* rk = bareConsumer(bootstrap, group, "consumed", {{"enable.auto.offset.store", "false"}});
  int seen = 0;
  Clock::time_point begin;
  Usage used{};
  auto deadline = Clock::now() + std::chrono::seconds(120);
  while (seen < records && Clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (!m) continue;
    if (!m->err) {
      if (seen++ == 0) {
        begin = Clock::now();
        used = Usage::now();
      }
      rd_kafka_headers_t* headers = nullptr;
      if (read_headers && rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        seenHeaders += rd_kafka_header_cnt(headers);
      }
      rd_kafka_offset_store(m->rkt, m->partition, m->offset);  // done: at-least-once
    }
    rd_kafka_message_destroy(m);
  }
  if (seen < records) die(fmt::format("the bare consumer got {} of {} records", seen, records));
  row.keepBest(secondsSince(begin), Usage::now() - used);
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
}

void consumeRoute(const std::string& bootstrap, const std::string& group, int records,
                  Row& row) {
  dromedary::Context context;
  dromedary::registerBuiltinComponents(context);
  std::atomic<int> seen{0};
  Clock::time_point begin;
  Usage used{};
  std::mutex mutex;
  std::condition_variable cv;
  auto added = context.addRoutes([&](dromedary::RouteBuilder& b) {
    b.from(fmt::format("kafka:consumed?brokers={}&groupId={}&autoOffsetReset=earliest",
                       bootstrap, group))
        .process([&](dromedary::Exchange&) {
          int n = ++seen;
          if (n == 1) {
            begin = Clock::now();
            used = Usage::now();
          }
          if (n == records) {
            std::lock_guard lock(mutex);
            cv.notify_one();
          }
        });
  });
  if (!added || !context.start()) die("route start");
  std::unique_lock lock(mutex);
  if (!cv.wait_for(lock, std::chrono::seconds(120), [&] { return seen.load() >= records; })) {
    die("the route did not get every record");
  }
  row.keepBest(secondsSince(begin), Usage::now() - used);
  lock.unlock();
  context.stop();
}

// The pipeline route `in -> transform -> out`, and a reader of `out` timing each arrival
// against the send time the record carries (header `sent`, steady-clock ns).
void pipeline(const std::string& bootstrap, int records, const std::string& payload, Row& row,
              dromedary::bench::LatencyHistogram& latency, int paced_records) {
  dromedary::Context context;
  dromedary::registerBuiltinComponents(context);
  auto added = context.addRoutes([&](dromedary::RouteBuilder& b) {
    // fetchWaitMaxMs=10: the test cluster answers a fetch that found nothing only when its
    // wait is over, where a broker answers as soon as a record comes (docs/kafka.md); with
    // Camel's 500 ms every hop would wait up to half a second.
    b.from(fmt::format("kafka:in?brokers={}&groupId=pipeline&autoOffsetReset=earliest"
                       "&fetchWaitMaxMs=10",
                       bootstrap))
        .setBody(dromedary::simple("${body}"))
        .to("kafka:out?brokers=" + bootstrap);
  });
  if (!added || !context.start()) die("route start");

  rd_kafka_t* reader = bareConsumer(bootstrap, "pipeline-reader", "out",
                                    {{"fetch.wait.max.ms", "10"}});

  rd_kafka_t* sender = bareProducer(bootstrap);
  auto send = [&](int i) {
    std::string key = std::to_string(i);
    int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      Clock::now().time_since_epoch()).count();
    rd_kafka_headers_t* headers = rd_kafka_headers_new(1);
    rd_kafka_header_add(headers, "sent", -1, &now, sizeof now);
    while (rd_kafka_producev(sender, RD_KAFKA_V_TOPIC("in"), RD_KAFKA_V_KEY(key.data(), key.size()),
                             RD_KAFKA_V_VALUE(const_cast<char*>(payload.data()), payload.size()),
                             RD_KAFKA_V_HEADERS(rd_kafka_headers_copy(headers)),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END) ==
           RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(sender, 1);
    }
    rd_kafka_headers_destroy(headers);
    rd_kafka_poll(sender, 0);
  };
  int arrived = 0;
  auto read = [&](int until, bool timed, Clock::time_point deadline) {
    while (arrived < until && Clock::now() < deadline) {
      rd_kafka_message_t* m = rd_kafka_consumer_poll(reader, 5);
      if (!m) continue;
      if (!m->err) {
        ++arrived;
        rd_kafka_headers_t* h = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        if (timed && rd_kafka_message_headers(m, &h) == RD_KAFKA_RESP_ERR_NO_ERROR &&
            rd_kafka_header_get_last(h, "sent", &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR &&
            size == sizeof(int64_t)) {
          int64_t sent;
          std::memcpy(&sent, value, sizeof sent);
          int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            Clock::now().time_since_epoch()).count();
          latency.record(static_cast<uint64_t>(now - sent));
        }
      }
      rd_kafka_message_destroy(m);
    }
  };
  // Warm-up: the route's and the reader's group joins.
  send(0);
  read(1, false, Clock::now() + std::chrono::seconds(60));
  if (arrived < 1) die("the pipeline delivered nothing");

  // Throughput: everything sent at once.
  auto begin = Clock::now();
  Usage used = Usage::now();
  std::thread reading([&] { read(1 + records, false, Clock::now() + std::chrono::seconds(180)); });
  for (int i = 1; i <= records; ++i) send(i);
  reading.join();
  if (arrived < 1 + records) die("the pipeline lost records");
  row.keepBest(secondsSince(begin), Usage::now() - used);

  // Latency at a paced 1,000 records/s.
  std::thread timing([&] {
    read(1 + records + paced_records, true, Clock::now() + std::chrono::seconds(120));
  });
  auto next = Clock::now();
  for (int i = 0; i < paced_records; ++i) {
    next += std::chrono::milliseconds(1);
    std::this_thread::sleep_until(next);
    send(records + 1 + i);
  }
  timing.join();
  rd_kafka_flush(sender, 10000);
  rd_kafka_destroy(sender);
  rd_kafka_consumer_close(reader);
  rd_kafka_destroy(reader);
  context.stop();
}

void print(const Row& row, int records) {
  std::printf("%-24s %10.0f records/s %7.2f us CPU/record (%.2f system) %6.1f switches/1k\n",
              row.name.c_str(), records / row.seconds, row.used.cpu() / records * 1e6,
              row.used.sys / records * 1e6, row.used.switches * 1000.0 / records);
}

}  // namespace

int main(int argc, char** argv) {
  int records = 100000;
  int window = 1000;
  size_t size = 1024;
  std::string program = "build/bin/dromedary-kafka-cluster";
  std::string only;  // produce, consume or pipeline: that one alone
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--records") records = std::atoi(argv[i + 1]);
    else if (flag == "--size") size = static_cast<size_t>(std::atol(argv[i + 1]));
    else if (flag == "--cluster") program = argv[i + 1];
    else if (flag == "--only") only = argv[i + 1];
    else if (flag == "--window") window = std::atoi(argv[i + 1]);
  }
  if (window <= 256) die("--window must be more than 256 (the pusher refills 256 at a time)");
  dromedary::setLogLevel(dromedary::LoggingLevel::Warn);
  std::string payload(size, 'x');
  Cluster cluster(program);
  Row produce_bare{"kafka_produce bare"}, produce_route{"kafka_produce route"};
  for (int round = 0; round < 2 && (only.empty() || only == "produce"); ++round) {
    produceBare(cluster.bootstrap(), "bare_produced", records, window, payload, produce_bare);
    produceRoute(cluster.bootstrap(), records, window, payload, produce_route);
  }
  // The consumers read what the bare producer wrote to `consumed`, each with a group of its own.
  Row consume_bare{"kafka_consume bare"}, consume_route{"kafka_consume route"};
  Row consume_bare_headers{"kafka_consume bare+hdrs"};
  if (only.empty() || only == "consume") {
    produceBare(cluster.bootstrap(), "consumed", records, 100000, payload,
                *std::make_unique<Row>());
  }
  for (int round = 0; round < 2 && (only.empty() || only == "consume"); ++round) {
    consumeBare(cluster.bootstrap(), fmt::format("bare{}", round), records, consume_bare, false);
    consumeBare(cluster.bootstrap(), fmt::format("bare_headers{}", round), records,
                consume_bare_headers, true);
    consumeRoute(cluster.bootstrap(), fmt::format("route{}", round), records, consume_route);
  }
  Row through{"kafka_pipeline"};
  dromedary::bench::LatencyHistogram latency;
  if (only.empty() || only == "pipeline") {
    pipeline(cluster.bootstrap(), records, payload, through, latency, 5000);
  }

  std::printf("%d records of %zu bytes, one broker (dromedary-kafka-cluster); 6 partitions "
              "written, 32 read; up to %d sent in flight\n",
              records, size, window);
  auto ran = [](const Row& row) { return row.seconds < 1e9; };
  for (const Row* row : {&produce_bare, &produce_route, &consume_bare, &consume_bare_headers,
                         &consume_route, &through}) {
    if (ran(*row)) print(*row, records);
  }
  if (ran(produce_route)) {
    std::printf("kafka_produce route/bare: %.2fx records/s, %.2fx CPU/record\n",
                produce_bare.seconds / produce_route.seconds, produce_route.used.cpu() / produce_bare.used.cpu());
  }
  if (ran(consume_route)) {
    std::printf("kafka_consume route/bare: %.2fx records/s, %.2fx CPU/record\n",
                consume_bare.seconds / consume_route.seconds, consume_route.used.cpu() / consume_bare.used.cpu());
  }
  if (ran(consume_route)) {
    std::printf("kafka_consume route/bare+hdrs: %.2fx records/s, %.2fx CPU/record\n",
                consume_bare_headers.seconds / consume_route.seconds,
                consume_route.used.cpu() / consume_bare_headers.used.cpu());
  }
  if (ran(through)) {
    std::printf("kafka_pipeline latency at 1,000 records/s: p50 %.2f ms, p99 %.2f ms\n",
                latency.percentile(0.50) / 1e6, latency.percentile(0.99) / 1e6);
  }
  return 0;
}
