// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The circuit breaker EIP's options (RouteDefinition::circuitBreaker), with the names and
/// defaults of Camel's resilience4jConfiguration. A route file may also write Camel's
/// faultToleranceConfiguration, whose options map onto these (docs/eip.md).
///
///   CircuitBreakerConfig cb;
///   cb.minimumNumberOfCalls = 10;
///   cb.waitDurationInOpenState = std::chrono::seconds(20);
///   b.from("direct:quote")
///       .circuitBreaker(cb)
///         .to("http://pricing.internal/quote")
///       .onFallback()
///         .setBody(constant("no quote"))
///       .end();

#include <chrono>
#include <string>
#include <vector>

namespace dromedary {

struct CircuitBreakerConfig {
  /// Percent of failed calls (among the recorded ones) at which the breaker opens: 0 < x <= 100.
  double failureRateThreshold = 50;
  /// Trial calls let through while half open; their failure rate closes or opens it again.
  int permittedNumberOfCallsInHalfOpenState = 10;
  /// Without onFallback: a call refused while open (or half open and full) fails the exchange
  /// with a CallNotPermittedException; by default it goes on untouched.
  bool throwExceptionWhenHalfOpenOrOpenState = false;
  /// The calls (or, time based, the seconds) whose outcome the closed breaker looks at.
  int slidingWindowSize = 100;
  bool timeBasedSlidingWindow = false;  ///< Camel's slidingWindowType TIME_BASED
  /// Calls recorded before a failure rate counts (per window when time based).
  int minimumNumberOfCalls = 100;
  /// How long the breaker stays open before it lets trial calls through.
  std::chrono::milliseconds waitDurationInOpenState{60000};
  /// Half open as soon as the wait is over, rather than at the next call (shows in statistics).
  bool automaticTransitionFromOpenToHalfOpenEnabled = false;
  /// Percent of slow calls at which the breaker opens, and what counts as slow.
  double slowCallRateThreshold = 100;
  std::chrono::milliseconds slowCallDurationThreshold{60000};
  /// At most bulkheadMaxConcurrentCalls calls inside at once; more are refused (never waited
  /// for: a waiting call would hold its thread).
  bool bulkheadEnabled = false;
  int bulkheadMaxConcurrentCalls = 25;
  /// A call not done after timeoutDuration counts as failed (a TimeoutException) and the
  /// exchange goes on without it: to onFallback, or failed.
  bool timeoutEnabled = false;
  std::chrono::milliseconds timeoutDuration{1000};
  /// Exception types (as onException names them) that count as failures; none: every failure.
  std::vector<std::string> recordExceptions;
  /// Exception types that count as neither failure nor success; the exchange goes on without
  /// the failure, as Camel's.
  std::vector<std::string> ignoreExceptions;
};

}  // namespace dromedary
