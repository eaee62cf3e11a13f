// SPDX-License-Identifier: Apache-2.0
#pragma once

// Counters striped per thread: each thread writes its own cache-line-padded stripe with a
// plain load and store (no lock prefix, no shared cache line); readers sum the stripes.
// Threads get a stripe index on first use and return it when they exit. Should more
// threads be alive than there are private stripes, the extra ones share the last stripe
// and update it with atomic adds, which stays correct, only slower.

#include <atomic>
#include <cstdint>
#include <memory>

namespace dromedary {

inline constexpr uint32_t kStripes = 64;
inline constexpr uint32_t kSharedStripe = kStripes - 1;

/// This thread's stripe index in [0, kStripes).
uint32_t threadStripe() noexcept;

inline void bumpCounter(std::atomic<uint64_t>& counter, uint32_t stripe) noexcept {
  if (stripe == kSharedStripe) {
    counter.fetch_add(1, std::memory_order_relaxed);
  } else {
    counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
}

/// Exchanges started, completed and failed in one route.
class RouteCounters {
 public:
  RouteCounters() : stripes_(new Stripe[kStripes]) {}

  void started() noexcept {
    uint32_t s = threadStripe();
    bumpCounter(stripes_[s].started, s);
  }
  void finished(bool failed) noexcept {
    uint32_t s = threadStripe();
    bumpCounter(failed ? stripes_[s].failed : stripes_[s].completed, s);
  }

  // The failure path's counters: striped too, so a storm of failures scales as well.
  void redelivered() noexcept {
    uint32_t s = threadStripe();
    bumpCounter(stripes_[s].redeliveries, s);
  }
  void failureHandled() noexcept {
    uint32_t s = threadStripe();
    bumpCounter(stripes_[s].failures_handled, s);
  }
  void deadLetterFailed() noexcept {
    uint32_t s = threadStripe();
    bumpCounter(stripes_[s].dead_letter_failures, s);
  }

  uint64_t started_total() const noexcept { return sum(&Stripe::started); }
  uint64_t redeliveries_total() const noexcept { return sum(&Stripe::redeliveries); }
  uint64_t failures_handled_total() const noexcept { return sum(&Stripe::failures_handled); }
  uint64_t dead_letter_failures_total() const noexcept {
    return sum(&Stripe::dead_letter_failures);
  }
  uint64_t completed_total() const noexcept { return sum(&Stripe::completed); }
  uint64_t failed_total() const noexcept { return sum(&Stripe::failed); }
  /// Derived: started - completed - failed (never a shared in-flight counter).
  uint64_t inflight() const noexcept {
    // Read the finishing counts first: a racing exchange can then only raise `started`.
    uint64_t done = completed_total() + failed_total();
    uint64_t begun = started_total();
    return begun > done ? begun - done : 0;
  }

 private:
  struct alignas(64) Stripe {
    std::atomic<uint64_t> started{0};
    std::atomic<uint64_t> completed{0};
    std::atomic<uint64_t> failed{0};
    std::atomic<uint64_t> redeliveries{0};
    std::atomic<uint64_t> failures_handled{0};
    std::atomic<uint64_t> dead_letter_failures{0};
  };
  uint64_t sum(std::atomic<uint64_t> Stripe::*field) const noexcept {
    uint64_t total = 0;
    for (uint32_t i = 0; i < kStripes; ++i) {
      total += (stripes_[i].*field).load(std::memory_order_relaxed);
    }
    return total;
  }
  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace dromedary
