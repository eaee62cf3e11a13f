// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Statistics of routes and their processors, as Camel's management exposes them.
///
/// Levels as Camel's: `Off` (only what graceful shutdown needs: exchanges started and
/// finished per route), `RoutesOnly` (adds route processing times and a latency histogram),
/// `Default` (adds per-processor counts and times). Counts cover every exchange; times are
/// measured on a sample (`Context::setStatisticsTimingSample`: by default at most one
/// exchange per thread per coarse-clock tick, so a quiet route has all its exchanges timed),
/// because a clock read costs more than a step. The level can change while routes run.
///
/// Example:
///   context.setStatisticsLevel(StatisticsLevel::Default);
///   RouteStats s = *context.routeStatistics("orders");
///   std::cout << s.exchangesTotal << " exchanges, p99 " << s.p99Millis << " ms\n";

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dromedary {

enum class StatisticsLevel : uint8_t { Off, RoutesOnly, Default };

/// Times in milliseconds (fractions kept), of the timed exchanges.
struct TimingStats {
  uint64_t timed = 0;  ///< how many exchanges were timed
  double minMillis = 0;
  double maxMillis = 0;
  double meanMillis = 0;
  double lastMillis = 0;
};

struct ProcessorStats {
  std::string id;           ///< node id
  std::string description;  ///< e.g. to[direct:a]
  uint32_t depth = 0;       ///< nesting in the route (0: top level)
  /// Where it sits, for a diagram: the step whose block holds it (empty at the top level), the
  /// block's place among that step's blocks, and its label (`when[...]`, `otherwise`,
  /// `doCatch[...]`; empty for a step's one body). In an error handling clause (onException,
  /// the dead letter channel) `clause` is true.
  std::string parent;
  uint32_t branch = 0;
  std::string branchLabel;
  bool clause = false;
  uint64_t exchangesTotal = 0;
  uint64_t exchangesCompleted = 0;  ///< total - failed - in flight
  uint64_t exchangesFailed = 0;
  /// Waiting in it now (suspended in it: a delay, a request-reply): derived, suspensions
  /// minus resumptions, not a shared counter.
  uint64_t exchangesInflight = 0;
  uint64_t redeliveries = 0;          ///< times a redelivery ran it again
  uint64_t externalRedeliveries = 0;  ///< runs of exchanges a broker delivered again
  TimingStats timing;
  /// Epoch ms (the exchanges' creation times) of the first and last exchanges it completed
  /// (of the timed ones: its end is seen where its time is taken) and failed; 0 when none.
  int64_t firstCompletedMillis = 0, lastCompletedMillis = 0;
  int64_t firstFailedMillis = 0, lastFailedMillis = 0;
  /// What the step shows of its own state, as names and values (a circuit breaker's
  /// circuitBreakerState, failedCalls ...); empty for most steps.
  std::vector<std::pair<std::string, std::string>> details;
};

/// What a route and the context both count.
struct ExchangeStats {
  uint64_t exchangesTotal = 0;
  uint64_t exchangesCompleted = 0;
  uint64_t exchangesFailed = 0;
  uint64_t exchangesInflight = 0;
  uint64_t failuresHandled = 0;
  uint64_t redeliveries = 0;
  /// Exchanges whose message a broker delivered again (Exchange::isExternalRedelivered),
  /// counted as they enter the route their consumer feeds.
  uint64_t externalRedeliveries = 0;
  TimingStats timing;
  /// Epoch ms of the first and last exchanges that completed / failed (their creation times,
  /// to the coarse clock's tick); 0 when none. Not kept at level Off.
  int64_t firstCompletedMillis = 0, lastCompletedMillis = 0;
  int64_t firstFailedMillis = 0, lastFailedMillis = 0;
};

struct RouteStats : ExchangeStats {
  std::string id;
  std::string from;
  std::string state;  ///< Started, Stopped, Suspended
  double p50Millis = 0, p99Millis = 0, p999Millis = 0;
  /// The latency histogram of the timed exchanges: (upper bound in ns, exchanges at or below
  /// it) for each bucket that holds any, in order (Prometheus' cumulative buckets).
  std::vector<std::pair<uint64_t, uint64_t>> latencyBuckets;
  int64_t lastExchangeMillis = 0;  ///< epoch ms when the last timed exchange left the route
  double uptimeMillis = 0;
  std::vector<ProcessorStats> processors;  ///< in route order (nested blocks after their step)
};

/// The context's statistics: its routes' summed (an exchange that passes through two routes
/// counts in both, as Camel's context counters count route exchanges). Times: the smallest
/// and largest of the routes', the mean over every timed route exchange, the last of the
/// route that finished last; stamps the earliest first and the latest last.
struct ContextStats : ExchangeStats {};

/// Sums `routes` into the context's statistics (what Context::contextStatistics returns).
ContextStats sumRouteStatistics(const std::vector<RouteStats>& routes);

}  // namespace dromedary
