// SPDX-License-Identifier: Apache-2.0
#include "engine/statistics.h"

#include <algorithm>
#include <bit>
#include <chrono>

namespace dromedary::detail {

void TimingCell::reset() noexcept {
  // Only words written: a stripe no thread used keeps its pages unmapped.
  for (uint64_t* w : {&failed, &timed, &nanos, &minBelowMax, &maxNanos, &lastNanos, &lastMillis}) {
    if (loadWord(*w) != 0) storeWord(*w, 0);
  }
}

uint32_t histogramBucket(uint64_t ns) noexcept {
  if (ns < 4) return static_cast<uint32_t>(ns);
  // 4 buckets per power of two: the exponent, then the next two bits.
  uint32_t exponent = 63 - static_cast<uint32_t>(std::countl_zero(ns));
  uint32_t sub = static_cast<uint32_t>((ns >> (exponent - 2)) & 3);
  uint32_t bucket = (exponent - 1) * 4 + sub;
  return std::min(bucket, kHistogramBuckets - 1);
}

uint64_t histogramBucketLimit(uint32_t bucket) noexcept {
  if (bucket < 4) return bucket;
  uint32_t exponent = bucket / 4 + 1;
  uint64_t sub = bucket % 4;
  // The bucket holds [(4 + sub) << (exponent - 2), (5 + sub) << (exponent - 2)).
  return ((5 + sub) << (exponent - 2)) - 1;
}

namespace {
constexpr uint32_t kLineWords = 8;  // each part of a route's region starts on a cache line
constexpr uint32_t lineUp(uint32_t words) {
  return (words + kLineWords - 1) / kLineWords * kLineWords;
}
}  // namespace

RouteStatistics::RouteStatistics(uint32_t steps)
    : steps_(steps),
      stride_(1 + steps),
      counts_(lineUp(kTimingCellWords * (1 + steps))),
      extras_(counts_ + lineUp(steps)),
      histogram_(extras_ + lineUp(steps * kStepExtras)),
      stamps_(histogram_ + lineUp(kHistogramBuckets)),
      cells_(stamps_ + kStamps) {}

void RouteStatistics::record(uint32_t stripe, uint64_t ns, int64_t now_ms) noexcept {
  route(stripe).time(ns, now_ms);
  addTo(cells_.at(stripe, histogram_ + histogramBucket(ns)), 1, stripe);
}

TimingTotals RouteStatistics::sum(uint32_t offset) const noexcept {
  TimingTotals t;
  uint64_t min = UINT64_MAX;
  for (uint32_t s = 0; s < kStripes; ++s) {
    const TimingCell& c = block(s)[offset];
    t.failed += loadWord(c.failed);
    uint64_t timed = loadWord(c.timed);
    if (timed == 0) continue;
    t.timed += timed;
    t.nanos += loadWord(c.nanos);
    min = std::min(min, UINT64_MAX - loadWord(c.minBelowMax));
    t.maxNanos = std::max(t.maxNanos, loadWord(c.maxNanos));
    auto last = static_cast<int64_t>(loadWord(c.lastMillis));
    if (last >= t.lastMillis) {
      t.lastMillis = last;
      t.lastNanos = loadWord(c.lastNanos);
    }
  }
  t.minNanos = t.timed ? min : 0;
  return t;
}

RouteStatistics::StampTotals RouteStatistics::stamps() const noexcept {
  StampTotals t;
  auto at = [&](uint32_t s, Stamp which) {
    return static_cast<int64_t>(
        std::atomic_ref<uint64_t>(cells_.at(s, stamps_ + which)).load(std::memory_order_relaxed));
  };
  for (uint32_t s = 0; s < kStripes; ++s) {
    t.firstCompleted = earliestStamp(t.firstCompleted, at(s, kFirstCompleted));
    t.firstFailed = earliestStamp(t.firstFailed, at(s, kFirstFailed));
    t.lastCompleted = std::max(t.lastCompleted, at(s, kLastCompleted));
    t.lastFailed = std::max(t.lastFailed, at(s, kLastFailed));
  }
  return t;
}

StepExtraTotals RouteStatistics::stepExtras(uint32_t index) const noexcept {
  StepExtraTotals t;
  const uint32_t base = index * kStepExtras;
  auto at = [&](uint32_t s, uint32_t which) {
    return std::atomic_ref<uint64_t>(cells_.at(s, extras_ + base + which))
        .load(std::memory_order_relaxed);
  };
  uint64_t suspended = 0, resumed = 0;
  for (uint32_t s = 0; s < kStripes; ++s) {
    suspended += at(s, kStepSuspended);
    resumed += at(s, kStepResumed);
    t.redeliveries += at(s, kStepRedelivered);
    t.externalRedeliveries += at(s, kStepExternallyRedelivered);
    t.firstCompleted =
        earliestStamp(t.firstCompleted, static_cast<int64_t>(at(s, kStepFirstCompleted)));
    t.firstFailed = earliestStamp(t.firstFailed, static_cast<int64_t>(at(s, kStepFirstFailed)));
    t.lastCompleted = std::max(t.lastCompleted, static_cast<int64_t>(at(s, kStepLastCompleted)));
    t.lastFailed = std::max(t.lastFailed, static_cast<int64_t>(at(s, kStepLastFailed)));
  }
  // Read in this order, a racing exchange can only make it look resumed late, never early.
  t.inflight = suspended > resumed ? suspended - resumed : 0;
  return t;
}

TimingTotals RouteStatistics::routeTotals() const noexcept { return sum(0); }
TimingTotals RouteStatistics::stepTotals(uint32_t index) const noexcept {
  TimingTotals t = sum(1 + index);
  t.total += cells_.sum(counts_ + index);
  return t;
}

std::vector<std::pair<uint64_t, uint64_t>> RouteStatistics::cumulativeBuckets() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  uint64_t running = 0;
  for (uint32_t b = 0; b < kHistogramBuckets; ++b) {
    uint64_t n = cells_.sum(histogram_ + b);
    if (n == 0) continue;
    running += n;
    out.emplace_back(histogramBucketLimit(b), running);
  }
  return out;
}

