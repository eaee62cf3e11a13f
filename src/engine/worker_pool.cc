// SPDX-License-Identifier: Apache-2.0
#include "engine/worker_pool.h"

namespace dromedary::detail {

WorkerPool::~WorkerPool() {
  stopping_.store(true);
  for (size_t i = 0; i < workers_.size(); ++i) queue_.enqueue(Scheduler::Task{nullptr, nullptr});
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::start() {
  std::call_once(started_, [this] {
    workers_.reserve(threads_);
    for (size_t i = 0; i < threads_; ++i) workers_.emplace_back([this] { run(); });
  });
}

void WorkerPool::submit(Scheduler::Task task) noexcept {
  start();
  if (!queue_.enqueue(task)) task.fn(task.arg);  // out of memory: run it here rather than lose it
}

void WorkerPool::run() {
  moodycamel::ConsumerToken token(queue_);
  while (true) {
    Scheduler::Task task;
    queue_.wait_dequeue(token, task);
    if (!task.fn) return;  // the stop marker
    task.fn(task.arg);
  }
}

}  // namespace dromedary::detail
