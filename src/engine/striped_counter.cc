// SPDX-License-Identifier: Apache-2.0
#include "engine/striped_counter.h"

#include <mutex>
#include <vector>

namespace dromedary {

namespace {

struct StripeAllocator {
  std::mutex mutex;
  std::vector<uint32_t> free;
  uint32_t next = 0;

  uint32_t acquire() {
    std::lock_guard lock(mutex);
    if (!free.empty()) {
      uint32_t s = free.back();
      free.pop_back();
      return s;
    }
    return next < kSharedStripe ? next++ : kSharedStripe;
  }
  void release(uint32_t s) {
    if (s == kSharedStripe) return;
    std::lock_guard lock(mutex);
    free.push_back(s);
  }
};

StripeAllocator& allocator() {
  static StripeAllocator* a = new StripeAllocator();  // outlives every thread's handle
  return *a;
}

struct StripeHandle {
  uint32_t index = allocator().acquire();
  ~StripeHandle() { allocator().release(index); }
};

}  // namespace

uint32_t threadStripe() noexcept {
  thread_local StripeHandle handle;
  return handle.index;
}

}  // namespace dromedary
