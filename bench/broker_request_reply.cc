// SPDX-License-Identifier: Apache-2.0
// broker_request_reply: the reference broker scenario (../shared/reference/003): a requester
// sends 1 KB bodies to a queue, a responder echoes them to the reply queue; throughput per
// batch of 20,000 over N batches, to show it stays flat; client RSS at start and end. Both
// sides are Dromedary routes (direct: -> amqp:queue:bench.in InOut; amqp:queue:bench.in ->
// transform). The baseline is a bare Qpid Proton C++ client doing the same on the same
// broker. Also one-way 1 KB and 12 KB, beside a bare one-way client. Every one-way send is
// persistent (the endpoint's default) and done when the broker has accepted it, as each bare
// client's send is.
//
//   dromedary_broker_bench [--url amqp://127.0.0.1:25682] [--queue-prefix ""] [--batches 5]
//                          [--batch-size 20000] [--only TEXT]
// (bench/broker_bench.sh starts the test brokers, runs this and stops them.)
#include <dromedary/amqp/amqp_component.h>
#include <dromedary/dromedary.h>
#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "broker_bare_clients.h"
#include "broker_bench_common.h"

namespace {

using namespace broker_bench;

// A series against the targets: its median batch, the worst of its last ten batches and how
// far it fell below that median (percent), and its RSS growth.
struct Verdict {
  double median = 0, worstTail = 0, worstTailDrop = 0, rssGrowth = 0;
};
Verdict verdictOf(const Series& s) {
  const std::vector<double>& rate = s.batches.rate;
  Verdict v;
  v.median = medianOf(rate);
  size_t tail = std::min<size_t>(10, rate.size());
  v.worstTail = *std::min_element(rate.end() - static_cast<long>(tail), rate.end());
  v.worstTailDrop = 100.0 * (v.median - v.worstTail) / v.median;
  v.rssGrowth = s.rssEnd - s.rssStart;
  return v;
}

void report(const Series& s) {
  const std::vector<double>& rate = s.batches.rate;
  if (rate.empty()) {
    std::printf("| %-34s | did not complete |\n", s.name.c_str());
    return;
  }
  const Verdict v = verdictOf(s);
  size_t tail = std::min<size_t>(10, rate.size());
  std::vector<double> last(rate.end() - static_cast<long>(tail), rate.end());
  const std::vector<double>& cpu = s.batches.cpuPerMessage;
  double cpu_first = medianOf({cpu.begin(), cpu.begin() + static_cast<long>(tail)});
  double cpu_last = medianOf({cpu.end() - static_cast<long>(tail), cpu.end()});
  std::string batches, cpus, steal;
  for (double x : rate) batches += fmt::format("{:.0f} ", x);
  for (double x : cpu) cpus += fmt::format("{:.0f} ", x);
  for (double x : s.batches.stealPercent) steal += fmt::format("{:.0f} ", x);
  std::printf(
      "| %-34s | %8.0f | %8.0f | %6.1f%% | %6.1f%% | %6.1f -> %6.1f | %6.1f | %6.1f | "
      "%6.1f | %s| %s| %s|\n",
      s.name.c_str(), v.median, v.worstTail, v.worstTailDrop,
      100.0 * (v.median - medianOf(last)) / v.median, cpu_first, cpu_last, s.rssStart, s.rssEnd,
      s.cpuMicrosPerMessage, batches.c_str(), cpus.c_str(), steal.c_str());
  std::fflush(stdout);
}

// --- Dromedary on both sides ---

// The built-in components plus an amqp component named "broker" on the benchmark's broker.
void setUp(dromedary::Context& context, const Args& a) {
  dromedary::registerBuiltinComponents(context);
  dromedary::AmqpConfig config;
  config.remoteUri = a.url;
  config.queuePrefix = a.prefix;
  dromedary::registerAmqpComponent(context, "broker", config);
}

// Starts `context` with the reference's two sides: direct:request asks over the broker (an
// exclusive reply queue `reply`), and a consumer route echoes each request with a header set.
void startEcho(dromedary::Context& context, const Args& a, const std::string& reply) {
  using namespace dromedary;
  setLogLevel(LoggingLevel::Warn);
  setUp(context, a);
  context
      .addRoutes([&](RouteBuilder& b) {
        b.from("direct:request")
            .to("broker:queue:bench.in?exchangePattern=InOut&replyTo=" + reply +
                "&replyToType=Exclusive");
        // The transform of the reference; built-in steps only, so the route runs on the
        // connection's thread (Processor::mayBlock).
        b.from("broker:queue:bench.in?prefetch=200").setHeader("echoed", constant(true));
      })
      .value();
  context.start().value();
}

Series dromedaryRequestReply(const Args& a, int in_flight, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  startEcho(context, a, fmt::format("bench.reply.{}", in_flight));
  ProducerTemplate producer(context);
  const Value body(std::string(1024, 'x'));  // one body, copied into each request
  Series s{label, {}, 0, 0};
  // Warm-up: connections, links and the broker's queues.
  for (int i = 0; i < 200; ++i) producer.requestBody("direct:request", body).value();
  s.rssStart = rssMiB();
  s.batches.begin();
  for (int batch = 0; batch < a.batches; ++batch) {
    onProducerThreads(in_flight, a.batchSize, [&](auto take) {
      ProducerTemplate p(context);
      while (take()) {
        auto r = p.requestBody("direct:request", body);
        if (!r) std::fprintf(stderr, "request failed: %s\n", r.error().toString().c_str());
      }
    });
    s.batches.end(a.batchSize);
  }
  s.rssEnd = rssMiB();
  context.stop();
  return s;
}

// Warms up with 200 requests, then times `a.batches` batches of `run(a.batchSize)`; reports
// the requests `failures` counted.
template <class Run>
Series timeBatches(const Args& a, const std::string& label, Run&& run,
                   const std::atomic<int64_t>& failures) {
  run(200);
  Series s{label, {}, rssMiB(), 0};
  s.batches.begin();
  for (int batch = 0; batch < a.batches; ++batch) {
    run(a.batchSize);
    s.batches.end(a.batchSize);
  }
  s.rssEnd = rssMiB();
  if (failures.load() > 0) {
    std::fprintf(stderr, "%s: %lld requests failed\n", label.c_str(),
                 static_cast<long long>(failures.load()));
  }
  return s;
}

// Up to `limit` exchanges outstanding from one thread: each is started without waiting
// (processAsync) and its completion frees a place for the next, as the bare client's window.
class AsyncWindow {
 public:
  explicit AsyncWindow(int limit) : limit_(limit) {}

