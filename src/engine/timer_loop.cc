// SPDX-License-Identifier: Apache-2.0
#include "engine/timer_loop.h"

namespace dromedary::detail {

TimerLoop::~TimerLoop() { shutdown(); }

void TimerLoop::shutdown() noexcept {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

int64_t TimerLoop::epochMillis() const noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Scheduler::TimerId TimerLoop::schedule(TimePoint when, Task task) noexcept {
  TimerId id;
  bool earliest;
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable() && !stopping_) thread_ = std::thread([this] { run(); });
    try {
      id = heap_.push(when, task);
    } catch (...) {
      return 0;  // out of memory: the caller's task never runs (as if cancelled)
    }
    earliest = heap_.next() == when;
  }
  if (earliest) wake_.notify_one();
  return id;
}

bool TimerLoop::cancel(TimerId id) noexcept {
  std::lock_guard lock(mutex_);
  return heap_.cancel(id);
}

void TimerLoop::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (auto due = heap_.popDue(Clock::now())) {
      lock.unlock();
      due->task.fn(due->task.arg);
      lock.lock();
      continue;
    }
    if (auto next = heap_.next()) {
      wake_.wait_until(lock, *next);
    } else {
      wake_.wait(lock);
    }
  }
}

}  // namespace dromedary::detail
