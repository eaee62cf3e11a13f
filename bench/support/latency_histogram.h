// SPDX-License-Identifier: Apache-2.0
#pragma once

// LatencyHistogram: nanosecond latencies in log-linear buckets (16 per power of two, about 4%
// wide), recorded lock-free from any thread without allocation; percentiles on demand.

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>

namespace dromedary::bench {

class LatencyHistogram {
 public:
  void record(uint64_t ns) noexcept {
    buckets_[indexOf(ns)].fetch_add(1, std::memory_order_relaxed);
  }
  /// Records the time from `begin` to now.
  void recordSince(std::chrono::steady_clock::time_point begin) noexcept {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now() - begin);
    record(static_cast<uint64_t>(ns.count()));
  }

  /// The latency below which `fraction` (0.5, 0.99, 0.999) of the samples fall, in ns (the
  /// upper edge of its bucket); 0 without samples.
  double percentile(double fraction) const noexcept {
    uint64_t total = 0;
    for (const auto& b : buckets_) total += b.load(std::memory_order_relaxed);
    if (total == 0) return 0;
    uint64_t wanted = static_cast<uint64_t>(fraction * static_cast<double>(total));
    uint64_t seen = 0;
    for (size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i].load(std::memory_order_relaxed);
      if (seen > wanted) return static_cast<double>(upperEdge(i));
    }
    return static_cast<double>(upperEdge(buckets_.size() - 1));
  }

  void reset() noexcept {
    for (auto& b : buckets_) b.store(0, std::memory_order_relaxed);
  }

 private:
  static constexpr int kSubBits = 4;  // 16 buckets per octave
  static size_t indexOf(uint64_t ns) noexcept {
    if (ns < (1u << kSubBits)) return static_cast<size_t>(ns);
    int octave = 63 - std::countl_zero(ns);  // >= kSubBits
    uint64_t sub = (ns >> (octave - kSubBits)) & ((1u << kSubBits) - 1);
    return static_cast<size_t>((octave - kSubBits + 1) * (1 << kSubBits)) + sub;
  }
  static uint64_t upperEdge(size_t index) noexcept {
    if (index < (1u << kSubBits)) return index;
    size_t octave = index / (1 << kSubBits) + kSubBits - 1;
    uint64_t sub = index % (1 << kSubBits);
    return ((uint64_t{1} << kSubBits) + sub + 1) << (octave - kSubBits);
  }

  std::array<std::atomic<uint64_t>, (64 - kSubBits + 1) * (1 << kSubBits)> buckets_{};
};

}  // namespace dromedary::bench
