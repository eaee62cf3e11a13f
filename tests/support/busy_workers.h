// SPDX-License-Identifier: Apache-2.0
#pragma once

// BusyWorkers: takes every worker thread of a context until released, to show which routes
// still run (those on an I/O thread) and which wait for a worker. The constructor returns
// only once each hold is running: the worker queue is not FIFO across submitting threads, so
// a hold still queued could be overtaken by the work the test means to keep waiting.

#include <atomic>

#include <dromedary/engine/context.h>

namespace dromedary::testing {

class BusyWorkers {
 public:
  BusyWorkers(Context& context, int workers) {
    for (int i = 0; i < workers; ++i) context.submit({&BusyWorkers::hold, this});
    for (int seen = running_.load(); seen < workers; seen = running_.load()) {
      running_.wait(seen);
    }
  }
  ~BusyWorkers() { release(); }
  BusyWorkers(const BusyWorkers&) = delete;
  BusyWorkers& operator=(const BusyWorkers&) = delete;

  void release() {
    released_ = true;
    released_.notify_all();
  }

 private:
  static void hold(void* self) noexcept {
    auto* busy = static_cast<BusyWorkers*>(self);
    busy->running_.fetch_add(1);
    busy->running_.notify_all();
    busy->released_.wait(false);
  }

  std::atomic<int> running_{0};
  std::atomic<bool> released_{false};
};

}  // namespace dromedary::testing