  // Starts `n` exchanges, each made by `make()`, into `entry`; returns when all are done.
  template <class Make>
  void run(int n, dromedary::Producer& entry, Make&& make) {
    for (int i = 0; i < n; ++i) {
      {
        std::unique_lock lock(mutex_);
        freed_.wait(lock, [&] { return outstanding_ < limit_; });
        ++outstanding_;
      }
      dromedary::Exchange* ex = make();
      // done only counts and notifies: it returns promptly.
      dromedary::processAsync(*ex, entry, &AsyncWindow::done, this, /*done_may_block=*/false);
    }
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return outstanding_ == 0; });
  }

  std::atomic<int64_t> failures{0};

 private:
  static void done(dromedary::Exchange& ex, void* arg) {
    auto& w = *static_cast<AsyncWindow*>(arg);
    if (ex.failed()) w.failures.fetch_add(1);
    dromedary::ExchangeRecycler{}(&ex);
    {
      std::lock_guard lock(w.mutex_);
      --w.outstanding_;
    }
    w.freed_.notify_one();
  }

  const int limit_;
  std::mutex mutex_;
  std::condition_variable freed_;
  int outstanding_ = 0;
};

// `in_flight` requests outstanding from one thread (AsyncWindow).
Series dromedaryAsyncRequestReply(const Args& a, int in_flight, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  startEcho(context, a, fmt::format("bench.reply.async.{}", in_flight));
  Producer& entry = *context.producer("direct:request").value();
  AsyncWindow window(in_flight);
  const Value body(std::string(1024, 'x'));
  auto request = [&] {
    Exchange* ex = context.createExchange().release();
    ex->setPattern(Pattern::InOut);
    ex->message().setBody(body);
    return ex;
  };
  Series s = timeBatches(
      a, label, [&](int n) { window.run(n, entry, request); }, window.failures);
  context.stop();
  return s;
}

