// SPDX-License-Identifier: Apache-2.0
#pragma once

// A per-thread cache from URI text to a started producer, for sends whose URI is a string
// known only at run time (ProducerTemplate, toD). A hit costs a string compare (the URI
// sent to last) or a hash and a compare: no parsing, no lock, no allocation. Misses go to Context::producer(), which parses,
// validates and shares. Entries are keyed by the context's uid, never reused, so a
// destroyed context's entries can never be hit.

#include <cstdint>
#include <string>
#include <string_view>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>

#include "core/text.h"

namespace dromedary {

namespace detail {
/// A URI this thread has resolved (the cache's slots are in producer_cache.cc).
struct ProducerCacheEntry {
  uint64_t contextUid = 0;
  std::string uri;
  Producer* producer = nullptr;
};
/// The entry hit last on this thread: a loop sending to one URI skips the hash.
inline constinit thread_local const ProducerCacheEntry* t_lastProducer = nullptr;
/// knownProducer past the last entry: the hashed lookup.
Producer* knownProducerHashed(uint64_t context_uid, std::string_view uri) noexcept;
}  // namespace detail

/// The producer for `uri` if this thread has resolved it before, else nullptr (nothing is
/// resolved: the hit path of a send, with no Result to build). Inline for a send to the URI
/// sent to last; the hashed lookup is out of line.
inline Producer* knownProducer(Context& context, std::string_view uri) noexcept {
  const detail::ProducerCacheEntry* last = detail::t_lastProducer;
  if (last && last->contextUid == context.uid() && sameText(last->uri, uri)) [[likely]] {
    return last->producer;
  }
  return detail::knownProducerHashed(context.uid(), uri);
}

/// The producer for `uri`, or an Error when it cannot be resolved.
Result<Producer*> cachedProducer(Context& context, std::string_view uri);

/// As above; on failure records it on `exchange` and returns nullptr.
Producer* cachedProducer(Context& context, std::string_view uri, Exchange& exchange) noexcept;

/// For steps with Camel's ignoreInvalidEndpoint(s) option: as above, except that with
/// `ignore_invalid` a URI that cannot be resolved gives nullptr with `exchange` left as it was
/// (the caller skips it). So: a producer, nullptr + failed exchange, or nullptr = skip.
Producer* cachedProducer(Context& context, std::string_view uri, Exchange& exchange,
                         bool ignore_invalid) noexcept;

}  // namespace dromedary
