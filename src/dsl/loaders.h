// SPDX-License-Identifier: Apache-2.0
#pragma once

// The file front ends: each reads one route file's text into RouteSources.

#include <string>
#include <string_view>
#include <vector>

#include "dsl/file_source.h"

namespace dromedary::dsl {

/// Fails at the first NUL byte of a route file's text, naming its line and column: no route
/// file holds one, and the parsers would report something else somewhere else.
Result<void> refuseNulBytes(std::string_view text, const std::string& file);

/// Adds the file's routes, routeConfigurations and beans to `out`.
Result<void> readYamlRoutes(std::string_view text, const std::string& file, FileSources& out);

/// Adds the file's routes and routeConfigurations to `out`; `ignored` receives a line per
/// element that was skipped (Spring beans around a camelContext), naming it and its position.
/// `text` is parsed in place: it is changed (names and values end with NULs written over it).
Result<void> readXmlRoutes(std::string& text, const std::string& file, FileSources& out,
                           std::vector<std::string>& ignored);

/// Adds a templatedRoute for each group of camel.route-template[N].* properties (Camel main's
/// routes from templates by properties).
Result<void> templatedRoutesFromProperties(Context& context, FileSources& out);

}  // namespace dromedary::dsl
