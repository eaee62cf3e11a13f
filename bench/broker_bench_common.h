// SPDX-License-Identifier: Apache-2.0
// What the broker benchmark's series share: its arguments, and a series' batches (throughput,
// CPU per message, RSS) as the report reads them.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace broker_bench {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string url = "amqp://127.0.0.1:25682";
  std::string prefix;
  int batches = 5;
  int batchSize = 20000;
  std::string only;  // run the scenarios whose label contains this
};

inline double rssMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

// This process's CPU time so far (all threads, user + system), in microseconds. Both sides
// of every scenario run in this process, as the bare client's do: a figure that the
// machine's other load moves much less than throughput.
inline double processCpuMicros() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto us = [](const timeval& t) { return t.tv_sec * 1e6 + static_cast<double>(t.tv_usec); };
  return us(u.ru_utime) + us(u.ru_stime);
}

// The machine's CPU time so far (/proc/stat, in clock ticks, all CPUs): all of it, and the
// part the hypervisor gave to other guests (steal). A batch that loses throughput to the
// host's other load shows it as steal; one that loses it to this machine's own work does not.
struct MachineTicks {
  double total = 0, steal = 0;
};
inline MachineTicks machineTicks() {
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double field[8] = {};  // user nice system idle iowait irq softirq steal
  stat >> cpu;
  for (double& f : field) stat >> f;
  MachineTicks t;
  for (double f : field) t.total += f;
  t.steal = field[7];
  return t;
}

// Per batch: throughput, this process's CPU time per message, and steal. On this 2-core
// machine the second is the steadier sign of flatness: a client that degrades (a consumer or
// connection per request, a growing table) spends ever more per message, while where the
// scheduler puts the broker's threads and the client's (together or apart) moves throughput
// by 20-50% from one batch to the next and CPU per message far less.
struct Batches {
  std::vector<double> rate;           // messages per second
  std::vector<double> cpuPerMessage;  // microseconds
  std::vector<double> stealPercent;   // of the machine's CPU time during the batch
  Clock::time_point start;
  double cpuStart = 0;
  MachineTicks ticksStart;

  void begin() {
    start = Clock::now();
    cpuStart = processCpuMicros();
    ticksStart = machineTicks();
  }
  // Ends a batch of `n` messages and begins the next.
  void end(int n) {
    auto now = Clock::now();
    double cpu = processCpuMicros();
    rate.push_back(n / std::chrono::duration<double>(now - start).count());
    cpuPerMessage.push_back((cpu - cpuStart) / n);
    MachineTicks ticks = machineTicks();
    double elapsed = ticks.total - ticksStart.total;
    stealPercent.push_back(elapsed > 0 ? 100.0 * (ticks.steal - ticksStart.steal) / elapsed : 0);
    start = now;
    cpuStart = cpu;
    ticksStart = ticks;
  }
  size_t size() const { return rate.size(); }
};

struct Series {
  std::string name;
  Batches batches;
  double rssStart = 0, rssEnd = 0;
  double cpuMicrosPerMessage = 0;  // over the whole series, set-up and warm-up included
};

inline double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Waits until `sent` messages have arrived; false (saying so) after 30 s without them.
inline bool awaitArrivals(const std::atomic<int64_t>& arrived, int64_t sent,
                          const std::string& label) {
  auto waited = Clock::now();
  while (arrived.load() < sent) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (Clock::now() - waited > std::chrono::seconds(30)) {
      std::fprintf(stderr, "%s: only %lld of %lld messages arrived within 30 s\n", label.c_str(),
                   static_cast<long long>(arrived.load()), static_cast<long long>(sent));
      return false;
    }
  }
  return true;
}

// Runs `producer(take)` on `threads` threads at once and returns when all have ended. The
// threads share the batch's `n` messages: `take()` before each, false once all are taken.
template <class Producer>
void onProducerThreads(int threads, int n, const Producer& producer) {
  std::atomic<int> next{0};
  auto take = [&] { return next.fetch_add(1) < n; };
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) running.emplace_back([&] { producer(take); });
  for (auto& t : running) t.join();
}

}  // namespace broker_bench
