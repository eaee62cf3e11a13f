// SPDX-License-Identifier: Apache-2.0
#pragma once

// The flight recorder: every route keeps its last N completed and last N failed exchanges,
// recorded all the time (Context::recentExchanges, GET /api/routes/{id}/recent,
// `dromedary trace --last`, and the log on SIGUSR2).
//
// What it records, and what that costs: a failed exchange always, with the step where it
// failed and the error; a completed one when the statistics time it (statistics.h: on a quiet
// route every exchange, on a busy one about 250 a second per thread; every one with
// setStatisticsTimingSample(1)), with its time in the route. Each record copies the body's and
// headers' first bytes into preallocated slots: the exchanges that are not timed pay nothing,
// and no exchange allocates. At statistics level Off nothing is recorded.

#include <cstdint>
#include <string>
#include <vector>

namespace dromedary {

/// One exchange as the flight recorder kept it. Texts are cut to the slot's size ("..." ends a
/// cut one).
struct RecordedExchange {
  std::string routeId;
  std::string exchangeId;  ///< empty when nothing asked for it before it completed
  int64_t createdMillis = 0;
  int64_t endMillis = 0;  ///< when it left the route (epoch milliseconds)
  /// Its time in the route (timed exchanges; a failed one not timed: end - created, in ms).
  double elapsedMillis = 0;
  bool failed = false;
  std::string nodeId;  ///< the step where it failed
  std::string error;   ///< the failure's text
  std::string bodyType;
  std::string body;     ///< the body's first bytes
  std::string headers;  ///< `name=value, ...`, the first bytes
};

/// A route's recent exchanges, oldest first.
struct RecentExchanges {
  std::vector<RecordedExchange> completed;
  std::vector<RecordedExchange> failed;
};

}  // namespace dromedary
