// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Scheduler: the one clock and timer service of a context. Every time-based behaviour
/// (timer, delay, and later throttling, redelivery back-off and aggregation timeouts) reads
/// `now()` and schedules through it, so a test can swap in a VirtualScheduler and advance an
/// hour in microseconds, deterministically.
///
/// A scheduled task is a function pointer and an argument: scheduling allocates nothing once
/// the timer heap has grown. Tasks run on the scheduler's thread and must be short: real work
/// goes to the context's workers (Context::submit).
///
/// Example (a step that parks the exchange for 500 ms without holding a thread):
///   static void wake(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }
///   Status run(Exchange& ex) noexcept override {
///     Scheduler& s = ex.context()->scheduler();
///     s.schedule(s.now() + std::chrono::milliseconds(500), {&wake, &ex});
///     return Status::Suspend;
///   }

#include <chrono>
#include <cstdint>

namespace dromedary {

class Scheduler {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;
  using TimerId = uint64_t;
  struct Task {
    void (*fn)(void* arg) noexcept;
    void* arg;
  };

  virtual ~Scheduler() = default;

  /// The current time on this scheduler's clock.
  virtual TimePoint now() const noexcept = 0;
  /// Milliseconds since the epoch on this scheduler's clock (what timers stamp messages with).
  virtual int64_t epochMillis() const noexcept = 0;
  /// Runs `task` at `when` (at once when it is past). Thread-safe.
  virtual TimerId schedule(TimePoint when, Task task) noexcept = 0;
  /// Cancels a task that has not run yet; false when it ran or was unknown.
  virtual bool cancel(TimerId id) noexcept = 0;
  /// True for schedulers that run tasks and the context's worker tasks on the thread that
  /// drives time (VirtualScheduler), which makes a test deterministic.
  virtual bool runsWorkInline() const noexcept { return false; }

  TimerId scheduleAfter(std::chrono::nanoseconds delay, Task task) noexcept {
    return schedule(now() + std::chrono::duration_cast<Clock::duration>(delay), task);
  }

  /// The longest delay taken: about a century. A longer one (a route's delay of
  /// Long.MAX_VALUE ms) is this one: as a time in nanoseconds it would overflow, come out
  /// negative and fire at once.
  static constexpr int64_t kMaxDelayMillis = int64_t{100} * 365 * 24 * 3600 * 1000;

  /// Runs `task` after `millis` milliseconds: at once when not positive, after
  /// kMaxDelayMillis at most.
  TimerId scheduleAfterMillis(int64_t millis, Task task) noexcept {
    if (millis < 0) millis = 0;
    if (millis > kMaxDelayMillis) millis = kMaxDelayMillis;
    return scheduleAfter(std::chrono::milliseconds(millis), task);
  }
};

}  // namespace dromedary
