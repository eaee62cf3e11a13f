// SPDX-License-Identifier: Apache-2.0
#include "engine/flight_recorder.h"

#include <sys/mman.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>
#include <vector>

namespace dromedary::detail {

// A fixed text: its bytes and length, cut with "..." when longer.
template <size_t N>
struct FixedText {
  char bytes[N];
  uint16_t size = 0;

  void clear() noexcept { size = 0; }
  void append(std::string_view s) noexcept {
    if (size == N) return;
    const size_t room = N - size;
    if (s.size() <= room) {
      std::memcpy(bytes + size, s.data(), s.size());
      size = static_cast<uint16_t>(size + s.size());
      return;
    }
    std::memcpy(bytes + size, s.data(), room);
    size = N;
    std::memcpy(bytes + N - 3, "...", 3);
  }
  std::string str() const { return std::string(bytes, size); }
};

struct FlightRecorder::Slot {
  int64_t createdMillis;
  int64_t endMillis;
  uint64_t elapsedNanos;
  bool failed;
  FixedText<40> exchangeId;
  FixedText<48> nodeId;
  FixedText<16> bodyType;
  FixedText<160> error;
  FixedText<160> body;
  FixedText<200> headers;
};

static_assert(std::is_trivially_destructible_v<FlightRecorder::Slot>);

namespace {

// Where the rings live: chunks of reserved, zero memory (MAP_NORESERVE: pages become
// resident when a route first records into them); a ring given back is reused as it is by the
// next ring of its size. It is not zeroed: a slot is read only once its ring's count says it
// was recorded, and recording writes every field. (Zeroing wrote every page of every ring when
// routes were removed, so stopping 50,000 routes made 650 MB resident.)
class SlotArena {
 public:
  void* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    if (auto it = free_.find(bytes); it != free_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      return p;
    }
    if (bytes > kChunk) throw std::bad_alloc();
    if (!base_ || used_ + bytes > kChunk) {
      void* m = mmap(nullptr, kChunk, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      base_ = static_cast<char*>(m);
      used_ = 0;
    }
    void* p = base_ + used_;
    used_ += (bytes + 63) / 64 * 64;
    return p;
  }
  void give(void* p, size_t bytes) {
    std::lock_guard lock(mutex_);
    free_[bytes].push_back(p);
  }

 private:
  static constexpr size_t kChunk = size_t{64} << 20;
  std::mutex mutex_;
  char* base_ = nullptr;
  size_t used_ = 0;
  std::map<size_t, std::vector<void*>> free_;
};

SlotArena& slotArena() {
  static SlotArena* arena = new SlotArena();  // outlives every route
  return *arena;
}

// A value's text without allocating: strings and bytes as they are, numbers and booleans
// converted, anything else by its type.
template <size_t N>
void appendValue(FixedText<N>& out, const Value& v) noexcept {
  char digits[32];
  if (v.isString()) {
    out.append(v.getString());
  } else if (v.isBytes()) {
    out.append(v.getBytes().view());
  } else if (v.isInt()) {
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v.getInt());
    out.append(std::string_view(digits, static_cast<size_t>(end - digits)));
  } else if (v.isDouble()) {
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v.getDouble());
    out.append(std::string_view(digits, static_cast<size_t>(end - digits)));
  } else if (v.isBool()) {
    out.append(v.getBool() ? "true" : "false");
  } else if (v.isNull()) {
    out.append("null");
  } else {
    out.append("[");
    out.append(v.typeName());
    out.append("]");
  }
}

RecordedExchange recordOf(const FlightRecorder::Slot& s, std::string_view route_id) {
  RecordedExchange r;
  r.routeId = std::string(route_id);
  r.exchangeId = s.exchangeId.str();
  r.createdMillis = s.createdMillis;
  r.endMillis = s.endMillis;
  r.elapsedMillis = s.elapsedNanos > 0
                        ? static_cast<double>(s.elapsedNanos) / 1e6
                        : static_cast<double>(std::max<int64_t>(0, s.endMillis - s.createdMillis));
  r.failed = s.failed;
  r.nodeId = s.nodeId.str();
  r.error = s.error.str();
  r.bodyType = s.bodyType.str();
  r.body = s.body.str();
  r.headers = s.headers.str();
  return r;
}

void appendRing(const FlightRecorder::Slot* ring, uint64_t count, uint32_t capacity,
                std::string_view route_id, std::vector<RecordedExchange>& out) {
  if (!ring) return;  // capacity 0
  const uint64_t n = std::min<uint64_t>(count, capacity);
  for (uint64_t k = count - n; k < count; ++k)
    out.push_back(recordOf(ring[k % capacity], route_id));
}

}  // namespace

FlightRecorder::FlightRecorder(uint32_t capacity) : capacity_(capacity) {
  if (capacity_ == 0) return;
  // Slots are trivial and read only once recorded (counts start at 0): nothing to construct.
  const size_t bytes = sizeof(Slot) * capacity_;
  completed_ = static_cast<Slot*>(slotArena().take(2 * bytes));
  failed_ = completed_ + capacity_;
}

FlightRecorder::~FlightRecorder() {
  if (completed_) slotArena().give(completed_, 2 * sizeof(Slot) * capacity_);
}

void FlightRecorder::lock() const noexcept {
  while (lock_.test_and_set(std::memory_order_acquire)) {
    while (lock_.test(std::memory_order_relaxed)) std::this_thread::yield();
  }
}

void FlightRecorder::record(Exchange& ex, bool failed, uint64_t elapsed_ns,
                            int64_t now_ms) noexcept {
  if (capacity_ == 0) return;
  // A failed exchange is named (its id made here: a failure allocates its error anyway); a
  // completed one only when something already asked for its id.
  std::string_view id = failed ? std::string_view(ex.exchangeId()) : ex.exchangeIdIfMade();
  std::string error;
  if (failed && ex.failed()) error = ex.error().message();
  lock();
  Slot* ring = failed ? failed_ : completed_;
  uint64_t& count = failed ? failedCount_ : completedCount_;
  Slot& s = ring[count % capacity_];
  ++count;
  s.createdMillis = ex.createdMillis();
  s.endMillis = now_ms;
  s.elapsedNanos = elapsed_ns;
  s.failed = failed;
  s.exchangeId.clear();
  s.exchangeId.append(id);
  s.nodeId.clear();
  s.error.clear();
  if (failed && ex.failed()) {
    s.nodeId.append(ex.error().nodeId);
    s.error.append(error);
  }
  const Message& m = ex.message();
  s.bodyType.clear();
  s.bodyType.append(m.body().typeName());
  s.body.clear();
  appendValue(s.body, m.body());
  s.headers.clear();
  bool first = true;
  for (const Headers::Entry& h : m.headers()) {
    if (!first) s.headers.append(", ");
    first = false;
    s.headers.append(h.name);
    s.headers.append("=");
    appendValue(s.headers, h.value);
  }
  unlock();
}

RecentExchanges FlightRecorder::snapshot(std::string_view route_id) const {
  RecentExchanges out;
  lock();
  try {
    appendRing(completed_, completedCount_, capacity_, route_id, out.completed);
    appendRing(failed_, failedCount_, capacity_, route_id, out.failed);
  } catch (...) {
    unlock();
    throw;
  }
  unlock();
  return out;
}

}  // namespace dromedary::detail
