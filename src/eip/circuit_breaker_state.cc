// SPDX-License-Identifier: Apache-2.0
#include "eip/circuit_breaker_state.h"

#include <algorithm>

namespace dromedary::eip {

namespace {

int64_t secondOf(Scheduler::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

CircuitBreakerState::CircuitBreakerState(const CircuitBreakerConfig& config)
    : config_(config),
      slowAfter_(config.slowCallDurationThreshold),
      window_(static_cast<size_t>(std::max(1, config.slidingWindowSize))) {}

std::string_view CircuitBreakerState::name(State state) noexcept {
  switch (state) {
    case State::Closed:
      return "CLOSED";
    case State::Open:
      return "OPEN";
    case State::HalfOpen:
      return "HALF_OPEN";
  }
  return "CLOSED";
}

void CircuitBreakerState::clearWindow() {
  std::fill(window_.begin(), window_.end(), Bucket{});
  next_ = 0;
  calls_ = failures_ = slow_ = 0;
}

void CircuitBreakerState::toState(State state, TimePoint now) {
  state_ = state;
  // Each state counts afresh, as Resilience4j's metrics do.
  notPermitted_ = 0;
  trialsIssued_ = trialsDone_ = trialFailures_ = trialSlow_ = 0;
  if (state == State::Open) openedAt_ = now;
  if (state == State::Closed) clearWindow();
}

void CircuitBreakerState::openIfDue(TimePoint now) {
  if (state_ == State::Open && now - openedAt_ >= config_.waitDurationInOpenState) {
    toState(State::HalfOpen, now);
  }
}

void CircuitBreakerState::addToWindow(bool failure, bool slow, TimePoint now) {
  if (!config_.timeBasedSlidingWindow) {
    // Count based: the running totals lose the call that leaves the window and gain this one,
    // so a call costs the same whatever the window's size.
    Bucket& b = window_[next_];
    calls_ = calls_ + 1 - b.calls;  // (each total holds the bucket's count: no wrap)
    failures_ = failures_ + (failure ? 1 : 0) - b.failures;
    slow_ = slow_ + (slow ? 1 : 0) - b.slow;
    b = Bucket{0, 1, failure ? 1u : 0u, slow ? 1u : 0u};
    next_ = next_ + 1 == window_.size() ? 0 : next_ + 1;
    return;
  }
  const int64_t second = secondOf(now);
  Bucket& b = window_[static_cast<size_t>(second) % window_.size()];
  if (b.second != second) b = Bucket{second, 0, 0, 0};
  ++b.calls;
  b.failures += failure ? 1 : 0;
  b.slow += slow ? 1 : 0;
}

void CircuitBreakerState::windowTotals(TimePoint now, uint64_t& calls, uint64_t& failures,
                                       uint64_t& slow) const {
  if (!config_.timeBasedSlidingWindow) {
    calls = calls_;
    failures = failures_;
    slow = slow_;
    return;
  }
  // Time based: the buckets of the last slidingWindowSize seconds (a sweep of that many).
  calls = failures = slow = 0;
  const int64_t oldest = secondOf(now) - static_cast<int64_t>(window_.size());
  for (const Bucket& b : window_) {
    if (b.second <= oldest) continue;
    calls += b.calls;
    failures += b.failures;
    slow += b.slow;
  }
}

bool CircuitBreakerState::overThreshold(uint64_t calls, uint64_t failures, uint64_t slow,
                                        uint64_t minimum) const {
  if (calls == 0 || calls < minimum) return false;
  const double n = static_cast<double>(calls);
  return static_cast<double>(failures) * 100.0 / n >= config_.failureRateThreshold ||
         static_cast<double>(slow) * 100.0 / n >= config_.slowCallRateThreshold;
}

CircuitBreakerState::Permit CircuitBreakerState::acquire(TimePoint now) {
  std::lock_guard lock(mutex_);
  openIfDue(now);
  if (state_ == State::Open ||
      (state_ == State::HalfOpen &&
       trialsIssued_ >= static_cast<uint32_t>(config_.permittedNumberOfCallsInHalfOpenState))) {
    ++notPermitted_;
    return Permit::NotPermitted;
  }
  if (config_.bulkheadEnabled &&
      concurrent_ >= static_cast<uint32_t>(config_.bulkheadMaxConcurrentCalls)) {
    return Permit::BulkheadFull;
  }
  if (state_ == State::HalfOpen) ++trialsIssued_;
  ++concurrent_;
  return Permit::Allowed;
}

CircuitBreakerState::State CircuitBreakerState::record(Outcome outcome,
                                                       std::chrono::nanoseconds elapsed,
                                                       TimePoint now) {
  std::lock_guard lock(mutex_);
  if (concurrent_ > 0) --concurrent_;
  const bool failure = outcome == Outcome::Failure;
  const bool slow = elapsed > slowAfter_;
  switch (state_) {
    case State::Closed: {
      if (outcome == Outcome::Ignored) return state_;
      addToWindow(failure, slow, now);
      uint64_t calls, failures, slows;
      windowTotals(now, calls, failures, slows);
      // Count based, the minimum cannot exceed the window (Resilience4j caps it so).
      uint64_t minimum = static_cast<uint64_t>(std::max(1, config_.minimumNumberOfCalls));
      if (!config_.timeBasedSlidingWindow) minimum = std::min<uint64_t>(minimum, window_.size());
      if (overThreshold(calls, failures, slows, minimum)) toState(State::Open, now);
      return state_;
    }
    case State::HalfOpen: {
      if (outcome == Outcome::Ignored) {
        if (trialsIssued_ > 0) --trialsIssued_;  // its trial goes back
        return state_;
      }
      ++trialsDone_;
      trialFailures_ += failure ? 1 : 0;
      trialSlow_ += slow ? 1 : 0;
      const auto permitted = static_cast<uint32_t>(config_.permittedNumberOfCallsInHalfOpenState);
      if (trialsDone_ < permitted) return state_;
      const bool reopen = overThreshold(trialsDone_, trialFailures_, trialSlow_, permitted);
      toState(reopen ? State::Open : State::Closed, now);
      return state_;
    }
    case State::Open:
      break;  // a call let in before the breaker opened: too late to count
  }
  return state_;
}

CircuitBreakerState::State CircuitBreakerState::state(TimePoint now) {
  std::lock_guard lock(mutex_);
  if (config_.automaticTransitionFromOpenToHalfOpenEnabled) openIfDue(now);
  return state_;
}

CircuitBreakerState::Snapshot CircuitBreakerState::snapshot(TimePoint now) {
  std::lock_guard lock(mutex_);
  if (config_.automaticTransitionFromOpenToHalfOpenEnabled) openIfDue(now);
  Snapshot s;
  s.state = state_;
  s.notPermittedCalls = notPermitted_;
  s.concurrentCalls = concurrent_;
  uint64_t calls = 0, failures = 0, slow = 0, minimum = 0;
  if (state_ == State::HalfOpen) {
    calls = trialsDone_;
    failures = trialFailures_;
    slow = trialSlow_;
    minimum = static_cast<uint64_t>(config_.permittedNumberOfCallsInHalfOpenState);
  } else {
    windowTotals(now, calls, failures, slow);
    minimum = static_cast<uint64_t>(std::max(1, config_.minimumNumberOfCalls));
    if (!config_.timeBasedSlidingWindow) minimum = std::min<uint64_t>(minimum, window_.size());
  }
  s.bufferedCalls = calls;
  s.failedCalls = failures;
  s.slowCalls = slow;
  s.successfulCalls = calls - failures;
  if (calls > 0 && calls >= minimum) {
    s.failureRate = static_cast<double>(failures) * 100.0 / static_cast<double>(calls);
    s.slowCallRate = static_cast<double>(slow) * 100.0 / static_cast<double>(calls);
  }
  return s;
}

void CircuitBreakerState::transitionTo(State state, TimePoint now) {
  std::lock_guard lock(mutex_);
  toState(state, now);
}

}  // namespace dromedary::eip
