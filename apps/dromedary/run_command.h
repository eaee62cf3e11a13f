// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary run` and `dromedary validate`: routes from Camel YAML/XML files.

#include <cstdint>
#include <string>
#include <vector>

namespace dromedary {
class Context;
}

namespace dromedary::cli {

struct RunOptions {
  std::vector<std::string> paths;       ///< route files and directories; none: "."
  std::vector<std::string> properties;  ///< .properties files, pinned over the routes' own
  std::vector<std::string> overrides;   ///< KEY=VALUE (--prop), pinned after the files
  std::vector<std::string> kamelets;    ///< folders of Kamelet files, before the shipped ones
  std::string profile = "dev";          ///< application-PROFILE.properties (Camel JBang's)
  uint64_t maxMessages = 0;            ///< 0: no limit
  double maxSeconds = 0;               ///< 0: no limit
  std::string logLevel = "INFO";
  int managementPort = 0;               ///< 0: no management server
  std::string managementHost = "127.0.0.1";
  std::string managementToken;          ///< else $DROMEDARY_MANAGEMENT_TOKEN
  bool managementLoopbackControl = false;
  bool dev = false;                     ///< reload routes when their files change
};

/// Loads, starts and runs until SIGINT/SIGTERM, --max-messages or --max-seconds, then stops
/// gracefully. Exit code: 0 after a clean stop, 1 when the routes do not load or start.
int runRoutes(const RunOptions& options);

/// Loads and resolves everything (routes compiled, endpoints and expressions checked) without
/// starting a consumer. Exit code: 0 valid, 1 not.
int validateRoutes(const RunOptions& options);

/// Makes `folders` (--kamelets) the first places Kamelets are looked for in `context`.
void setKameletFolders(Context& context, const std::vector<std::string>& folders);


}  // namespace dromedary::cli
