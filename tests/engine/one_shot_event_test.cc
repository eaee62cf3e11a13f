// SPDX-License-Identifier: Apache-2.0
// OneShotEvent: how a synchronous send waits for an exchange that completes on another thread.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "engine/one_shot_event.h"

namespace dromedary::detail {
namespace {

TEST(OneShotEventTest, ASignalBeforeTheWaitIsNotLost) {
  OneShotEvent e;
  e.reset();
  e.signal();
  e.wait();  // returns at once
}

TEST(OneShotEventTest, AWaiterThatSleptIsWokenBySignalFromAnotherThread) {
  OneShotEvent e;
  e.reset();
  std::atomic<bool> woken{false};
  std::thread waiter([&] {
    e.wait();
    woken = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let it sleep
  EXPECT_FALSE(woken.load());
  e.signal();
  waiter.join();
  EXPECT_TRUE(woken.load());
}

// The waiter re-arms the event for every send; thousands of hand-offs in a row, each signal
// racing the wait, none missed or carried over.
TEST(OneShotEventTest, ReArmedForEachHandOffNoSignalIsMissed) {
  OneShotEvent e;
  std::atomic<int> turn{-1};
  constexpr int kRounds = 20000;
  std::thread signaller([&] {
    for (int i = 0; i < kRounds; ++i) {
      while (turn.load(std::memory_order_acquire) != i) {
      }
      e.signal();
    }
  });
  for (int i = 0; i < kRounds; ++i) {
    e.reset();
    turn.store(i, std::memory_order_release);
    e.wait();
  }
  signaller.join();
}

}  // namespace
}  // namespace dromedary::detail
