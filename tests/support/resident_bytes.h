// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <unistd.h>

#include <cstddef>
#include <fstream>

namespace dromedary::testing {

// The process's resident memory now, in bytes (/proc/self/statm): for tests that bound what
// an operation makes resident (asserted with a wide margin: the allocator's own pages move).
inline size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace dromedary::testing
