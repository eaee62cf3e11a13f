// SPDX-License-Identifier: Apache-2.0
#pragma once

// Scenarios: one definition per benchmark scenario, run two ways by scenario_main.cc:
//  - under Google Benchmark, reporting ns/op, allocs_per_op and bytes_per_op;
//  - for a fixed number of exchanges (`--scenario=NAME --exchanges=N`), which is what
//    bench/instructions.sh runs under callgrind to count instructions per exchange.
// A scenario's constructor builds its routes and warms them up; once() runs one exchange.

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dromedary::bench {

class ScenarioRun {
 public:
  virtual ~ScenarioRun() = default;
  /// One exchange (or one operation). Must not fail; abort if it does.
  virtual void once() = 0;
  /// Extra figures for the report (e.g. latency percentiles), read after a measured run.
  virtual void report(std::vector<std::pair<std::string, double>>& figures) { (void)figures; }
  /// Called before a measured run, so report() covers it alone.
  virtual void resetFigures() {}
};

struct Scenario {
  std::string name;
  std::function<std::unique_ptr<ScenarioRun>()> make;
  int maxThreads = 1;  // >1: also measured with 2 threads sharing one run (e.g. mt_10)
};

std::vector<Scenario>& scenarios();

struct ScenarioRegistrar {
  ScenarioRegistrar(std::string name, std::function<std::unique_ptr<ScenarioRun>()> make,
                    int max_threads = 1) {
    scenarios().push_back({std::move(name), std::move(make), max_threads});
  }
};

/// Registers `Class` (a ScenarioRun) under `name`.
#define DROMEDARY_SCENARIO(name, Class, ...)                            \
  static ::dromedary::bench::ScenarioRegistrar registrar_##Class(       \
      name, [] { return std::unique_ptr<::dromedary::bench::ScenarioRun>(new Class()); }, \
      ##__VA_ARGS__)

/// Aborts the benchmark with a message when `ok` is false (a scenario must not fail).
void check(bool ok, const char* what);

}  // namespace dromedary::bench
