// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kamelets made into routes when route files load, as Camel's kamelet component does when it
// meets a `kamelet:` endpoint: each use of a Kamelet (a route's from, a to, a wireTap, a dead
// letter URI) becomes a route of its own from the Kamelet's template, its properties put in,
// and the use is rewritten to the endpoint joining the two (components/kamelet).

#include <vector>

#include <dromedary/core/result.h>

#include "dsl/file_source.h"

namespace dromedary {
class Context;
}

namespace dromedary::dsl {

/// Instantiates every Kamelet that `routes` and `configurations` use, appending the instances
/// to `routes` (and those their Kamelets use, to a depth of kMaxKameletDepth), and rewrites the
/// uses. Kamelets are found as KameletCatalog says, the load's own (`own`) first. Errors name
/// the use's position: an unknown Kamelet, a missing required property, a value its schema
/// refuses, a property it does not have, a source used as a sink or the other way round.
/// Instance ids (NAME-N) avoid the routes' ids and, unless `reload` (the routes are the
/// context's own files read again: their instances get the ids they got the first time), the
/// context's route ids.
Result<void> expandKamelets(Context& context, std::vector<RouteSource>& routes,
                            std::vector<RouteConfigurationSource>& configurations,
                            const std::vector<KameletSource>& own, bool reload = false);

/// How deep Kamelets may use Kamelets (a Kamelet that uses itself stops here, named).
inline constexpr size_t kMaxKameletDepth = 16;

}  // namespace dromedary::dsl
