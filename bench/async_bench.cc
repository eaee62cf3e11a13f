// SPDX-License-Identifier: Apache-2.0
// The asynchronous scenarios: a hop through a seda queue, and a timer -> log route.
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include <dromedary/dromedary.h>
#include <dromedary/engine/virtual_scheduler.h>

#include "latency_histogram.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

// Counts arrivals; the producer waits for its message so that one operation is one full hop
// (enqueue, consumer thread wakes, route runs).
class Arrivals final : public Processor {
 public:
  Status process(Exchange&) override {
    count.fetch_add(1, std::memory_order_release);
    return Status::Continue;
  }
  std::atomic<uint64_t> count{0};
};

// seda_hop: ProducerTemplate -> seda:hop -> consumer thread -> processor, waited for.
class SedaHop final : public ScenarioRun {
 public:
  explicit SedaHop(int consumers) : producer_(context_) {
    setLogLevel(LoggingLevel::Warn);
    registerBuiltinComponents(context_);
    auto added = context_.addRoutes([this, consumers](RouteBuilder& b) {
      b.from(fmt::format("seda:hop?size=100000&concurrentConsumers={}", consumers))
          .process(arrivals_);
    });
    check(added.has_value(), "routes");
    check(context_.start().has_value(), "start");
    for (int i = 0; i < 1000; ++i) once();
  }
  ~SedaHop() override { context_.stop(); }

  void once() override {
    auto begin = std::chrono::steady_clock::now();
    uint64_t expected = arrivals_->count.load(std::memory_order_acquire) + 1;
    check(producer_.sendBody("seda:hop?size=100000", "order-1").has_value(), "send");
    while (arrivals_->count.load(std::memory_order_acquire) < expected) {
      // the consumer thread is on its way: spin briefly, as a latency benchmark does
    }
    latency_.recordSince(begin);
  }
  void resetFigures() override { latency_.reset(); }
  void report(std::vector<std::pair<std::string, double>>& figures) override {
    figures.emplace_back("p50_ns", latency_.percentile(0.50));
    figures.emplace_back("p99_ns", latency_.percentile(0.99));
    figures.emplace_back("p999_ns", latency_.percentile(0.999));
  }

 private:
  Context context_{"bench"};
  ProducerTemplate producer_;
  std::shared_ptr<Arrivals> arrivals_ = std::make_shared<Arrivals>();
  LatencyHistogram latency_;
};

// seda_hop: 1 producer -> queue -> 1 consumer. seda_hop_2x2: 2 consumers, measured with 1 and
// with 2 producer threads.
ScenarioRegistrar seda_hop_registrar(
    "seda_hop", [] { return std::unique_ptr<ScenarioRun>(new SedaHop(1)); }, 1);
ScenarioRegistrar seda_hop_2x2_registrar(
    "seda_hop_2x2", [] { return std::unique_ptr<ScenarioRun>(new SedaHop(2)); }, 2);

// seda_send: the producer side alone (enqueue a copy and go on), the consumer draining.
class SedaSend final : public ScenarioRun {
 public:
  SedaSend() : producer_(context_) {
    setLogLevel(LoggingLevel::Warn);
    registerBuiltinComponents(context_);
    auto added = context_.addRoutes([this](RouteBuilder& b) {
      b.from("seda:send?size=1000000&blockWhenFull=true").process(arrivals_);
    });
    check(added.has_value(), "routes");
    check(context_.start().has_value(), "start");
    for (int i = 0; i < 1000; ++i) once();
  }
  ~SedaSend() override { context_.stop(); }

  void once() override {
    check(producer_.sendBody("seda:send?size=1000000&blockWhenFull=true", "order-1").has_value(),
          "send");
  }

 private:
  Context context_{"bench"};
  ProducerTemplate producer_;
  std::shared_ptr<Arrivals> arrivals_ = std::make_shared<Arrivals>();
};
DROMEDARY_SCENARIO("seda_send", SedaSend);

}  // namespace
}  // namespace dromedary::bench

namespace dromedary::bench {
namespace {

// timer_log: a timer -> log route, one fire per operation, on a virtual clock (so that the
// figure is the per-message cost of the timer path, not the period). The log line is at
// DEBUG under an INFO threshold: the step runs, the line is not built.
class TimerLog final : public ScenarioRun {
 public:
  TimerLog() : clock_(std::make_shared<VirtualScheduler>()) {
    setLogLevel(LoggingLevel::Info);
    context_.setScheduler(clock_);
    registerBuiltinComponents(context_);
    check(context_.addRoutes([](RouteBuilder& b) {
                   b.from("timer:bench?period=1&delay=0&includeMetadata=true")
                       .to("log:bench?level=DEBUG");
                 }).has_value(),
          "routes");
    check(context_.start().has_value(), "start");
    for (int i = 0; i < 1000; ++i) once();
  }
  ~TimerLog() override {
    for (const std::string& id : context_.routeIds()) (void)context_.stopRoute(id);
  }
  void once() override { clock_->advance(std::chrono::milliseconds(1)); }

 private:
  std::shared_ptr<VirtualScheduler> clock_;
  Context context_{"bench"};
};
DROMEDARY_SCENARIO("timer_log", TimerLog);

}  // namespace
}  // namespace dromedary::bench
