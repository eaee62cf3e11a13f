// SPDX-License-Identifier: Apache-2.0
#pragma once

// The timer heap both schedulers share: tasks ordered by due time (then by scheduling order),
// cancellation by id. Not thread-safe: the schedulers lock around it.

#include <algorithm>
#include <optional>
#include <vector>

#include <dromedary/spi/scheduler.h>

namespace dromedary::detail {

class TimerHeap {
 public:
  struct Entry {
    Scheduler::TimePoint when;
    Scheduler::TimerId id;
    Scheduler::Task task;
  };

  Scheduler::TimerId push(Scheduler::TimePoint when, Scheduler::Task task) {
    Scheduler::TimerId id = ++last_id_;
    entries_.push_back(Entry{when, id, task});
    std::push_heap(entries_.begin(), entries_.end(), later);
    return id;
  }

  bool cancel(Scheduler::TimerId id) noexcept {
    for (Entry& e : entries_) {
      if (e.id == id && e.task.fn) {
        e.task.fn = nullptr;  // skipped when due
        return true;
      }
    }
    return false;
  }

  /// The earliest entry's due time, if any.
  std::optional<Scheduler::TimePoint> next() const noexcept {
    if (entries_.empty()) return std::nullopt;
    return entries_.front().when;
  }

  /// Removes and returns the earliest entry when it is due at `now`.
  std::optional<Entry> popDue(Scheduler::TimePoint now) noexcept {
    while (!entries_.empty() && entries_.front().when <= now) {
      std::pop_heap(entries_.begin(), entries_.end(), later);
      Entry e = entries_.back();
      entries_.pop_back();
      if (e.task.fn) return e;
    }
    return std::nullopt;
  }

  size_t size() const noexcept { return entries_.size(); }

 private:
  static bool later(const Entry& a, const Entry& b) noexcept {
    return a.when != b.when ? a.when > b.when : a.id > b.id;
  }
  std::vector<Entry> entries_;
  Scheduler::TimerId last_id_ = 0;
};

}  // namespace dromedary::detail
