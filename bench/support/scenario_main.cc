// SPDX-License-Identifier: Apache-2.0
// main() for every benchmark program: Google Benchmark with allocation counters, a fixed
// number of exchanges for instruction counting (--scenario=NAME --exchanges=N), or the
// paired 1-vs-2-thread scaling figure (--scaling=NAME [--pairs=N] [--slice-ms=MS]).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

#include "alloc_counter.h"
#include "scenario.h"

namespace dromedary::bench {

std::vector<Scenario>& scenarios() {
  static std::vector<Scenario> all;
  return all;
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "benchmark scenario failed: %s\n", what);
    std::abort();
  }
}

namespace {

constexpr int kWarmUp = 1000;

void runBenchmark(benchmark::State& state, const Scenario& scenario) {
  // Threads of one benchmark share one run, created by whichever thread gets here first.
  static std::mutex mutex;
  static std::unique_ptr<ScenarioRun> shared;
  static const Scenario* shared_for = nullptr;
  ScenarioRun* run;
  {
    std::lock_guard lock(mutex);
    if (shared_for != &scenario) {
      shared = scenario.make();
      shared_for = &scenario;
    }
    run = shared.get();
  }
  for (int i = 0; i < kWarmUp; ++i) run->once();
  if (state.thread_index() == 0) run->resetFigures();
  testing::AllocationScope scope;
  for (auto _ : state) run->once();
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    std::vector<std::pair<std::string, double>> figures;
    run->report(figures);
    for (const auto& [name, value] : figures) state.counters[name] = value;
  }
  state.counters["allocs_per_op"] = benchmark::Counter(
      static_cast<double>(scope.allocations()), benchmark::Counter::kAvgIterations);
  state.counters["bytes_per_op"] = benchmark::Counter(static_cast<double>(scope.bytes()),
                                                      benchmark::Counter::kAvgIterations);
}

int runFixed(const std::string& name, long exchanges) {
  for (const Scenario& s : scenarios()) {
    if (s.name != name) continue;
    auto run = s.make();
    for (long i = 0; i < exchanges; ++i) run->once();
    return 0;
  }
  std::fprintf(stderr, "unknown scenario '%s'\n", name.c_str());
  return 2;
}

double threadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Slice {
  double perSecond = 0;     // exchanges per second of wall time, all threads together
  double perCpuSecond = 0;  // exchanges per second of the threads' own CPU time
};

// `threads` threads running `run` for `slice`.
Slice measureSlice(ScenarioRun& run, int threads, std::chrono::milliseconds slice) {
  std::atomic<bool> stop{false};
  std::atomic<long> total{0};
  std::mutex mutex;
  double cpu = 0;
  std::vector<std::thread> workers;
  auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      double cpu0 = threadCpuSeconds();
      long n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        run.once();
        ++n;
      }
      total.fetch_add(n);
      std::lock_guard lock(mutex);
      cpu += threadCpuSeconds() - cpu0;
    });
  }
  std::this_thread::sleep_for(slice);
  stop.store(true);
  for (auto& w : workers) w.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {static_cast<double>(total.load()) / seconds, static_cast<double>(total.load()) / cpu};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The scaling figure on a shared machine: 1 and 2 threads measured in alternation, a short
// slice each, and the ratio taken per pair. Another tenant's load changes the machine's speed
// over seconds; within a pair both sides see nearly the same machine, so the median of the
// pairs' ratios moves far less than the ratio of two separate runs does.
int runScaling(const std::string& name, int pairs, long slice_ms) {
  for (const Scenario& s : scenarios()) {
    if (s.name != name) continue;
    if (s.maxThreads < 2) {
      std::fprintf(stderr, "scenario '%s' is not meant to run on 2 threads at once\n",
                   name.c_str());
      return 2;
    }
    auto run = s.make();
    for (int i = 0; i < kWarmUp * 10; ++i) run->once();
    std::chrono::milliseconds slice(slice_ms);
    std::vector<double> ratios, cpu_ratios, ones, twos;
    for (int p = 0; p < pairs; ++p) {
      // Alternate which side goes first, so a steady drift does not favour either.
      Slice one = p % 2 ? Slice{} : measureSlice(*run, 1, slice);
      Slice two = measureSlice(*run, 2, slice);
      if (p % 2) one = measureSlice(*run, 1, slice);
      ones.push_back(one.perSecond);
      twos.push_back(two.perSecond);
      ratios.push_back(two.perSecond / one.perSecond);
      cpu_ratios.push_back(two.perCpuSecond / one.perCpuSecond);
    }
    auto quartiles = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return std::pair(v[v.size() / 4], v[v.size() * 3 / 4]);
    };
    auto [q1, q3] = quartiles(ratios);
    auto [c1, c3] = quartiles(cpu_ratios);
    std::printf("%s: %d pairs of %ld ms slices\n", name.c_str(), pairs, slice_ms);
    std::printf("  1 thread:  median %.0f exchanges/s\n", median(ones));
    std::printf("  2 threads: median %.0f exchanges/s\n", median(twos));
    std::printf("  scaling 1 -> 2 threads: median of pairs %.2fx (quartiles %.2fx - %.2fx)\n",
                median(ratios), q1, q3);
    // 1.00: an exchange costs the same CPU time with two threads at once as alone (nothing
    // contended); below 1, the threads slow each other down.
    std::printf("  exchanges per CPU-second, 2 threads / 1: %.2f (quartiles %.2f - %.2f)\n",
                median(cpu_ratios), c1, c3);
    return 0;
  }
  std::fprintf(stderr, "unknown scenario '%s'\n", name.c_str());
  return 2;
}

}  // namespace
}  // namespace dromedary::bench

int main(int argc, char** argv) {
  using namespace dromedary::bench;
  std::string scenario;
  std::string scaling;
  long exchanges = -1;
  int pairs = 20;
  long slice_ms = 100;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--scenario=", 11) == 0) scenario = argv[i] + 11;
    if (std::strncmp(argv[i], "--exchanges=", 12) == 0) exchanges = std::atol(argv[i] + 12);
    if (std::strncmp(argv[i], "--scaling=", 10) == 0) scaling = argv[i] + 10;
    if (std::strncmp(argv[i], "--pairs=", 8) == 0) pairs = std::max(1, std::atoi(argv[i] + 8));
    if (std::strncmp(argv[i], "--slice-ms=", 11) == 0) {
      slice_ms = std::max(1L, std::atol(argv[i] + 11));
    }
    if (std::strcmp(argv[i], "--list-scenarios") == 0) {
      for (const Scenario& s : scenarios()) std::printf("%s\n", s.name.c_str());
      return 0;
    }
  }
  if (!scaling.empty()) return runScaling(scaling, pairs, slice_ms);
  if (!scenario.empty()) return runFixed(scenario, exchanges < 0 ? 10000 : exchanges);

  for (const Scenario& s : scenarios()) {
    auto* b = benchmark::RegisterBenchmark(s.name.c_str(), [&s](benchmark::State& state) {
      runBenchmark(state, s);
    });
    if (s.maxThreads > 1) b->Threads(1)->Threads(s.maxThreads)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
