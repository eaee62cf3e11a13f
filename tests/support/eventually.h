// SPDX-License-Identifier: Apache-2.0
#pragma once

// eventually(condition, limit): whether `condition()` holds within `limit`, looked at every
// 5 ms. For tests that wait for another thread (a route's first step has run, a member has
// taken over), without sleeping longer than the condition needs.

#include <chrono>
#include <thread>

namespace dromedary::testing {

template <class Condition>
bool eventually(Condition condition,
                std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace dromedary::testing
