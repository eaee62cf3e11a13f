// SPDX-License-Identifier: Apache-2.0
#pragma once

// Statistics per processor and route that scale with cores (DESIGN §5, issue #7).
//
// Every count is written by its thread into its own stripe with a plain load and store
// (threadStripe(); the rare threads beyond the private stripes share the last one with
// atomic adds). A route keeps one block of cells per stripe, the cells of its steps side by
// side, so the steps of one exchange write a few adjacent cache lines of their thread's
// block. Readers sum the stripes.
//
// Counts cover every exchange. Times are measured on a sample of exchanges (by default at
// most one per thread per tick of the coarse clock that stamps an exchange's creation, which
// costs nothing more to read): on the machines this runs on a clock read costs 30-80 ns (a
// virtualised TSC / clock_gettime), more than a whole step, so reading it at every node
// boundary of every exchange would multiply the cost of a route.
// A timed exchange reads the clock once per node boundary (a step's end is the next one's
// start) and once when it leaves each route.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "engine/striped_counter.h"

namespace dromedary::detail {

using dromedary::addTo;  // the thread-major cells (striped_counter.h)

/// Relaxed: a plain load and store for the owning thread, an atomic add on the shared stripe.
inline void addTo(std::atomic<uint64_t>& cell, uint64_t n, uint32_t stripe) noexcept {
  if (stripe == kSharedStripe) {
    cell.fetch_add(n, std::memory_order_relaxed);
  } else {
    cell.store(cell.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
}

/// The relaxed view of a word another thread may read (a plain load or store on x86).
inline uint64_t loadWord(const uint64_t& w) noexcept {
  return std::atomic_ref<const uint64_t>(w).load(std::memory_order_relaxed);
}
inline void storeWord(uint64_t& w, uint64_t v) noexcept {
  std::atomic_ref<uint64_t>(w).store(v, std::memory_order_relaxed);
}

/// Failures and times of one step (or of a whole route) in one stripe: plain words in the
/// thread-major arena (RouteStatistics), all zero until the stripe's thread first writes
/// them, so a route's cells take memory only for the threads that ran it. (A step's runs are
/// counted apart, packed: RouteStatistics::stepCount0.)
struct TimingCell {
  uint64_t failed;
  uint64_t timed;       // how many were timed (the mean's divisor)
  uint64_t nanos;       // their summed time
  uint64_t minBelowMax;  // UINT64_MAX minus the least time: zero while none was timed
  uint64_t maxNanos;
  uint64_t lastNanos;
  uint64_t lastMillis;  // when the last timed one ended (epoch ms)

  void time(uint64_t ns, int64_t now_ms) noexcept {
    storeWord(timed, loadWord(timed) + 1);
    storeWord(nanos, loadWord(nanos) + ns);
    if (UINT64_MAX - ns > loadWord(minBelowMax)) storeWord(minBelowMax, UINT64_MAX - ns);
    if (ns > loadWord(maxNanos)) storeWord(maxNanos, ns);
    storeWord(lastNanos, ns);
    storeWord(lastMillis, static_cast<uint64_t>(now_ms));
  }
  void reset() noexcept;
};
inline constexpr uint32_t kTimingCellWords = sizeof(TimingCell) / sizeof(uint64_t);
static_assert(std::is_trivially_default_constructible_v<TimingCell> &&
              sizeof(TimingCell) == 7 * sizeof(uint64_t));

/// The earlier of two stamps, where 0 means none.
inline int64_t earliestStamp(int64_t a, int64_t b) noexcept {
  return a == 0 ? b : (b == 0 ? a : std::min(a, b));
}

/// A latency histogram: 4 buckets per power of two from 1 ns to about 5 minutes.
inline constexpr uint32_t kHistogramBuckets = 4 * 39;
uint32_t histogramBucket(uint64_t ns) noexcept;
/// The upper bound of a bucket, in nanoseconds.
uint64_t histogramBucketLimit(uint32_t bucket) noexcept;

/// Sums over stripes, as readers see them.
struct TimingTotals {
  uint64_t total = 0, failed = 0, timed = 0, nanos = 0, minNanos = 0, maxNanos = 0,
           lastNanos = 0;
  int64_t lastMillis = 0;
};

/// What a step keeps besides its runs and times, all written off the per-step path: when an
/// exchange suspends in it or resumes from it (its in-flight count is the difference), when
/// it is redelivered, when it runs an exchange a broker redelivered, and the first/last
/// completed and failed stamps (of the timed exchanges for completed ones: a step's end is
/// only seen where its time is taken).
enum StepExtra : uint32_t {
  kStepSuspended,
  kStepResumed,
  kStepRedelivered,
  kStepExternallyRedelivered,
  kStepFirstCompleted,
  kStepLastCompleted,
  kStepFirstFailed,
  kStepLastFailed,
  kStepExtras
};

/// A step's extras summed over stripes.
struct StepExtraTotals {
  uint64_t inflight = 0, redeliveries = 0, externalRedeliveries = 0;
  int64_t firstCompleted = 0, lastCompleted = 0, firstFailed = 0, lastFailed = 0;
};

/// One route's cells: [stripe][0] is the route itself, [stripe][1 + i] its step i.
class RouteStatistics {
 public:
  explicit RouteStatistics(uint32_t steps);

  TimingCell& route(uint32_t stripe) noexcept { return block(stripe)[0]; }
  TimingCell& step(uint32_t stripe, uint32_t index) noexcept { return block(stripe)[1 + index]; }
  /// Step `index`'s run counter in stripe 0; stripe s is `countStride()` counters further.
  /// The counters of a route's steps are packed (8 bytes each) apart from the timing cells, so
  /// an exchange through 10 steps writes 2 cache lines of its thread's region, not 10.
  uint64_t* stepCount0(uint32_t index) noexcept { return cells_.stripe0() + counts_ + index; }
  size_t countStride() const noexcept { return cells_.stride(); }
  void record(uint32_t stripe, uint64_t ns, int64_t now_ms) noexcept;  // route time + histogram

  /// An exchange left the route (every exchange, at any level but Off): the first and last
  /// completed / failed stamps, to the exchange's creation time (no clock read).
  void stamp(uint32_t stripe, bool failed, int64_t created_ms) noexcept {
    std::atomic_ref<uint64_t> first(
        cells_.at(stripe, stamps_ + (failed ? kFirstFailed : kFirstCompleted)));
    if (first.load(std::memory_order_relaxed) == 0) {
      first.store(static_cast<uint64_t>(created_ms), std::memory_order_relaxed);
    }
    std::atomic_ref<uint64_t>(cells_.at(stripe, stamps_ + (failed ? kLastFailed : kLastCompleted)))
        .store(static_cast<uint64_t>(created_ms), std::memory_order_relaxed);
  }
  struct StampTotals {
    int64_t firstCompleted = 0, lastCompleted = 0, firstFailed = 0, lastFailed = 0;
  };
  StampTotals stamps() const noexcept;

  /// Counts one of step `index`'s extras (kStepSuspended .. kStepExternallyRedelivered).
  void countStep(uint32_t stripe, uint32_t index, StepExtra which) noexcept {
    addTo(cells_.at(stripe, extras_ + index * kStepExtras + which), 1, stripe);
  }
  /// Step `index` completed or failed an exchange created at `created_ms`.
  void stampStep(uint32_t stripe, uint32_t index, bool failed, int64_t created_ms) noexcept {
    const uint32_t base = index * kStepExtras;
    std::atomic_ref<uint64_t> first(
        cells_.at(stripe, extras_ + base + (failed ? kStepFirstFailed : kStepFirstCompleted)));
    if (first.load(std::memory_order_relaxed) == 0) {
      first.store(static_cast<uint64_t>(created_ms), std::memory_order_relaxed);
    }
    std::atomic_ref<uint64_t>(
        cells_.at(stripe, extras_ + base + (failed ? kStepLastFailed : kStepLastCompleted)))
        .store(static_cast<uint64_t>(created_ms), std::memory_order_relaxed);
  }
  StepExtraTotals stepExtras(uint32_t index) const noexcept;

  TimingTotals routeTotals() const noexcept;
  TimingTotals stepTotals(uint32_t index) const noexcept;
  /// The latency at quantile q (0..1) of the timed route exchanges, in nanoseconds (the
  /// upper bound of its bucket), 0 when none was timed.
  uint64_t quantile(double q) const noexcept;
  /// (upper bound ns, cumulative count) per non-empty bucket, for Prometheus.
  std::vector<std::pair<uint64_t, uint64_t>> cumulativeBuckets() const;
  void reset() noexcept;

  uint32_t steps() const noexcept { return steps_; }

 private:
  enum Stamp : uint32_t { kFirstCompleted, kLastCompleted, kFirstFailed, kLastFailed, kStamps };
  TimingCell* block(uint32_t stripe) noexcept {
    return reinterpret_cast<TimingCell*>(&cells_.at(stripe, 0));
  }
  const TimingCell* block(uint32_t stripe) const noexcept {
    return reinterpret_cast<const TimingCell*>(&cells_.at(stripe, 0));
  }
  TimingTotals sum(uint32_t offset) const noexcept;

  uint32_t steps_;
  uint32_t stride_;  // timing cells per stripe: the route's, then each step's
  // One region per stripe in the thread-major arena (only the stripes of threads that ran the
  // route take memory; allocated per stripe, 80 KB a route went resident at compile time: 380
  // MB per MB of route file), its parts each starting on a cache line: the timing cells
  // [cell * kTimingCellWords + word], then from these word offsets the step run counters
  // [step] (packed apart from the timing cells: striped_counter.h), the steps' extras
  // [step * kStepExtras + extra], the histogram [bucket] and the stamps [Stamp]. One region
  // rather than one each: a route holds one handle to it, not five (-160 bytes a route).
  uint32_t counts_, extras_, histogram_, stamps_;
  StripedCells cells_;
};

/// The clock of the timed exchanges: steady, in nanoseconds.
int64_t statisticsNanos() noexcept;

/// Whether an exchange created at `created_ms` is timed: with `sample` 0 (the default) at
/// most one per thread per tick of the coarse clock the exchange's creation time comes from
/// (so a quiet route has every exchange timed and a busy one pays for ~250 a second per
/// thread); 1: every exchange; N: every Nth per thread.
bool timeThisExchange(uint32_t sample, int64_t created_ms) noexcept;

}  // namespace dromedary::detail
