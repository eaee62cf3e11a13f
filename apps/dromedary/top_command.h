// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary top [--url URL] [--interval S] [--iterations N] [--sort mean|max|total|rate]`: a
// running instance's routes and processors by time, refreshed like `top` (as Camel JBang's
// `camel top`), from its management API.

#include <string>

namespace dromedary::cli {

struct TopOptions {
  std::string url = "http://127.0.0.1:8080";
  double interval = 1.0;  ///< seconds between refreshes
  int iterations = 0;     ///< refreshes, then exit; 0: until interrupted
  std::string sort = "mean";
};

/// Exit code: 0 done (or interrupted), 1 unreachable or an error, 2 usage.
int runTop(const TopOptions& options);

}  // namespace dromedary::cli
