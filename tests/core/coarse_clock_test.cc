// SPDX-License-Identifier: Apache-2.0
// The clock exchanges record their creation by (src/core/coarse_clock.h): the kernel's coarse
// clock, kept by a ticker thread that parks when nobody reads it. Bounds are generous: the
// ticker is a thread on a shared machine, and only staleness that grows would be a fault.
#include "core/coarse_clock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace dromedary::detail {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kSlackMs = 250;

bool closeToTheClock(int64_t ms) {
  return std::llabs(ms - readCoarseClockMillis()) <= kSlackMs;
}

TEST(CoarseClockTest, ReadsTheWallClockAndMovesWithIt) {
  const int64_t first = coarseNowMillis();
  EXPECT_TRUE(closeToTheClock(first)) << first << " against " << readCoarseClockMillis();
  // Read as exchanges read it, back to back: it moves on (the ticker, or the clock itself).
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  int64_t now = first;
  while (now < first + 50 && std::chrono::steady_clock::now() < deadline) {
    now = coarseNowMillis();
    std::this_thread::sleep_for(100us);
  }
  EXPECT_GE(now, first + 50);
  EXPECT_TRUE(closeToTheClock(now));
}

// A second without a read parks the ticker; the next read is still the time, not the
// parked ticker's last.
TEST(CoarseClockTest, AReadAfterTheTickerParkedIsTheTimeNow) {
  (void)coarseNowMillis();
  std::this_thread::sleep_for(1500ms);
  EXPECT_TRUE(closeToTheClock(coarseNowMillis()));
  std::this_thread::sleep_for(50ms);  // woken again meanwhile
  EXPECT_TRUE(closeToTheClock(coarseNowMillis()));
}

// The ticker runs while reads are frequent and parks when they stop: an idle process is not
// woken a thousand times a second for a clock nobody reads.
TEST(CoarseClockTest, TheTickerRunsWhileReadsAreFrequentAndParksWhenTheyStop) {
  if (const char* env = std::getenv("DROMEDARY_CLOCK_TICKER"); env && env[0] == '0') {
    GTEST_SKIP() << "DROMEDARY_CLOCK_TICKER=0: no ticker";
  }
  auto readFor = [](std::chrono::milliseconds span) {
    const auto end = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < end) (void)coarseNowMillis();
  };
  readFor(300ms);
  EXPECT_TRUE(coarseClockTickerRunning());
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (coarseClockTickerRunning() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_FALSE(coarseClockTickerRunning());
  readFor(300ms);
  EXPECT_TRUE(coarseClockTickerRunning());
}

// A forked child has no ticker thread: its reads are its own clock's, not a frozen value.
TEST(CoarseClockTest, AForkedChildReadsTheTimeNotTheParentsLastTick) {
  (void)coarseNowMillis();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::this_thread::sleep_for(400ms);
    bool ok = closeToTheClock(coarseNowMillis());
    std::this_thread::sleep_for(400ms);
    ok = ok && closeToTheClock(coarseNowMillis());
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace dromedary::detail
