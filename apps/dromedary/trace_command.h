// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary trace [--route R] [--follow] [--url URL]`: a running instance's traced messages
// from its backlog tracer (camel.trace.enabled, or standby and enabled through the API), one
// line per route entry, step and route exit, as Camel JBang's `camel trace`.
// `dromedary trace --last [--route R]`: its flight recorder instead (always on): each route's
// last completed and failed exchanges.

#include <string>

namespace dromedary::cli {

struct TraceOptions {
  std::string route;  ///< only this route's events
  bool follow = false;
  bool last = false;  ///< the flight recorder's recent exchanges
  std::string url = "http://127.0.0.1:8080";
};

/// Exit code: 0 printed (or followed until SIGINT/SIGTERM), 1 unreachable or an error, 2 usage.
int runTrace(const TraceOptions& options);

}  // namespace dromedary::cli
