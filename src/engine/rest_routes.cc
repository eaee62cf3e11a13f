// SPDX-License-Identifier: Apache-2.0
#include "engine/rest_routes.h"

#include <fmt/format.h>

#include <dromedary/core/message.h>
#include <dromedary/core/uri.h>
#include <dromedary/engine/context.h>
#include <dromedary/engine/route_builder.h>

namespace dromedary::detail {

namespace {

Result<void> setServerProperty(Context& context, const char* key, const std::string& value,
                               std::string_view option) {
  if (auto existing = context.properties().get(key); existing && *existing != value) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("restConfiguration {} {} differs from {}={} set before: one HTTP "
                                 "server serves every route",
                                 option, value, key, *existing));
  }
  context.properties().set(key, value);
  return {};
}

}  // namespace

Result<void> applyRestConfiguration(Context& context, const RestConfigurationDefinition& config) {
  const RestConfigurationDefinition::Settings& c = config.settings();
  if (!c.component.empty() && c.component != "platform-http") {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("restConfiguration component '{}' is not available: REST "
                                 "services are served by platform-http",
                                 c.component));
  }
  if (!restBindingModeKnown(c.bindingMode)) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("restConfiguration bindingMode '{}' is not supported: off, json "
                                 "or auto (XML bodies are not bound here)",
                                 c.bindingMode));
  }
  if (c.port) {
    if (*c.port < 0 || *c.port > 65535) {
      return makeError(
          ErrorCode::InvalidOption,
          fmt::format("restConfiguration port {} is not a TCP port (0 to 65535)", *c.port));
    }
    DROMEDARY_TRY_VOID(
        setServerProperty(context, "camel.server.port", std::to_string(*c.port), "port"));
  }
  if (!c.host.empty()) {
    DROMEDARY_TRY_VOID(setServerProperty(context, "camel.server.host", c.host, "host"));
  }
  return {};
}

std::string restEndpointUri(std::string_view path, std::string_view method,
                            std::string_view consumes, std::string_view produces) {
  std::string uri = fmt::format("platform-http:{}?httpMethodRestrict={}", path, method);
  if (!consumes.empty())
    fmt::format_to(std::back_inserter(uri), "&consumes={}", encodeUriComponent(consumes));
  if (!produces.empty())
    fmt::format_to(std::back_inserter(uri), "&produces={}", encodeUriComponent(produces));
  return uri;
}

bool restBindingModeKnown(std::string_view mode) noexcept {
  return equalsIgnoreCase(mode, "off") || equalsIgnoreCase(mode, "json") ||
         equalsIgnoreCase(mode, "auto");
}

std::string_view restBindingRequestPredicate(bool only_json_requests) noexcept {
  return only_json_requests ? "${body} != null && ${body} != '' && ${header.Content-Type} contains 'json'"
                            : "${body} != null && ${body} != ''";
}

Result<void> addRestRoutes(Context& context, RouteBuilder& builder) {
  if (builder.restsForEngine().empty()) return {};
  const RestConfigurationDefinition& config = builder.restConfigurationForEngine();
  DROMEDARY_TRY_VOID(applyRestConfiguration(context, config));
  for (const auto& rest : builder.restsForEngine()) {
    if (!rest->misuse().empty()) {
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("{} (in rest '{}')", rest->misuse(), rest->path()));
    }
    if (rest->verbs().empty()) {
      return makeError(
          ErrorCode::InvalidRoute,
          fmt::format("rest '{}' has no verb: add get(), post() ... with to()", rest->path()));
    }
    for (const RestDefinition::Verb& v : rest->verbs()) {
      std::string path = joinRestPath(config.settings().contextPath, rest->path(), v.path);
      if (v.to.empty()) {
        return makeError(
            ErrorCode::InvalidRoute,
            fmt::format("rest {} {} has no to(): say where its requests go", v.method, path));
      }
      RouteDefinition& route =
          builder.from(restEndpointUri(path, v.method, v.consumes, v.produces));
      if (!v.id.empty()) route.routeId(v.id);
      const bool bind = !equalsIgnoreCase(config.settings().bindingMode, "off");
      if (bind) {
        route.filter(simple(std::string(restBindingRequestPredicate(
                                equalsIgnoreCase(config.settings().bindingMode, "auto")))))
            .unmarshal("json")
            .end();
      }
      route.to(v.to);
    }
  }
  return {};
}

}  // namespace dromedary::detail
