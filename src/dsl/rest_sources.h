// SPDX-License-Identifier: Apache-2.0
#pragma once

// What rest_sources.cc (the REST DSL of route files) shares with openapi/openapi_routes.cc
// (contract-first REST): the restConfiguration's options both read, and the JSON binding step.

#include <set>
#include <string>
#include <vector>

#include "dsl/file_source.h"

namespace dromedary::dsl {

/// A load's restConfiguration, as the routes it makes need it.
struct RestServiceOptions {
  std::string contextPath;
  std::string bindingMode = "off";
  std::string apiContextPath;  ///< where an openApi's document is served (empty: not served)
  bool clientRequestValidation = false;
  bool clientResponseValidation = false;
};

/// Puts before `r`'s steps the step that reads a request's JSON body into maps and lists
/// (bindingMode json, or auto for requests whose Content-Type says JSON).
void bindJson(RouteSource& r, bool only_json_requests);

/// The routes serving an openApi's document: one per operation, from platform-http on the
/// base path and the operation's path, to direct:operationId when `direct_routes` (the names
/// of the load's and the context's direct: routes) has it, else as missingOperation says;
/// and one serving the document at apiContextPath.
Result<std::vector<RouteSource>> openApiRoutes(Context& context, const RestOpenApiSource& source,
                                               const RestServiceOptions& options,
                                               const std::set<std::string>& direct_routes);

/// The names of the direct: routes `routes` and `context` start from.
std::set<std::string> directRouteNames(Context& context, const std::vector<RouteSource>& routes);

}  // namespace dromedary::dsl
