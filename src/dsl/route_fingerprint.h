// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fingerprints of the routes a load reads, so that `dromedary run --dev` can tell which routes
// an edit changed and swap only those. A route's fingerprint covers everything that makes it
// what it is: its kinds, keys and values as written, with the context's {{placeholders}}
// resolved (an edited property changes the routes that use it), but not where they are in
// the file (moving a route, or editing the comments above it, changes nothing).

#include <cstdint>

#include "dsl/file_source.h"

namespace dromedary::dsl {

/// What applies to every route of the load: its route configurations, beans and rest
/// configuration (an edit to any of them changes every route's fingerprint).
uint64_t sharedFingerprint(Context& context, const FileSources& sources);

/// A route's fingerprint, with `shared` folded in.
uint64_t routeFingerprint(Context& context, const RouteSource& route, uint64_t shared);

/// A templatedRoute's: its parameters and (when it is one of the load's) its template's.
uint64_t templatedRouteFingerprint(Context& context, const TemplatedRouteSource& route,
                                   const FileSources& sources, uint64_t shared);

}  // namespace dromedary::dsl
