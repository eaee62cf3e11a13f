// SPDX-License-Identifier: Apache-2.0
#pragma once

// How REST services become routes, for both front ends (the C++ RestDefinition and the route
// files' rest/restConfiguration): each verb is a route from a platform-http endpoint on the
// joined path, restricted to the verb's method, that sends to the verb's `to`.

#include <string>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/engine/rest_definition.h>

namespace dromedary {
class Context;
class RouteBuilder;
}  // namespace dromedary

namespace dromedary::detail {

/// Checks a restConfiguration (the platform-http component, binding mode off, a port in range)
/// and gives its host and port to the HTTP server (camel.server.host/port), refusing values
/// that differ from ones already set.
Result<void> applyRestConfiguration(Context& context, const RestConfigurationDefinition& config);

/// "platform-http:/api/users/{id}?httpMethodRestrict=GET&consumes=...&produces=...".
std::string restEndpointUri(std::string_view path, std::string_view method,
                            std::string_view consumes, std::string_view produces);

/// The builder's rest() services as routes on the builder (before its routes are added).
Result<void> addRestRoutes(Context& context, RouteBuilder& builder);

}  // namespace dromedary::detail
