// SPDX-License-Identifier: Apache-2.0
#pragma once
// OneShotEvent: one thread waits until another signals, with no lock on either side.
//
// A synchronous send whose exchange suspended waits on one of these until the thread that
// completes the exchange (a broker connection's, a timer's) signals it. With a mutex and a
// condition variable the woken thread would first block on the mutex the signaller still
// holds: two more context switches per message with many producer threads. Here the
// signaller makes one system call, and none when the waiter has not gone to sleep yet.
#include <atomic>
#include <cstdint>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace dromedary::detail {

class OneShotEvent {
 public:
  /// Arms the event for the next wait. Only the waiting thread calls it, before handing the
  /// work to whoever will signal.
  void reset() noexcept { state_.store(kIdle, std::memory_order_relaxed); }

  /// Returns once signal() has been called since the last reset().
  void wait() noexcept {
    uint32_t s = kIdle;
    if (!state_.compare_exchange_strong(s, kSleeping, std::memory_order_acquire)) return;
    while (state_.load(std::memory_order_acquire) == kSleeping) sleepWhile(kSleeping);
  }

  /// Wakes the waiter. After the exchange the event may be gone (the waiter returns and may
  /// exit), so only its address is used: a futex wake on an address no one waits on is
  /// harmless.
  void signal() noexcept {
    if (state_.exchange(kSignalled, std::memory_order_acq_rel) == kSleeping) wake();
  }

 private:
  static constexpr uint32_t kIdle = 0;
  static constexpr uint32_t kSignalled = 1;
  static constexpr uint32_t kSleeping = 2;

#if defined(__linux__)
  void sleepWhile(uint32_t value) noexcept {
    // Returns at once when the value has changed, on a wake, or spuriously: the caller
    // checks again.
    syscall(SYS_futex, &state_, FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
  }
  void wake() noexcept { syscall(SYS_futex, &state_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0); }
#else
  void sleepWhile(uint32_t value) noexcept { state_.wait(value, std::memory_order_acquire); }
  void wake() noexcept { state_.notify_one(); }
#endif

  std::atomic<uint32_t> state_{kIdle};
};

}  // namespace dromedary::detail
