// SPDX-License-Identifier: Apache-2.0
// TimerHeap: the schedulers' tasks in due-time order, cancelled at once by id.
#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "engine/timer_heap.h"

namespace dromedary::detail {
namespace {

using namespace std::chrono_literals;

Scheduler::TimePoint at(int ms) { return Scheduler::TimePoint(std::chrono::milliseconds(ms)); }

void noop(void*) noexcept {}

// The arg of each task popped due at `now`, in order.
std::vector<intptr_t> popAll(TimerHeap& heap, Scheduler::TimePoint now) {
  std::vector<intptr_t> out;
  while (auto e = heap.popDue(now)) out.push_back(reinterpret_cast<intptr_t>(e->task.arg));
  return out;
}

Scheduler::Task task(intptr_t n) { return {&noop, reinterpret_cast<void*>(n)}; }

TEST(TimerHeapTest, TasksComeDueInTimeOrderAndEqualTimesInSchedulingOrder) {
  TimerHeap heap;
  heap.push(at(30), task(3));
  heap.push(at(10), task(1));
  heap.push(at(20), task(21));
  heap.push(at(20), task(22));
  EXPECT_EQ(heap.next(), at(10));
  EXPECT_TRUE(popAll(heap, at(5)).empty());
  EXPECT_EQ(popAll(heap, at(20)), (std::vector<intptr_t>{1, 21, 22}));
  EXPECT_EQ(popAll(heap, at(100)), (std::vector<intptr_t>{3}));
  EXPECT_FALSE(heap.next());
}

TEST(TimerHeapTest, ACancelledTaskIsGoneAtOnceAndItsIdCancelsNothingLater) {
  TimerHeap heap;
  auto a = heap.push(at(10), task(1));
  auto b = heap.push(at(20), task(2));
  EXPECT_TRUE(heap.cancel(a));
  EXPECT_EQ(heap.size(), 1u);
  EXPECT_FALSE(heap.cancel(a));  // twice
  auto c = heap.push(at(5), task(3));  // takes a's slot
  EXPECT_NE(c, a);
  EXPECT_FALSE(heap.cancel(a));  // a's id does not name c
  EXPECT_EQ(popAll(heap, at(100)), (std::vector<intptr_t>{3, 2}));
  EXPECT_FALSE(heap.cancel(b));  // ran
  EXPECT_FALSE(heap.cancel(0));
  EXPECT_FALSE(heap.cancel(12345));
}

// The shape of a request-reply with a timeout: each request schedules its timeout and its
// answer cancels it. The heap holds what is outstanding, not every timeout ever scheduled.
TEST(TimerHeapTest, TimeoutsCancelledByTheirAnswersDoNotPileUp) {
  TimerHeap heap;
  for (int i = 0; i < 100000; ++i) {
    auto id = heap.push(at(30000 + i), task(i));
    ASSERT_TRUE(heap.cancel(id));
  }
  EXPECT_EQ(heap.size(), 0u);
}

TEST(TimerHeapTest, RandomPushesAndCancelsComeDueInOrder) {
  TimerHeap heap;
  std::mt19937 random(7);
  std::vector<std::pair<int, Scheduler::TimerId>> live;  // due ms, id
  for (int i = 0; i < 5000; ++i) {
    if (!live.empty() && random() % 3 == 0) {
      size_t k = random() % live.size();
      ASSERT_TRUE(heap.cancel(live[k].second));
      live.erase(live.begin() + static_cast<ptrdiff_t>(k));
    } else {
      int due = static_cast<int>(random() % 1000);
      live.emplace_back(due, heap.push(at(due), task(due)));
    }
  }
  ASSERT_EQ(heap.size(), live.size());
  std::vector<intptr_t> popped = popAll(heap, at(1000));
  ASSERT_EQ(popped.size(), live.size());
  EXPECT_TRUE(std::is_sorted(popped.begin(), popped.end()));
}

}  // namespace
}  // namespace dromedary::detail
