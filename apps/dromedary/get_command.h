// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary get routes|endpoints|health|context|cluster|inflight [--url URL] [--watch]`: a
// running instance's management API as a readable table (as Camel's `camel get`), once or
// refreshed until interrupted.

#include <string>

namespace dromedary::cli {

struct GetOptions {
  std::string what;  ///< routes, endpoints, health, context, cluster, inflight
  std::string url = "http://127.0.0.1:8080";
  bool watch = false;     ///< again every `interval` seconds until interrupted
  double interval = 1.0;
};

/// Exit code: 0 printed, 1 the server could not be reached or answered an error, 2 usage.
int runGet(const GetOptions& options);

}  // namespace dromedary::cli
