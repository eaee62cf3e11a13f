// SPDX-License-Identifier: Apache-2.0
// main() for every benchmark program: Google Benchmark with allocation counters, or a fixed
// number of exchanges for instruction counting.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

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

}  // namespace
}  // namespace dromedary::bench

int main(int argc, char** argv) {
  using namespace dromedary::bench;
  std::string scenario;
  long exchanges = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--scenario=", 11) == 0) scenario = argv[i] + 11;
    if (std::strncmp(argv[i], "--exchanges=", 12) == 0) exchanges = std::atol(argv[i] + 12);
    if (std::strcmp(argv[i], "--list-scenarios") == 0) {
      for (const Scenario& s : scenarios()) std::printf("%s\n", s.name.c_str());
      return 0;
    }
  }
  if (!scenario.empty()) return runFixed(scenario, exchanges < 0 ? 10000 : exchanges);

  for (const Scenario& s : scenarios()) {
    auto* b = benchmark::RegisterBenchmark(s.name.c_str(), [&s](benchmark::State& state) {
      runBenchmark(state, s);
    });
    if (s.max_threads > 1) b->Threads(1)->Threads(s.max_threads)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
