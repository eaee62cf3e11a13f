// SPDX-License-Identifier: Apache-2.0
#pragma once

// The wall clock in milliseconds as exchanges record their creation: one relaxed load.
//
// Reading the kernel's coarse clock (CLOCK_REALTIME_COARSE, through the vDSO) cost ~4 ns per
// exchange on this project's VM: 10% of direct_1. Instead a ticker thread, one per process and
// started by the first read, stores that clock every millisecond into a shared word that
// readers only load. The value is the coarse clock's (whose own resolution is the kernel's
// tick, 1-4 ms), at most a tick behind while the ticker runs on time.
//
// The ticker parks when fewer than half of its ticks in 100 ms saw a read (an idle or slow
// process is not woken 1,000 times a second for it); readers then read the coarse clock
// themselves, and the first of them wakes it.
// Under valgrind it ticks every 100 ms (so that callgrind counts the readers' usual path and
// the ticker's own work stays negligible); DROMEDARY_CLOCK_TICKER=0 turns it off.

#include <atomic>
#include <cstdint>

namespace dromedary::detail {

struct alignas(64) CoarseClockShared {
  std::atomic<int64_t> millis{0};  // the ticker's last reading; 0 while no ticker runs
  std::atomic<bool> read{false};   // read since the ticker's last tick
};
extern CoarseClockShared g_coarseClock;

/// The coarse clock read directly; wakes or starts the ticker when it may run.
int64_t coarseNowMillisSlow() noexcept;

/// Milliseconds since the epoch, to within the coarse clock's resolution.
inline int64_t coarseNowMillis() noexcept {
  const int64_t ms = g_coarseClock.millis.load(std::memory_order_relaxed);
  if (ms != 0) [[likely]] {
    // Written at most once per tick by all readers together: the line stays shared.
    if (!g_coarseClock.read.load(std::memory_order_relaxed)) {
      g_coarseClock.read.store(true, std::memory_order_relaxed);
    }
    return ms;
  }
  return coarseNowMillisSlow();
}

/// The coarse clock itself (no ticker): for tests.
int64_t readCoarseClockMillis() noexcept;
/// Whether the ticker is running now (not parked, started and allowed): for tests.
bool coarseClockTickerRunning() noexcept;

}  // namespace dromedary::detail