uint64_t RouteStatistics::quantile(double q) const noexcept {
  auto buckets = cumulativeBuckets();
  if (buckets.empty()) return 0;
  uint64_t total = buckets.back().second;
  auto rank = static_cast<uint64_t>(q * static_cast<double>(total) + 0.5);
  rank = std::clamp<uint64_t>(rank, 1, total);
  for (const auto& [limit, cumulative] : buckets) {
    if (cumulative >= rank) return limit;
  }
  return buckets.back().first;
}

void RouteStatistics::reset() noexcept {
  cells_.reset(counts_, steps_);
  // Every extra but the suspended/resumed pair, whose difference is the in-flight count.
  for (uint32_t s = 0; s < kStripes; ++s) {
    for (uint32_t i = 0; i < steps_ * kStepExtras; ++i) {
      if (i % kStepExtras == kStepSuspended || i % kStepExtras == kStepResumed) continue;
      std::atomic_ref<uint64_t> cell(cells_.at(s, extras_ + i));
      if (cell.load(std::memory_order_relaxed) != 0) cell.store(0, std::memory_order_relaxed);
    }
  }
  for (uint32_t s = 0; s < kStripes; ++s) {
    for (uint32_t i = 0; i < stride_; ++i) block(s)[i].reset();
  }
  cells_.reset(histogram_, kHistogramBuckets);
  cells_.reset(stamps_, kStamps);
}

int64_t statisticsNanos() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool timeThisExchange(uint32_t sample, int64_t created_ms) noexcept {
  if (sample == 1) return true;
  if (sample == 0) {
    thread_local int64_t last_ms = 0;
    if (created_ms == last_ms) return false;
    last_ms = created_ms;
    return true;
  }
  thread_local uint32_t counter = 0;
  if (++counter < sample) return false;
  counter = 0;
  return true;
}

}  // namespace dromedary::detail
