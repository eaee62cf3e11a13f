// SPDX-License-Identifier: Apache-2.0
#pragma once

// TimerLoop: the real-time Scheduler, one thread per context, started on first use. The lock
// is held to push or pop the heap, never while a task runs.

#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/timer_heap.h"

namespace dromedary::detail {

class TimerLoop final : public Scheduler {
 public:
  TimerLoop() = default;
  ~TimerLoop() override;
  /// Stops the thread: no task runs after this returns (scheduling still accepts, silently).
  void shutdown() noexcept;

  TimePoint now() const noexcept override { return Clock::now(); }
  int64_t epochMillis() const noexcept override;
  TimerId schedule(TimePoint when, Task task) noexcept override;
  bool cancel(TimerId id) noexcept override;

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  TimerHeap heap_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace dromedary::detail
