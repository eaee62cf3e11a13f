// SPDX-License-Identifier: Apache-2.0
#include "core/coarse_clock.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define DROMEDARY_UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define DROMEDARY_UNDER_VALGRIND() false
#endif

namespace dromedary::detail {

CoarseClockShared g_coarseClock;

namespace {

enum State : int { kNotStarted, kRunning, kParked, kDisabled };
std::atomic<int> g_state{kNotStarted};

constexpr auto kTick = std::chrono::milliseconds(1);
// Under valgrind a tick every 100 ms: callgrind then counts the readers' path as it runs
// outside, and the ticker's own instructions (which grow with the run's time) stay noise.
constexpr auto kValgrindTick = std::chrono::milliseconds(100);
// Parks when fewer than half of its ticks in a window saw a read: below ~1,000 exchanges a
// second the ticker's wake-ups would cost more than the reads it saves.
constexpr auto kWindow = std::chrono::milliseconds(100);

bool tickerAllowed() noexcept {
  const char* env = std::getenv("DROMEDARY_CLOCK_TICKER");
  return !(env && std::strcmp(env, "0") == 0);
}

void tick() noexcept {
  const auto period = DROMEDARY_UNDER_VALGRIND() ? kValgrindTick : kTick;
  const int window_ticks = std::max(1, static_cast<int>(kWindow / period));
  int ticks = 0, read_ticks = 0;
  for (;;) {
    g_coarseClock.millis.store(readCoarseClockMillis(), std::memory_order_relaxed);
    std::this_thread::sleep_for(period);
    // Whether a reader took the value stored before this sleep.
    if (g_coarseClock.read.exchange(false, std::memory_order_relaxed)) ++read_ticks;
    if (++ticks < window_ticks) continue;
    if (read_ticks * 2 < ticks) {
      // Readers fall back to the clock itself, and the first of them wakes this thread.
      g_coarseClock.millis.store(0, std::memory_order_relaxed);
      int expected = kRunning;
      if (g_state.compare_exchange_strong(expected, kParked)) g_state.wait(kParked);
    }
    ticks = read_ticks = 0;
  }
}

// A forked child has no ticker: its readers read the clock and start one of their own.
void afterForkInChild() noexcept {
  g_coarseClock.millis.store(0, std::memory_order_relaxed);
  if (g_state.load(std::memory_order_relaxed) != kDisabled) {
    g_state.store(kNotStarted, std::memory_order_relaxed);
  }
}

void start() noexcept {
  if (!tickerAllowed()) {
    g_state.store(kDisabled, std::memory_order_relaxed);
    return;
  }
  static std::atomic<bool> fork_handler{false};
  if (!fork_handler.exchange(true)) pthread_atfork(nullptr, nullptr, &afterForkInChild);
  try {
    std::thread(&tick).detach();  // for the process's life: it touches only these globals
  } catch (...) {
    g_state.store(kDisabled, std::memory_order_relaxed);  // no thread: read the clock always
  }
}

}  // namespace

int64_t readCoarseClockMillis() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

bool coarseClockTickerRunning() noexcept {
  return g_state.load(std::memory_order_relaxed) == kRunning &&
         g_coarseClock.millis.load(std::memory_order_relaxed) != 0;
}

int64_t coarseNowMillisSlow() noexcept {
  const int64_t ms = readCoarseClockMillis();
  int state = g_state.load(std::memory_order_relaxed);
  if (state == kNotStarted) {
    if (g_state.compare_exchange_strong(state, kRunning)) start();
  } else if (state == kParked) {
    if (g_state.compare_exchange_strong(state, kRunning)) g_state.notify_one();
  }
  return ms;
}

}  // namespace dromedary::detail
