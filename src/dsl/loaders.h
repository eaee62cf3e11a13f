// SPDX-License-Identifier: Apache-2.0
#pragma once

// The file front ends: each reads one route file's text into RouteSources.

#include <string>
#include <string_view>
#include <vector>

#include "dsl/route_source.h"

namespace dromedary::dsl {

/// `beans` receives the file's `beans:` entries.
Result<std::vector<RouteSource>> readYamlRoutes(std::string_view text, const std::string& file,
                                                std::vector<BeanSource>& beans);

/// `ignored` receives a line per element that was skipped (Spring beans around a
/// camelContext), naming it and its position.
Result<std::vector<RouteSource>> readXmlRoutes(std::string_view text, const std::string& file,
                                               std::vector<std::string>& ignored);

}  // namespace dromedary::dsl
