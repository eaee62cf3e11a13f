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

/// bindingMode off, json and auto are served (json: request bodies are read into maps and lists
/// with the json data format; auto: the same for requests whose Content-Type says JSON). Maps
/// and lists in replies are written as JSON by platform-http itself. XML bindings are not.
bool restBindingModeKnown(std::string_view mode) noexcept;
/// The Simple predicate under which a request's body is unmarshalled.
std::string_view restBindingRequestPredicate(bool only_json_requests) noexcept;

/// Checks a restConfiguration (the platform-http component, a known binding mode, a port in range)
/// and gives its host and port to the HTTP server (camel.server.host/port), refusing values
/// that differ from ones already set.
Result<void> applyRestConfiguration(Context& context, const RestConfigurationDefinition& config);

/// "platform-http:/api/users/{id}?httpMethodRestrict=GET&consumes=...&produces=...".
std::string restEndpointUri(std::string_view path, std::string_view method,
                            std::string_view consumes, std::string_view produces);

/// The builder's rest() services as routes on the builder (before its routes are added).
Result<void> addRestRoutes(Context& context, RouteBuilder& builder);

}  // namespace dromedary::detail
