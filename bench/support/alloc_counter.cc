// SPDX-License-Identifier: Apache-2.0
#include "alloc_counter.h"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace dromedary::testing {

namespace {
thread_local uint64_t allocations = 0;
thread_local uint64_t bytes = 0;
thread_local int failing = 0;  // FailingAllocations alive on this thread

void* allocate(std::size_t size, std::size_t alignment, bool nothrow) {
  if (failing > 0) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  ++allocations;
  bytes += size;
  if (size == 0) size = 1;
  void* p = nullptr;
  if (alignment > alignof(std::max_align_t)) {
    std::size_t rounded = (size + alignment - 1) / alignment * alignment;
    p = std::aligned_alloc(alignment, rounded);
  } else {
    p = std::malloc(size);
  }
  if (!p && !nothrow) throw std::bad_alloc();
  return p;
}
}  // namespace

AllocCounts threadAllocCounts() noexcept { return {allocations, bytes}; }

FailingAllocations::FailingAllocations() noexcept { ++failing; }
FailingAllocations::~FailingAllocations() { --failing; }

}  // namespace dromedary::testing

using dromedary::testing::allocate;

void* operator new(std::size_t n) { return allocate(n, 0, false); }
void* operator new[](std::size_t n) { return allocate(n, 0, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return allocate(n, 0, true);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a), true);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
