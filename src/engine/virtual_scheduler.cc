// SPDX-License-Identifier: Apache-2.0
#include <dromedary/engine/virtual_scheduler.h>

#include "engine/timer_heap.h"

namespace dromedary {

VirtualScheduler::VirtualScheduler(int64_t epoch_millis)
    : heap_(std::make_unique<detail::TimerHeap>()), epoch_millis_(epoch_millis) {}

VirtualScheduler::~VirtualScheduler() = default;

Scheduler::TimePoint VirtualScheduler::now() const noexcept {
  return TimePoint(std::chrono::nanoseconds(now_ns_.load(std::memory_order_acquire)));
}

int64_t VirtualScheduler::epochMillis() const noexcept {
  return epoch_millis_ + now_ns_.load(std::memory_order_acquire) / 1'000'000;
}

Scheduler::TimerId VirtualScheduler::schedule(TimePoint when, Task task) noexcept {
  std::lock_guard lock(mutex_);
  try {
    return heap_->push(when, task);
  } catch (...) {
    return 0;
  }
}

bool VirtualScheduler::cancel(TimerId id) noexcept {
  std::lock_guard lock(mutex_);
  return heap_->cancel(id);
}

void VirtualScheduler::advance(std::chrono::nanoseconds by) {
  const TimePoint target = now() + by;
  while (true) {
    std::optional<detail::TimerHeap::Entry> due;
    {
      std::lock_guard lock(mutex_);
      due = heap_->popDue(target);
      if (due) {
        int64_t at = due->when.time_since_epoch().count();
        if (at > now_ns_.load()) now_ns_.store(at, std::memory_order_release);
      }
    }
    if (!due) break;
    due->task.fn(due->task.arg);  // may schedule more, due before target: the loop runs them
  }
  now_ns_.store(target.time_since_epoch().count(), std::memory_order_release);
}

size_t VirtualScheduler::pending() const {
  std::lock_guard lock(mutex_);
  return heap_->size();
}

}  // namespace dromedary
