// SPDX-License-Identifier: Apache-2.0
#pragma once

// WorkerPool: the context's worker threads (as many as cores by default), started on first
// use. Tasks travel through a lock-free MPMC queue (moodycamel); submitting takes no lock
// and, once the queue's blocks exist, allocates nothing.

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include <concurrentqueue/blockingconcurrentqueue.h>

#include <dromedary/spi/scheduler.h>

namespace dromedary::detail {

class WorkerPool {
 public:
  explicit WorkerPool(size_t threads) : threads_(threads == 0 ? 1 : threads) {}
  ~WorkerPool();

  void submit(Scheduler::Task task) noexcept;
  /// Tasks waiting for a thread (approximate: a lock-free queue's count).
  size_t queued() const noexcept { return queue_.size_approx(); }

 private:
  void start();
  void run();

  size_t threads_;
  std::once_flag started_;
  std::atomic<bool> stopping_{false};
  moodycamel::BlockingConcurrentQueue<Scheduler::Task> queue_;
  std::vector<std::thread> workers_;
};

}  // namespace dromedary::detail
