// SPDX-License-Identifier: Apache-2.0
#pragma once

// The peak resident memory of this process (Linux's VmHWM), for tests that show a large input
// goes through in bounded memory: reset it, do the work, read it.

#include <fstream>
#include <string>

namespace dromedary::testing {

/// Sets the peak to what is resident now (5 to /proc/self/clear_refs); false when it cannot.
inline bool resetPeakRss() {
  return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5");
}

/// The peak resident memory in KB, -1 when it cannot be read.
inline long peakRssKb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:")) return std::stol(line.substr(6));
  }
  return -1;
}

}  // namespace dromedary::testing
