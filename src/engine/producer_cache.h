// SPDX-License-Identifier: Apache-2.0
#pragma once

// A per-thread cache from URI text to a started producer, for sends whose URI is a string
// known only at run time (ProducerTemplate, toD). A hit costs a hash and a string compare:
// no parsing, no lock, no allocation. Misses go to Context::producer(), which parses,
// validates and shares. Entries are keyed by the context's uid, never reused, so a
// destroyed context's entries can never be hit.

#include <string_view>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>

namespace dromedary {

/// The producer for `uri` if this thread has resolved it before, else nullptr (nothing is
/// resolved: the hit path of a send, with no Result to build).
Producer* knownProducer(Context& context, std::string_view uri) noexcept;

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
