// SPDX-License-Identifier: Apache-2.0
#pragma once

/// RepeatingTask: work a consumer runs again and again on the context's scheduler (a timer's
/// fires, a folder's polls). A run is scheduled for a time, handed to a worker when it comes
/// (the scheduler's thread only hands over), and schedules the next one when its work is done,
/// so runs of one task never overlap. Reference-counted by hand, so that handing it to the
/// scheduler allocates nothing: each scheduled or running run holds a reference, the owner
/// (the consumer) another; the last release() deletes it.
///
/// Example:
///   class Poll final : public RepeatingTask {
///     using RepeatingTask::RepeatingTask;
///     void run() noexcept override {
///       ... the work ...
///       scheduleAt(context().scheduler().now() + std::chrono::seconds(1));
///       release();  // this run's reference
///     }
///   };
///   auto* poll = new Poll(context);  // the owner's reference
///   poll->start(context.scheduler().now());
///   ...
///   poll->stop();
///   poll->release();

#include <atomic>
#include <mutex>

#include <dromedary/spi/scheduler.h>

namespace dromedary {

class Context;

class RepeatingTask {
 public:
  explicit RepeatingTask(Context& context) noexcept : context_(context) {}
  RepeatingTask(const RepeatingTask&) = delete;
  RepeatingTask& operator=(const RepeatingTask&) = delete;

  /// Schedules the first run at `first` (again after a stop()).
  void start(Scheduler::TimePoint first) noexcept;
  /// No run starts after this; a scheduled one is cancelled (a running one finishes).
  void stop() noexcept;
  bool stopping() const noexcept { return stopping_.load(std::memory_order_acquire); }

  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 protected:
  virtual ~RepeatingTask() = default;
  /// One run, on a worker, holding a reference it gives back with release() once its work is
  /// done (it may end later, on another thread: when an exchange it sent completes).
  virtual void run() noexcept = 0;
  /// Schedules the next run at `when` (nothing when stopping).
  void scheduleAt(Scheduler::TimePoint when) noexcept;
  Context& context() const noexcept { return context_; }

 private:
  static void onTimer(void* self) noexcept;
  static void onWorker(void* self) noexcept;

  Context& context_;
  std::atomic<int> refs_{1};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  Scheduler::TimerId scheduled_ = 0;
};

}  // namespace dromedary