// Exchanges sent as the bare client sends: `in_flight` chains, each exchange's completion
// starting the next (processAsync) on the thread that completed it, the connection's own, so
// no thread waits and none is woken per message. The ProducerTemplate and AsyncWindow series
// are the same with a caller thread handing each message over: a wake-up or two per message.
class ChainedSends {
 public:
  ChainedSends(dromedary::Context& context, dromedary::Producer& entry, dromedary::Pattern pattern,
               size_t size, int in_flight)
      : context_(context),
        entry_(entry),
        pattern_(pattern),
        body_(std::string(size, 'x')),
        inFlight_(in_flight) {}

  // Sends `n` and returns when all have completed.
  void run(int64_t n) {
    {
      std::lock_guard lock(mutex_);
      done_ = false;
    }
    toStart_.store(n);
    toFinish_.store(n);
    for (int i = 0; i < inFlight_; ++i) {
      if (toStart_.fetch_sub(1) > 0) start();
    }
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return done_; });
  }

  std::atomic<int64_t> failures{0};

 private:
  void start() {
    dromedary::Exchange* ex = context_.createExchange().release();
    ex->setPattern(pattern_);
    ex->message().setBody(body_);
    // completed() starts the next or notifies: it returns promptly.
    dromedary::processAsync(*ex, entry_, &ChainedSends::completed, this, /*done_may_block=*/false);
  }
  static void completed(dromedary::Exchange& ex, void* arg) noexcept {
    auto& c = *static_cast<ChainedSends*>(arg);
    if (ex.failed()) c.failures.fetch_add(1);
    dromedary::ExchangeRecycler{}(&ex);
    if (c.toStart_.fetch_sub(1) > 0) c.start();
    if (c.toFinish_.fetch_sub(1) == 1) {
      std::lock_guard lock(c.mutex_);
      c.done_ = true;
      c.finished_.notify_one();
    }
  }

  dromedary::Context& context_;
  dromedary::Producer& entry_;
  const dromedary::Pattern pattern_;
  const dromedary::Value body_;
  const int inFlight_;
  std::atomic<int64_t> toStart_{0};
  std::atomic<int64_t> toFinish_{0};
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
};

// One request in flight, chained (ChainedSends) as the bare client runs it.
Series dromedaryChainedRequestReply(const Args& a, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  startEcho(context, a, "bench.reply.chained");
  ChainedSends chain(context, *context.producer("direct:request").value(), Pattern::InOut, 1024, 1);
  Series s = timeBatches(
      a, label, [&](int n) { chain.run(n); }, chain.failures);
  context.stop();
  return s;
}

// Counts what arrives; it cannot block, so the route runs on the connection's thread.
struct Count final : dromedary::Processor {
  std::atomic<int64_t> n{0};
  dromedary::Status process(dromedary::Exchange&) override {
    n.fetch_add(1, std::memory_order_relaxed);
    return dromedary::Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }
};

// Starts `context` with a route counting what arrives on `queue`; returns the count.
std::shared_ptr<Count> startCounter(dromedary::Context& context, const Args& a,
                                    const std::string& queue) {
  using namespace dromedary;
  setLogLevel(LoggingLevel::Warn);
  setUp(context, a);
  auto counter = std::make_shared<Count>();
  context
      .addRoutes([&](RouteBuilder& b) {
        b.from("broker:queue:" + queue + "?prefetch=500").process(counter);
      })
      .value();
  context.start().value();
  return counter;
}

// One-way from 10 threads at once, each sending with a ProducerTemplate (waiting until the
// broker has the message); the batch ends when the consumer route has counted all of them.
Series dromedaryOneWay(const Args& a, size_t size, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  std::string queue = fmt::format("bench.oneway.{}", size);
  auto counter = startCounter(context, a, queue);
  std::string body(size, 'x');
  std::string uri = "broker:queue:" + queue;
  Series s{label, {}, rssMiB(), 0};
  int64_t sent = 0;
  s.batches.begin();
  for (int batch = 0; batch < a.batches; ++batch) {
    onProducerThreads(10, a.batchSize, [&](auto take) {  // 10 concurrent producers
      ProducerTemplate p(context);
      while (take()) {
        auto r = p.sendBody(uri, std::string_view(body));
        if (!r) std::fprintf(stderr, "send failed: %s\n", r.error().toString().c_str());
      }
    });
    sent += a.batchSize;
    if (!awaitArrivals(counter->n, sent, label)) return s;
    s.batches.end(a.batchSize);
  }
  s.rssEnd = rssMiB();
  context.stop();
  return s;
}

