// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary get routes|endpoints|health|context|cluster [--url URL]`: a running instance's
// management API as a readable table (as Camel's `camel get`).

#include <string>

namespace dromedary::cli {

struct GetOptions {
  std::string what;  ///< routes, endpoints, health, context, cluster
  std::string url = "http://127.0.0.1:8080";
};

/// Exit code: 0 printed, 1 the server could not be reached or answered an error, 2 usage.
int runGet(const GetOptions& options);

}  // namespace dromedary::cli
