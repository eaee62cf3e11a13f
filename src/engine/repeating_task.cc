// SPDX-License-Identifier: Apache-2.0
#include <dromedary/spi/repeating_task.h>

#include <dromedary/engine/context.h>

namespace dromedary {

void RepeatingTask::start(Scheduler::TimePoint first) noexcept {
  stopping_.store(false, std::memory_order_release);
  scheduleAt(first);
}

void RepeatingTask::stop() noexcept {
  stopping_.store(true, std::memory_order_release);
  std::lock_guard lock(mutex_);
  if (scheduled_ != 0 && context_.scheduler().cancel(scheduled_)) release();
  scheduled_ = 0;
}

void RepeatingTask::scheduleAt(Scheduler::TimePoint when) noexcept {
  if (stopping()) return;
  std::lock_guard lock(mutex_);
  retain();
  scheduled_ = context_.scheduler().schedule(when, {&onTimer, this});
  if (scheduled_ == 0) release();  // could not schedule (out of memory): the task stops
}

// On the scheduler's thread: hand the run to a worker.
void RepeatingTask::onTimer(void* arg) noexcept {
  auto* self = static_cast<RepeatingTask*>(arg);
  {
    std::lock_guard lock(self->mutex_);
    self->scheduled_ = 0;
  }
  if (self->stopping()) return self->release();
  self->context_.submit({&onWorker, self});
}

void RepeatingTask::onWorker(void* arg) noexcept {
  auto* self = static_cast<RepeatingTask*>(arg);
  if (self->stopping()) return self->release();
  self->run();
}

}  // namespace dromedary
