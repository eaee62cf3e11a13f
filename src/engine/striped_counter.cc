// SPDX-License-Identifier: Apache-2.0
#include "engine/striped_counter.h"

#include <sys/mman.h>

#include <cstring>
#include <mutex>
#include <new>
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

// Owns the thread's stripe; gives it back when the thread ends. threadStripe() reads the
// plain copy in detail::t_stripe (no TLS wrapper call on the hot path).
struct StripeHandle {
  uint32_t index = allocator().acquire();
  ~StripeHandle() {
    detail::t_stripe = kSharedStripe;  // anything counted after this goes to the shared one
    allocator().release(index);
  }
};

// The regions: a chunk reserves kRegionBytes per stripe, stripe s's region at
// s * kRegionBytes; a block of cells takes the same offset in every region. Anonymous
// mappings are zero and take memory only where written: a stripe no thread uses costs none.
constexpr size_t kRegionBytes = 64 * 1024;
constexpr size_t kLine = 64;

struct Chunk {
  char* base;
  size_t region;  // bytes per stripe
  size_t used;    // bytes taken in each region
};

struct FreeRange {
  Chunk* chunk;
  size_t offset;
  size_t bytes;
};

class CellArena {
 public:
  // The chunk and offset of `bytes` (a multiple of kLine) per stripe.
  std::pair<Chunk*, size_t> take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (size_t i = free_.size(); i-- > 0;) {  // the range freed last first: it is still warm
      FreeRange& f = free_[i];
      if (f.bytes < bytes) continue;
      std::pair<Chunk*, size_t> got{f.chunk, f.offset};
      f.offset += bytes;
      f.bytes -= bytes;
      if (f.bytes == 0) free_.erase(free_.begin() + static_cast<ptrdiff_t>(i));
      zero(got.first, got.second, bytes);  // used before
      return got;
    }
    if (bytes > kRegionBytes) return {map(bytes), 0};  // a block of its own
    if (!current_ || current_->used + bytes > current_->region) current_ = map(kRegionBytes);
    size_t offset = current_->used;
    current_->used += bytes;
    return {current_, offset};
  }

  void give(Chunk* chunk, size_t offset, size_t bytes) {
    std::lock_guard lock(mutex_);
    free_.push_back({chunk, offset, bytes});
  }

 private:
  static Chunk* map(size_t region) {
    size_t total = region * kStripes;
    void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return new Chunk{static_cast<char*>(p), region, 0};
  }
  // Only stripes that were written: the others' pages stay unmapped.
  static void zero(Chunk* chunk, size_t offset, size_t bytes) {
    for (uint32_t s = 0; s < kStripes; ++s) {
      auto* cells = reinterpret_cast<uint64_t*>(chunk->base + s * chunk->region + offset);
      for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) {
        if (cells[i] != 0) {
          std::memset(cells, 0, bytes);
          break;
        }
      }
    }
  }

  std::mutex mutex_;
  Chunk* current_ = nullptr;
  std::vector<FreeRange> free_;  // chunks are never unmapped: their ranges are reused
};

CellArena& arena() {
  static CellArena* a = new CellArena();  // outlives every route
  return *a;
}

size_t bytesFor(uint32_t count) { return (count * sizeof(uint64_t) + kLine - 1) / kLine * kLine; }

}  // namespace

StripedCells::StripedCells(uint32_t count)
    : bytes_(bytesFor(count == 0 ? 1 : count)), count_(count) {
  auto [chunk, offset] = arena().take(bytes_);
  base_ = reinterpret_cast<uint64_t*>(chunk->base + offset);
  stride_ = chunk->region / sizeof(uint64_t);
  chunk_ = chunk;
}

StripedCells::~StripedCells() {
  auto* chunk = static_cast<Chunk*>(chunk_);
  arena().give(chunk, reinterpret_cast<char*>(base_) - chunk->base, bytes_);
}

uint64_t StripedCells::sum(uint32_t i) const noexcept {
  uint64_t total = 0;
  for (uint32_t s = 0; s < kStripes; ++s) {
    total += std::atomic_ref<uint64_t>(at(s, i)).load(std::memory_order_relaxed);
  }
  return total;
}

void StripedCells::reset(uint32_t first, uint32_t count) noexcept {
  for (uint32_t s = 0; s < kStripes; ++s) {
    for (uint32_t i = first; i < first + count; ++i) {
      // Only written cells: a stripe no thread used keeps its pages unmapped.
      std::atomic_ref<uint64_t> c(at(s, i));
      if (c.load(std::memory_order_relaxed) != 0) c.store(0, std::memory_order_relaxed);
    }
  }
}

namespace detail {

// Only reached while t_stripe is unset: after the handle's destruction it holds the shared
// stripe, so a late TLS destructor that counts never takes a released one.
uint32_t assignThreadStripe() noexcept {
  thread_local StripeHandle handle;
  t_stripe = handle.index;
  return t_stripe;
}

}  // namespace detail

}  // namespace dromedary
