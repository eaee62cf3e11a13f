// SPDX-License-Identifier: Apache-2.0
#pragma once

/// VirtualScheduler: a clock that moves only when a test says so. Give it to a context before
/// it starts, and every timer, delay and scheduled behaviour follows it; `advance()` runs what
/// falls due, in time order, on the calling thread (the context's worker tasks too), so a test
/// of an hour of timers takes microseconds and never depends on the machine's speed.
///
/// Example:
///   auto clock = std::make_shared<VirtualScheduler>();
///   context.setScheduler(clock);
///   ... add a route from("timer:t?period=1m") ... start
///   clock->advance(std::chrono::hours(1));   // 60 exchanges, now
///   EXPECT_EQ(mock.receivedExchanges().size(), 60u);

#include <atomic>
#include <memory>
#include <mutex>

#include <dromedary/spi/scheduler.h>

namespace dromedary {
namespace detail {
class TimerHeap;
}

class VirtualScheduler final : public Scheduler {
 public:
  /// Starts at `epoch_millis` on the wall clock (default 2026-01-01T00:00:00Z).
  explicit VirtualScheduler(int64_t epoch_millis = 1767225600000);
  ~VirtualScheduler() override;

  TimePoint now() const noexcept override;
  int64_t epochMillis() const noexcept override;
  TimerId schedule(TimePoint when, Task task) noexcept override;
  bool cancel(TimerId id) noexcept override;
  bool runsWorkInline() const noexcept override { return true; }

  /// Moves time forward by `by`, running every task that falls due on the way, in order.
  void advance(std::chrono::nanoseconds by);
  /// Tasks scheduled and not yet run.
  size_t pending() const;

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<detail::TimerHeap> heap_;
  std::atomic<int64_t> now_ns_{0};
  int64_t epoch_millis_;
};

}  // namespace dromedary
