// SPDX-License-Identifier: Apache-2.0
#pragma once

// The web console's static files, embedded in the binary at build time
// (cmake/EmbedConsole.cmake from src/management/console/).

#include <string_view>
#include <vector>

namespace dromedary {

struct ConsoleFile {
  std::string_view path;  ///< what the browser asks for: /console, /console/console.js ...
  std::string_view contentType;
  std::string_view body;
};

const std::vector<ConsoleFile>& consoleFiles();

}  // namespace dromedary
