// SPDX-License-Identifier: Apache-2.0
#include "engine/producer_cache.h"

#include <array>
#include <string>

#include "core/text.h"

namespace dromedary {

namespace {

using detail::ProducerCacheEntry;
using detail::t_lastProducer;

constexpr size_t kSlots = 128;  // direct-mapped; a collision just re-resolves
thread_local std::array<ProducerCacheEntry, kSlots> cache;

size_t slotOf(uint64_t uid, std::string_view uri) noexcept {
  uint64_t h = 1469598103934665603ull ^ uid;  // FNV-1a
  for (char c : uri) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h % kSlots;
}

}  // namespace

Producer* detail::knownProducerHashed(uint64_t uid, std::string_view uri) noexcept {
  ProducerCacheEntry& e = cache[slotOf(uid, uri)];
  if (e.producer && e.contextUid == uid && sameText(e.uri, uri)) {
    t_lastProducer = &e;
    return e.producer;
  }
  return nullptr;
}

Result<Producer*> cachedProducer(Context& context, std::string_view uri) {
  if (Producer* p = knownProducer(context, uri)) return p;
  ProducerCacheEntry& e = cache[slotOf(context.uid(), uri)];
  auto producer = context.producer(uri);
  if (!producer) return producer.error();
  e.contextUid = context.uid();
  e.uri.assign(uri.data(), uri.size());
  e.producer = *producer;
  t_lastProducer = &e;
  return *producer;
}

Producer* cachedProducer(Context& context, std::string_view uri, Exchange& ex) noexcept {
  if (Producer* p = knownProducer(context, uri)) return p;  // no Result to build and destroy
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
