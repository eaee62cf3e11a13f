// SPDX-License-Identifier: Apache-2.0
#pragma once

// Counters striped per thread: each thread writes its own stripe with a plain load and
// store (no lock prefix, no shared cache line); readers sum the stripes.
// Threads get a stripe index on first use and return it when they exit. Should more
// threads be alive than there are private stripes, the extra ones share the last stripe
// and update it with atomic adds, which stays correct, only slower.
//
// The cells are laid out thread-major (StripedCells): stripe s of every route lies in a
// region of its own, 64 KiB from the next stripe's. Padding each stripe to cache lines was
// not enough (measured: two threads through a 10-step route did 0.78x the work per CPU-second
// of one thread with the stripes side by side, even 128-byte aligned; 1.0x once 1 KiB apart).
// Likely the L2 streamer: a route's step counters are written in order, and the prefetcher
// takes the lines after them, which were the next thread's stripe.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace dromedary {

inline constexpr uint32_t kStripes = 64;
inline constexpr uint32_t kSharedStripe = kStripes - 1;

namespace detail {
inline constexpr uint32_t kNoStripe = ~0u;
/// The calling thread's stripe once it has one; constant-initialized, so reading it is a
/// plain thread-local load.
inline thread_local uint32_t t_stripe = kNoStripe;
uint32_t assignThreadStripe() noexcept;
}  // namespace detail

/// This thread's stripe index in [0, kStripes) (taken on its first call; given back when the
/// thread ends).
inline uint32_t threadStripe() noexcept {
  const uint32_t s = detail::t_stripe;
  if (s != detail::kNoStripe) [[likely]] return s;
  return detail::assignThreadStripe();
}

/// Adds `n` to this thread's cell: a plain load and store, or an atomic add on the shared
/// stripe.
inline void addTo(uint64_t& cell, uint64_t n, uint32_t stripe) noexcept {
  std::atomic_ref<uint64_t> c(cell);
  if (stripe == kSharedStripe) {
    c.fetch_add(n, std::memory_order_relaxed);
  } else {
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
}

/// `count` counters per stripe, zero at first; stripe s's counter i is
/// `stripe0()[s * stride() + i]`. The memory is reserved for all stripes but only the pages a
/// thread writes become resident.
class StripedCells {
 public:
  explicit StripedCells(uint32_t count);
  ~StripedCells();
  StripedCells(const StripedCells&) = delete;
  StripedCells& operator=(const StripedCells&) = delete;

  uint64_t* stripe0() const noexcept { return base_; }
  size_t stride() const noexcept { return stride_; }
  uint64_t& at(uint32_t stripe, uint32_t i) const noexcept { return base_[stripe * stride_ + i]; }
  /// Counter i summed over the stripes.
  uint64_t sum(uint32_t i) const noexcept;
  /// Zeroes every counter (racing increments may survive: statistics reset semantics).
  void reset() noexcept { reset(0, count_); }
  /// Zeroes counters [first, first + count).
  void reset(uint32_t first, uint32_t count) noexcept;

 private:
  uint64_t* base_;
  size_t stride_;   // counters from one stripe to the next
  size_t bytes_;    // per stripe, as reserved
  uint32_t count_;
  void* chunk_;     // where it lives in the arena (striped_counter.cc)
};

/// Exchanges started, completed and failed in one route.
class RouteCounters {
 public:
  RouteCounters() : cells_(kCount) {}

  void started() noexcept { bump(kStarted); }
  void finished(bool failed) noexcept { bump(failed ? kFailed : kCompleted); }
  // The failure path's counters: striped too, so a storm of failures scales as well.
  void redelivered() noexcept { bump(kRedeliveries); }
  void failureHandled() noexcept { bump(kFailuresHandled); }
  void deadLetterFailed() noexcept { bump(kDeadLetterFailures); }
  void externallyRedelivered() noexcept { bump(kExternalRedeliveries); }

  uint64_t started_total() const noexcept { return cells_.sum(kStarted); }
  uint64_t redeliveries_total() const noexcept { return cells_.sum(kRedeliveries); }
  uint64_t failures_handled_total() const noexcept { return cells_.sum(kFailuresHandled); }
  uint64_t dead_letter_failures_total() const noexcept {
    return cells_.sum(kDeadLetterFailures);
  }
  uint64_t external_redeliveries_total() const noexcept {
    return cells_.sum(kExternalRedeliveries);
  }
  uint64_t completed_total() const noexcept { return cells_.sum(kCompleted); }
  uint64_t failed_total() const noexcept { return cells_.sum(kFailed); }
  /// Derived: started - completed - failed (never a shared in-flight counter).
  uint64_t inflight() const noexcept {
    // Read the finishing counts first: a racing exchange can then only raise `started`.
    uint64_t done = completed_total() + failed_total();
    uint64_t begun = started_total();
    return begun > done ? begun - done : 0;
  }

 private:
  enum : uint32_t {
    kStarted,
    kCompleted,
    kFailed,
    kRedeliveries,
    kFailuresHandled,
    kDeadLetterFailures,
    kExternalRedeliveries,
    kCount
  };
  void bump(uint32_t which) noexcept {
    uint32_t s = threadStripe();
    addTo(cells_.at(s, which), 1, s);
  }

  StripedCells cells_;
};

}  // namespace dromedary
