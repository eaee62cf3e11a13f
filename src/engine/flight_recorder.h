// SPDX-License-Identifier: Apache-2.0
#pragma once

// A route's flight recorder (flight_recorder.h in include/ says what it keeps and why). Two
// rings of fixed slots in reserved memory (an anonymous mapping: zero until written, and
// resident only where a route recorded), so that recording never allocates and a route that
// never runs costs no memory. Behind a spin lock: only timed and failed exchanges record, for
// about a microsecond's copying, so the lock is met by a few hundred exchanges a second per
// thread at most, and a reader never sees a torn slot.

#include <dromedary/core/exchange.h>
#include <dromedary/engine/flight_recorder.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

namespace dromedary::detail {

class FlightRecorder {
 public:
  explicit FlightRecorder(uint32_t capacity);
  ~FlightRecorder();
  FlightRecorder(const FlightRecorder&) = delete;
  FlightRecorder& operator=(const FlightRecorder&) = delete;

  /// `exchange` left the route: completed (timed, `elapsed_ns` its time) or failed.
  void record(Exchange& exchange, bool failed, uint64_t elapsed_ns, int64_t now_ms) noexcept;
  /// What it holds, oldest first, each named with `route_id`.
  RecentExchanges snapshot(std::string_view route_id) const;
  uint32_t capacity() const noexcept { return capacity_; }

  struct Slot;

 private:
  void lock() const noexcept;
  void unlock() const noexcept { lock_.clear(std::memory_order_release); }

  const uint32_t capacity_;
  mutable std::atomic_flag lock_ = ATOMIC_FLAG_INIT;
  Slot* completed_ = nullptr;  // capacity_ slots each, in the slot arena
  Slot* failed_ = nullptr;
  uint64_t completedCount_ = 0;
  uint64_t failedCount_ = 0;
};

}  // namespace dromedary::detail
