// SPDX-License-Identifier: Apache-2.0
#pragma once

// The counting allocator: alloc_counter.cc replaces every global operator new and delete
// (plain, array, nothrow, sized, aligned) and counts allocations and bytes per thread; tests
// can make a thread's allocations fail (FailingAllocations).
// Link the `dromedary_alloc_counter` object library into a test or benchmark program.

#include <cstdint>

namespace dromedary::testing {

struct AllocCounts {
  uint64_t allocations = 0;
  uint64_t bytes = 0;
};

/// What this thread has allocated since it started.
AllocCounts threadAllocCounts() noexcept;

/// Counts this thread's allocations from construction on.
class AllocationScope {
 public:
  AllocationScope() noexcept : start_(threadAllocCounts()) {}
  uint64_t allocations() const noexcept {
    return threadAllocCounts().allocations - start_.allocations;
  }
  uint64_t bytes() const noexcept { return threadAllocCounts().bytes - start_.bytes; }

 private:
  AllocCounts start_;
};

/// While one is alive, this thread's throwing allocations fail with std::bad_alloc (the
/// nothrow forms return null): for tests of what a failed allocation leaves behind.
class FailingAllocations {
 public:
  FailingAllocations() noexcept;
  ~FailingAllocations();
  FailingAllocations(const FailingAllocations&) = delete;
  FailingAllocations& operator=(const FailingAllocations&) = delete;
};

}  // namespace dromedary::testing
