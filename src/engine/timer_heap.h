// SPDX-License-Identifier: Apache-2.0
#pragma once

// The timer heap both schedulers share: tasks ordered by due time (then by scheduling order),
// cancellation by id. Not thread-safe: the schedulers lock around it.
//
// An indexed heap: a task lives in a slot that knows its place in the heap, and its id names
// the slot (with the slot's generation, so that an id of a task that ran or was cancelled
// never names the slot's next task). Cancelling removes the task at once, in O(log n). A heap
// that only marked cancelled tasks, found by a scan, kept every one until its due time: a
// request-reply with a 30 s timeout answered at 10,000 a second held 300,000 of them, and
// each cancel scanned them all.

#include <cstdint>
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
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.push_back(Slot{});
      // Room for every slot in the heap and the free list: nothing after this allocates, so
      // cancel and popDue cannot fail.
      heap_.reserve(slots_.capacity());
      free_.reserve(slots_.capacity());
    }
    Slot& s = slots_[slot];
    s.when = when;
    s.task = task;
    s.order = ++order_;
    s.at = static_cast<uint32_t>(heap_.size());
    heap_.push_back(slot);
    up(s.at);
    return idOf(slot);
  }

  /// False when `id` ran, was cancelled or is unknown.
  bool cancel(Scheduler::TimerId id) noexcept {
    const auto slot = static_cast<uint32_t>(id & 0xffffffffu);
    if (slot >= slots_.size()) return false;
    const Slot& s = slots_[slot];
    if (s.at == kFree || s.generation != static_cast<uint32_t>(id >> 32)) return false;
    removeAt(s.at);
    release(slot);
    return true;
  }

  /// The earliest task's due time, if any.
  std::optional<Scheduler::TimePoint> next() const noexcept {
    if (heap_.empty()) return std::nullopt;
    return slots_[heap_.front()].when;
  }

  /// Removes and returns the earliest task when it is due at `now`.
  std::optional<Entry> popDue(Scheduler::TimePoint now) noexcept {
    if (heap_.empty()) return std::nullopt;
    const uint32_t slot = heap_.front();
    const Slot& s = slots_[slot];
    if (s.when > now) return std::nullopt;
    Entry e{s.when, idOf(slot), s.task};
    removeAt(0);
    release(slot);
    return e;
  }

  size_t size() const noexcept { return heap_.size(); }

 private:
  static constexpr uint32_t kFree = ~0u;
  struct Slot {
    Scheduler::TimePoint when{};
    Scheduler::Task task{};
    uint64_t order = 0;        // scheduling order: equal due times run first-scheduled first
    uint32_t generation = 1;   // moves on when the slot is freed (never 0: ids are not 0)
    uint32_t at = kFree;       // its place in heap_, or kFree
  };

  Scheduler::TimerId idOf(uint32_t slot) const noexcept {
    return (static_cast<Scheduler::TimerId>(slots_[slot].generation) << 32) | slot;
  }
  bool earlier(uint32_t a, uint32_t b) const noexcept {
    const Slot& x = slots_[a];
    const Slot& y = slots_[b];
    return x.when != y.when ? x.when < y.when : x.order < y.order;
  }
  void place(uint32_t at, uint32_t slot) noexcept {
    heap_[at] = slot;
    slots_[slot].at = at;
  }
  void up(uint32_t at) noexcept {
    const uint32_t slot = heap_[at];
    while (at > 0) {
      const uint32_t parent = (at - 1) / 2;
      if (!earlier(slot, heap_[parent])) break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, slot);
  }
  void down(uint32_t at) noexcept {
    const uint32_t slot = heap_[at];
    const auto n = static_cast<uint32_t>(heap_.size());
    for (;;) {
      uint32_t child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && earlier(heap_[child + 1], heap_[child])) ++child;
      if (!earlier(heap_[child], slot)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, slot);
  }
  void removeAt(uint32_t at) noexcept {
    const uint32_t last = heap_.back();
    heap_.pop_back();
    if (at == heap_.size()) return;  // it was the last
    place(at, last);
    if (at > 0 && earlier(last, heap_[(at - 1) / 2])) {
      up(at);
    } else {
      down(at);
    }
  }
  void release(uint32_t slot) noexcept {
    Slot& s = slots_[slot];
    s.at = kFree;
    s.task = {};
    if (++s.generation == 0) s.generation = 1;
    free_.push_back(slot);  // within the capacity push() reserved
  }

  std::vector<Slot> slots_;
  std::vector<uint32_t> heap_;  // slots, earliest first
  std::vector<uint32_t> free_;  // slots not in use
  uint64_t order_ = 0;
};

}  // namespace dromedary::detail
