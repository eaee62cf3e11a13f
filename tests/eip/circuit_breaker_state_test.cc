// SPDX-License-Identifier: Apache-2.0
// The circuit breaker's state machine on its own, with time given by the test: count-based
// and time-based windows, the minimum number of calls, slow calls, half-open trials, and
// ignored calls giving their trial back.
#include "eip/circuit_breaker_state.h"

#include <gtest/gtest.h>

namespace dromedary::eip {
namespace {

using namespace std::chrono_literals;
using State = CircuitBreakerState::State;
using Permit = CircuitBreakerState::Permit;
using Outcome = CircuitBreakerState::Outcome;

const Scheduler::TimePoint kStart{std::chrono::hours(1000)};

// `n` calls with `outcome`, each allowed, taking `took`.
void calls(CircuitBreakerState& b, int n, Outcome outcome, Scheduler::TimePoint at,
           std::chrono::nanoseconds took = 1ms) {
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(b.acquire(at), Permit::Allowed);
    b.record(outcome, took, at);
  }
}

TEST(CircuitBreakerStateTest, OpensOnlyOnceTheMinimumNumberOfCallsIsRecorded) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 10;
  c.minimumNumberOfCalls = 5;
  CircuitBreakerState b(c);
  calls(b, 4, Outcome::Failure, kStart);
  EXPECT_EQ(b.state(kStart), State::Closed);
  EXPECT_EQ(b.snapshot(kStart).failureRate, -1) << "no rate below the minimum";
  calls(b, 1, Outcome::Failure, kStart);
  EXPECT_EQ(b.state(kStart), State::Open);
  EXPECT_EQ(b.acquire(kStart), Permit::NotPermitted);
  EXPECT_EQ(b.snapshot(kStart).notPermittedCalls, 1u);
}

TEST(CircuitBreakerStateTest, TheCountBasedWindowForgetsOldCalls) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 4;
  c.minimumNumberOfCalls = 4;
  c.failureRateThreshold = 50;
  CircuitBreakerState b(c);
  calls(b, 1, Outcome::Failure, kStart);
  calls(b, 3, Outcome::Success, kStart);  // 25 %
  EXPECT_EQ(b.state(kStart), State::Closed);
  calls(b, 1, Outcome::Failure, kStart);  // the first failure left the window: still 25 %
  EXPECT_EQ(b.state(kStart), State::Closed);
  EXPECT_EQ(b.snapshot(kStart).failureRate, 25);
  calls(b, 1, Outcome::Failure, kStart);  // 50 %
  EXPECT_EQ(b.state(kStart), State::Open);
}

TEST(CircuitBreakerStateTest, TheMinimumIsCappedByACountBasedWindow) {
  CircuitBreakerConfig c;  // minimumNumberOfCalls 100, as Camel's default
  c.slidingWindowSize = 3;
  CircuitBreakerState b(c);
  calls(b, 3, Outcome::Failure, kStart);
  EXPECT_EQ(b.state(kStart), State::Open);
}

TEST(CircuitBreakerStateTest, TheTimeBasedWindowCountsTheLastSeconds) {
  CircuitBreakerConfig c;
  c.timeBasedSlidingWindow = true;
  c.slidingWindowSize = 2;  // seconds
  c.minimumNumberOfCalls = 4;
  CircuitBreakerState b(c);
  calls(b, 3, Outcome::Failure, kStart);
  calls(b, 1, Outcome::Success, kStart + 5s);  // the failures are out of the window
  EXPECT_EQ(b.state(kStart + 5s), State::Closed);
  EXPECT_EQ(b.snapshot(kStart + 5s).bufferedCalls, 1u);
  calls(b, 3, Outcome::Failure, kStart + 6s);  // 3 of 4 in the last two seconds
  EXPECT_EQ(b.state(kStart + 6s), State::Open);
}