// One-way with 10 sends outstanding from one thread (AsyncWindow), as the bare client sends.
Series dromedaryAsyncOneWay(const Args& a, size_t size, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  std::string queue = fmt::format("bench.oneway.async.{}", size);
  auto counter = startCounter(context, a, queue);
  Producer& entry = *context.producer("broker:queue:" + queue).value();
  AsyncWindow window(10);
  const Value body(std::string(size, 'x'));
  auto message = [&] {
    Exchange* ex = context.createExchange().release();
    ex->message().setBody(body);
    return ex;
  };
  int64_t sent = 0;
  auto send = [&](int n) {
    window.run(n, entry, message);
    sent += n;
    awaitArrivals(counter->n, sent, label);
  };
  Series s = timeBatches(a, label, send, window.failures);
  context.stop();
  return s;
}

// One-way with 10 chains of sends (ChainedSends), as the bare client sends.
Series dromedaryChainedOneWay(const Args& a, size_t size, const std::string& label) {
  using namespace dromedary;
  Context context("bench");
  std::string queue = fmt::format("bench.oneway.chained.{}", size);
  auto counter = startCounter(context, a, queue);
  ChainedSends chain(context, *context.producer("broker:queue:" + queue).value(), Pattern::InOnly,
                     size, 10);
  int64_t sent = 0;
  auto send = [&](int n) {
    chain.run(n);
    sent += n;
    awaitArrivals(counter->n, sent, label);
  };
  Series s = timeBatches(a, label, send, chain.failures);
  context.stop();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--url")
      a.url = argv[i + 1];
    else if (k == "--queue-prefix")
      a.prefix = argv[i + 1];
    else if (k == "--batches")
      a.batches = std::atoi(argv[i + 1]);
    else if (k == "--batch-size")
      a.batchSize = std::atoi(argv[i + 1]);
    else if (k == "--only")
      a.only = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  std::printf("broker %s, %d batches of %d\n\n", a.url.c_str(), a.batches, a.batchSize);
  std::printf(
      "| scenario | median msg/s | worst of last 10 | drop | drop of the last 10's "
      "median | CPU us/msg, first 10 -> last 10 (medians) | RSS start MiB | RSS end MiB "
      "| CPU us/msg | msg/s per batch | CPU us/msg per batch | steal %% per batch |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::map<std::string, Series> done;
  // Runs a scenario (if --only selects it) and reports it; `baseline` names the bare client's
  // series it is held against (nullptr for a bare client's own).
  std::vector<std::pair<std::string, std::string>> compared;
  auto run = [&](const char* label, const char* baseline, auto&& scenario) {
    if (!a.only.empty() && std::string(label).find(a.only) == std::string::npos) return;
    double cpu = processCpuMicros();
    Series s = scenario(label);
    // Set-up and warm-up included: a few hundred messages against the batches' thousands.
    s.cpuMicrosPerMessage = (processCpuMicros() - cpu) / (double(a.batches) * a.batchSize);
    report(s);
    if (baseline) compared.emplace_back(label, baseline);
    done.emplace(label, std::move(s));
  };
  run("bare Proton request-reply, 1 in flight", nullptr,
      [&](auto l) { return bareRequestReply(a, 1, l); });
  run("bare Proton request-reply, 1 in flight from a producer thread", nullptr,
      [&](auto l) { return bareThreaded(a, 1024, true, 1, 1, l); });
  run("broker_request_reply, 1 in flight",
      "bare Proton request-reply, 1 in flight from a producer thread",
      [&](auto l) { return dromedaryRequestReply(a, 1, l); });
  run("broker_request_reply, 1 in flight, chained", "bare Proton request-reply, 1 in flight",
      [&](auto l) { return dromedaryChainedRequestReply(a, l); });
  run("bare Proton request-reply, 10 in flight", nullptr,
      [&](auto l) { return bareRequestReply(a, 10, l); });
  run("bare Proton request-reply, 10 producer threads", nullptr,
      [&](auto l) { return bareThreaded(a, 1024, true, 10, 1, l); });
  run("broker_request_reply, 10 producers", "bare Proton request-reply, 10 producer threads",
      [&](auto l) { return dromedaryRequestReply(a, 10, l); });
  run("bare Proton request-reply, 10 in flight from a producer thread", nullptr,
      [&](auto l) { return bareThreaded(a, 1024, true, 1, 10, l); });
  run("broker_request_reply, 10 in flight from one thread",
      "bare Proton request-reply, 10 in flight from a producer thread",
      [&](auto l) { return dromedaryAsyncRequestReply(a, 10, l); });
  run("bare Proton one-way 1 KB, 10 in flight", nullptr,
      [&](auto l) { return bareOneWay(a, 1024, l); });
  run("bare Proton one-way 1 KB, 10 producer threads", nullptr,
      [&](auto l) { return bareThreaded(a, 1024, false, 10, 1, l); });
  run("one-way 1 KB, 10 producers", "bare Proton one-way 1 KB, 10 producer threads",
      [&](auto l) { return dromedaryOneWay(a, 1024, l); });
  run("bare Proton one-way 1 KB, 10 in flight from a producer thread", nullptr,
      [&](auto l) { return bareThreaded(a, 1024, false, 1, 10, l); });
  run("one-way 1 KB, 10 in flight from one thread",
      "bare Proton one-way 1 KB, 10 in flight from a producer thread",
      [&](auto l) { return dromedaryAsyncOneWay(a, 1024, l); });
  run("one-way 1 KB, 10 in flight, chained", "bare Proton one-way 1 KB, 10 in flight",
      [&](auto l) { return dromedaryChainedOneWay(a, 1024, l); });
  run("bare Proton one-way 12 KB, 10 in flight", nullptr,
      [&](auto l) { return bareOneWay(a, 12 * 1024, l); });
  run("bare Proton one-way 12 KB, 10 producer threads", nullptr,
      [&](auto l) { return bareThreaded(a, 12 * 1024, false, 10, 1, l); });
  run("one-way 12 KB, 10 producers", "bare Proton one-way 12 KB, 10 producer threads",
      [&](auto l) { return dromedaryOneWay(a, 12 * 1024, l); });
  run("bare Proton one-way 12 KB, 10 in flight from a producer thread", nullptr,
      [&](auto l) { return bareThreaded(a, 12 * 1024, false, 1, 10, l); });
  run("one-way 12 KB, 10 in flight from one thread",
      "bare Proton one-way 12 KB, 10 in flight from a producer thread",
      [&](auto l) { return dromedaryAsyncOneWay(a, 12 * 1024, l); });
  run("one-way 12 KB, 10 in flight, chained", "bare Proton one-way 12 KB, 10 in flight",
      [&](auto l) { return dromedaryChainedOneWay(a, 12 * 1024, l); });

  // The targets, series by series: throughput within 10% of the bare client doing
  // the same, the last ten batches each within 10% of the series' median, RSS growth under
  // 10 MB.
  if (compared.empty()) return 0;
  std::printf(
      "\n| series | msg/s | bare client's | vs bare | worst of last 10 (bare's) | RSS growth MiB "
      "| CPU us/msg (bare) | within 10%% | flat | RSS |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---|---|---|\n");
  for (const auto& [label, baseline] : compared) {
    const Series& s = done.at(label);
    auto it = done.find(baseline);
    if (s.batches.rate.empty()) continue;
    Verdict v = verdictOf(s);
    if (it == done.end() || it->second.batches.rate.empty()) {
      std::printf("| %s | %.0f | (not run) | | %.1f%% | %.1f | %.1f | | %s | %s |\n", label.c_str(),
                  v.median, v.worstTailDrop, v.rssGrowth, s.cpuMicrosPerMessage,
                  v.worstTailDrop <= 10 ? "yes" : "no", v.rssGrowth < 10 ? "yes" : "no");
      continue;
    }
    Verdict b = verdictOf(it->second);
    double ratio = v.median / b.median;
    std::printf(
        "| %s | %.0f | %.0f | %.2fx | %.1f%% (%.1f%%) | %.1f | %.1f (%.1f) | %s | %s | %s |\n",
        label.c_str(), v.median, b.median, ratio, v.worstTailDrop, b.worstTailDrop, v.rssGrowth,
        s.cpuMicrosPerMessage, it->second.cpuMicrosPerMessage, ratio >= 0.9 ? "yes" : "no",
        v.worstTailDrop <= 10 ? "yes" : "no", v.rssGrowth < 10 ? "yes" : "no");
  }
  return 0;
}
