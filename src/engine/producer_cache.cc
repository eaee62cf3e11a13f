// SPDX-License-Identifier: Apache-2.0
#include "engine/producer_cache.h"

#include <array>
#include <string>

#include "core/text.h"

namespace dromedary {

namespace {

struct Entry {
  uint64_t context_uid = 0;
  std::string uri;
  Producer* producer = nullptr;
};

constexpr size_t kSlots = 128;  // direct-mapped; a collision just re-resolves
thread_local std::array<Entry, kSlots> cache;

// The entry hit last on this thread: a loop sending to one URI skips the hash.
thread_local const Entry* last = nullptr;

size_t slotOf(uint64_t uid, std::string_view uri) noexcept {
  uint64_t h = 1469598103934665603ull ^ uid;  // FNV-1a
  for (char c : uri) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h % kSlots;
}

// This thread's producer for (context, uri), or null when it has none yet.
inline Producer* known(uint64_t uid, std::string_view uri) noexcept {
  if (last && last->context_uid == uid && sameText(last->uri, uri)) return last->producer;
  Entry& e = cache[slotOf(uid, uri)];
  if (e.producer && e.context_uid == uid && sameText(e.uri, uri)) {
    last = &e;
    return e.producer;
  }
  return nullptr;
}

}  // namespace

Producer* knownProducer(Context& context, std::string_view uri) noexcept {
  return known(context.uid(), uri);
}

Result<Producer*> cachedProducer(Context& context, std::string_view uri) {
  if (Producer* p = known(context.uid(), uri)) return p;
  Entry& e = cache[slotOf(context.uid(), uri)];
  auto producer = context.producer(uri);
  if (!producer) return producer.error();
  e.context_uid = context.uid();
  e.uri.assign(uri.data(), uri.size());
  e.producer = *producer;
  last = &e;
  return *producer;
}

Producer* cachedProducer(Context& context, std::string_view uri, Exchange& ex) noexcept {
  if (Producer* p = known(context.uid(), uri)) return p;  // no Result to build and destroy
  try {
    auto producer = cachedProducer(context, uri);
    if (producer) return *producer;
    ex.failWithDetail(producer.error().code, "Cannot resolve endpoint",
                      producer.error().message);
  } catch (...) {
    ex.setException(std::current_exception());
  }
  return nullptr;
}

Producer* cachedProducer(Context& context, std::string_view uri, Exchange& ex,
                         bool ignore_invalid) noexcept {
  if (!ignore_invalid) return cachedProducer(context, uri, ex);
  try {
    auto producer = cachedProducer(context, uri);
    return producer ? *producer : nullptr;
  } catch (...) {
    return nullptr;
  }
}

}  // namespace dromedary