TEST(CircuitBreakerStateTest, SlowCallsOpenTheBreaker) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 4;
  c.minimumNumberOfCalls = 4;
  c.slowCallDurationThreshold = 1s;
  c.slowCallRateThreshold = 50;
  CircuitBreakerState b(c);
  calls(b, 2, Outcome::Success, kStart, 2s);
  calls(b, 1, Outcome::Success, kStart, 10ms);
  EXPECT_EQ(b.state(kStart), State::Closed);
  calls(b, 1, Outcome::Success, kStart, 10ms);
  EXPECT_EQ(b.state(kStart), State::Open) << "2 of 4 calls were slow";
}

TEST(CircuitBreakerStateTest, HalfOpenLetsItsTrialsThroughAndTheyDecide) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 2;
  c.minimumNumberOfCalls = 2;
  c.waitDurationInOpenState = 30s;
  c.permittedNumberOfCallsInHalfOpenState = 2;
  CircuitBreakerState b(c);
  calls(b, 2, Outcome::Failure, kStart);
  ASSERT_EQ(b.state(kStart), State::Open);
  EXPECT_EQ(b.acquire(kStart + 29s), Permit::NotPermitted);
  EXPECT_EQ(b.state(kStart + 30s), State::Open) << "no automatic transition by default";
  const auto later = kStart + 30s;
  ASSERT_EQ(b.acquire(later), Permit::Allowed);
  ASSERT_EQ(b.acquire(later), Permit::Allowed);
  EXPECT_EQ(b.state(later), State::HalfOpen);
  EXPECT_EQ(b.acquire(later), Permit::NotPermitted) << "both trials are taken";
  b.record(Outcome::Success, 1ms, later);
  b.record(Outcome::Failure, 1ms, later);  // 50 %: open again
  EXPECT_EQ(b.state(later), State::Open);
  const auto again = later + 30s;
  calls(b, 2, Outcome::Success, again);
  EXPECT_EQ(b.state(again), State::Closed);
  EXPECT_EQ(b.snapshot(again).bufferedCalls, 0u) << "closing starts a fresh window";
}

TEST(CircuitBreakerStateTest, AnIgnoredTrialGivesItsPermitBack) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 1;
  c.minimumNumberOfCalls = 1;
  c.waitDurationInOpenState = 1s;
  c.permittedNumberOfCallsInHalfOpenState = 1;
  CircuitBreakerState b(c);
  calls(b, 1, Outcome::Failure, kStart);
  const auto later = kStart + 1s;
  ASSERT_EQ(b.acquire(later), Permit::Allowed);
  b.record(Outcome::Ignored, 1ms, later);
  EXPECT_EQ(b.state(later), State::HalfOpen);
  ASSERT_EQ(b.acquire(later), Permit::Allowed);
  b.record(Outcome::Success, 1ms, later);
  EXPECT_EQ(b.state(later), State::Closed);
}

TEST(CircuitBreakerStateTest, AutomaticTransitionShowsHalfOpenWhenTheWaitIsOver) {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 1;
  c.minimumNumberOfCalls = 1;
  c.waitDurationInOpenState = 5s;
  c.automaticTransitionFromOpenToHalfOpenEnabled = true;
  CircuitBreakerState b(c);
  calls(b, 1, Outcome::Failure, kStart);
  EXPECT_EQ(b.state(kStart + 4s), State::Open);
  EXPECT_EQ(b.state(kStart + 5s), State::HalfOpen);
}

TEST(CircuitBreakerStateTest, TheBulkheadCountsCallsInside) {
  CircuitBreakerConfig c;
  c.bulkheadEnabled = true;
  c.bulkheadMaxConcurrentCalls = 2;
  CircuitBreakerState b(c);
  ASSERT_EQ(b.acquire(kStart), Permit::Allowed);
  ASSERT_EQ(b.acquire(kStart), Permit::Allowed);
  EXPECT_EQ(b.acquire(kStart), Permit::BulkheadFull);
  b.record(Outcome::Success, 1ms, kStart);
  EXPECT_EQ(b.acquire(kStart), Permit::Allowed);
}

}  // namespace
}  // namespace dromedary::eip
