// SPDX-License-Identifier: Apache-2.0
// Camel's rest and restConfiguration entries of route files, as routes: each verb becomes a
// route from platform-http (engine/rest_routes.h makes the URI, as for the C++ REST DSL). Keys
// are checked here, where their positions are known; documentation-only keys (description,
// param, responseMessage, type, outType ...) are accepted and have no effect (types are JSON
// shapes here: with bindingMode json, bodies are maps and lists).
#include "dsl/rest_sources.h"

#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "dsl/file_source.h"
#include "engine/rest_routes.h"

namespace dromedary::dsl {

namespace {

Result<void> checkKeys(const std::vector<std::pair<std::string, Scalar>>& attributes,
                       const std::vector<std::string_view>& known, std::string_view where) {
  for (const auto& [key, value] : attributes) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return fileError(value.where, fmt::format("unknown key '{}' in {}", key, where),
                       suggestion(key, known));
    }
  }
  return {};
}

// Is `key` set to true ({{placeholders}} resolved)?
Result<bool> isTrue(Context& context, const std::vector<std::pair<std::string, Scalar>>& attrs,
                    std::string_view key) {
  const Scalar* s = attribute(attrs, key);
  if (!s) return false;
  auto v = resolveScalar(context, *s);
  if (!v) return v.error();
  return v->compare("true") == 0;
}

// "true" where a key may only be off: an error at it, saying what is not supported.
Result<void> refuseTrue(Context& context, const std::vector<std::pair<std::string, Scalar>>& attrs,
                        std::string_view key, std::string_view why) {
  DROMEDARY_TRY(on, isTrue(context, attrs, key));
  if (on)
    return fileError(attribute(attrs, key)->where,
                     fmt::format("{}: true is not supported: {}", key, why));
  return {};
}

// bindingMode: off, json or auto (as json, for requests whose Content-Type says JSON); xml
// and json_xml need XML bindings, which are not here.
Result<void> checkBindingMode(Context& context,
                              const std::vector<std::pair<std::string, Scalar>>& attrs) {
  if (const Scalar* s = attribute(attrs, "bindingMode")) {
    DROMEDARY_TRY(v, resolveScalar(context, *s));
    if (!detail::restBindingModeKnown(v)) {
      return fileError(s->where, fmt::format("bindingMode '{}' is not supported", v),
                       "off, json or auto: XML bodies are not bound here");
    }
  }
  return {};
}

// The checks a rest and each of its verbs share: known keys, a known bindingMode, and no key
// asking for what is not done here.
Result<void> checkRestKeys(Context& context,
                           const std::vector<std::pair<std::string, Scalar>>& attrs,
                           const std::vector<std::string_view>& known, std::string_view where) {
  DROMEDARY_TRY_VOID(checkKeys(attrs, known, where));
  DROMEDARY_TRY_VOID(checkBindingMode(context, attrs));
  for (std::string_view key : {"clientRequestValidation", "enableCORS"}) {
    DROMEDARY_TRY_VOID(
        refuseTrue(context, attrs, key, "remove it, or check the request in the route"));
  }
  return {};
}

Result<RestConfigurationDefinition> restConfiguration(Context& context,
                                                      const RestConfigurationSource& source,
                                                      RestServiceOptions& options) {
  static const std::vector<std::string_view> kKeys = {"component",
                                                      "host",
                                                      "port",
                                                      "contextPath",
                                                      "bindingMode",
                                                      "scheme",
                                                      "inlineRoutes",
                                                      "apiContextPath",
                                                      "clientRequestValidation",
                                                      "clientResponseValidation"};
  DROMEDARY_TRY_VOID(checkKeys(source.attributes, kKeys, "restConfiguration"));
  DROMEDARY_TRY_VOID(checkBindingMode(context, source.attributes));
  RestConfigurationDefinition config;
  for (const auto& [key, scalar] : source.attributes) {
    DROMEDARY_TRY(v, resolveScalar(context, scalar));
    if (key == "component") {
      config.component(v);
    } else if (key == "host") {
      config.host(v);
    } else if (key == "port") {
      int port = -1;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), port);
      if (ec != std::errc() || end != v.data() + v.size() || port < 0 || port > 65535) {
        return fileError(scalar.where, fmt::format("port '{}' is not a TCP port (0 to 65535)", v));
      }
      config.port(port);
    } else if (key == "contextPath") {
      config.contextPath(v);
    } else if (key == "bindingMode") {
      config.bindingMode(v);
    } else if (key == "scheme" && v != "http") {
      return fileError(scalar.where, fmt::format("scheme '{}' is not served: only http", v));
    } else if (key == "apiContextPath") {
      options.apiContextPath = v;  // an openApi's document is served there (checked by the caller)
    } else if (key == "clientRequestValidation" || key == "clientResponseValidation") {
      if (v != "true" && v != "false") {
        return fileError(scalar.where, fmt::format("{} must be true or false, not '{}'", key, v));
      }
      (key == "clientRequestValidation" ? options.clientRequestValidation
                                        : options.clientResponseValidation) = v == "true";
    }
    // inlineRoutes: Camel's merging of a verb's direct route into its own; the routes stay
    // apart here, with the same behaviour.
  }
  auto applied = detail::applyRestConfiguration(context, config);
  if (!applied) return fileError(source.where, applied.error().message);
  return config;
}

// What the load's restConfiguration asks only contract-first REST to do: serving the OpenAPI
// document (there is none for code-first verbs here) and checking requests against it.
Result<void> checkCodeFirstOptions(const FileSources& sources, const RestServiceOptions& options) {
  bool open_api = false;
  bool code_first = false;
  for (const RestSource& rest : sources.rests) (rest.openApi ? open_api : code_first) = true;
  const std::vector<std::pair<std::string, Scalar>>* attrs =
      sources.restConfigurations.empty() ? nullptr : &sources.restConfigurations.front().attributes;
  if (!attrs) return {};
  if (!options.apiContextPath.empty() && !open_api) {
    return fileError(attribute(*attrs, "apiContextPath")->where,
                     "apiContextPath: an OpenAPI document is served only for a rest openApi",
                     "remove it; code-first rests have no document here");
  }
  if (code_first && (options.clientRequestValidation || options.clientResponseValidation)) {
    const char* key =
        options.clientRequestValidation ? "clientRequestValidation" : "clientResponseValidation";
    return fileError(
        attribute(*attrs, key)->where,
        fmt::format("{}: true applies to rest openApi here, not to code-first verbs", key),
        "remove it: code-first verbs answer 415 and 406 by consumes and produces");
  }
  return {};
}

}  // namespace

// The step that binds a verb's request body (detail::restBindingRequestPredicate says when): its
// JSON read into maps and lists before the verb's own steps. Maps and lists in the reply are
// written as JSON by platform-http.
void bindJson(RouteSource& r, bool only_json_requests) {
  StepSource filter;
  filter.kind = "filter";
  filter.where = r.where;
  filter.expression = ExpressionSource{
      "simple", std::string(detail::restBindingRequestPredicate(only_json_requests)), r.where, {}};
  StepSource unmarshal;
  unmarshal.kind = "unmarshal";
  unmarshal.where = r.where;
  StepSource json;
  json.kind = "json";
  json.where = r.where;
  unmarshal.policies.push_back(std::move(json));
  filter.steps.push_back(std::move(unmarshal));
  r.steps.insert(r.steps.begin(), std::move(filter));
}

Result<std::vector<RouteSource>> restRoutes(Context& context, const FileSources& sources) {
  std::vector<RouteSource> routes;
  if (sources.rests.empty() && sources.restConfigurations.empty()) return routes;
  if (sources.restConfigurations.size() > 1) {
    return fileError(sources.restConfigurations[1].where,
                     "a second restConfiguration: one serves every rest of the load");
  }
  RestConfigurationDefinition config;
  RestServiceOptions options;
  if (!sources.restConfigurations.empty()) {
    DROMEDARY_TRY(c, restConfiguration(context, sources.restConfigurations.front(), options));
    config = std::move(c);
  }
  options.contextPath = config.settings().contextPath;
  options.bindingMode = config.settings().bindingMode;
  DROMEDARY_TRY_VOID(checkCodeFirstOptions(sources, options));
  std::set<std::string> direct_routes;
  bool direct_routes_known = false;
  static const std::vector<std::string_view> kRestKeys = {"id",
                                                          "path",
                                                          "consumes",
                                                          "produces",
                                                          "description",
                                                          "tag",
                                                          "bindingMode",
                                                          "apiDocs",
                                                          "disabled",
                                                          "skipBindingOnErrorCode",
                                                          "clientRequestValidation",
                                                          "enableCORS"};
  static const std::vector<std::string_view> kVerbKeys = {"id",
                                                          "routeId",
                                                          "path",
                                                          "consumes",
                                                          "produces",
                                                          "description",
                                                          "bindingMode",
                                                          "apiDocs",
                                                          "deprecated",
                                                          "disabled",
                                                          "type",
                                                          "outType",
                                                          "skipBindingOnErrorCode",
                                                          "clientRequestValidation",
                                                          "enableCORS"};
  for (const RestSource& rest : sources.rests) {
    DROMEDARY_TRY_VOID(checkRestKeys(context, rest.attributes, kRestKeys, "rest"));
    DROMEDARY_TRY(rest_disabled, isTrue(context, rest.attributes, "disabled"));
    if (rest_disabled) continue;
    if (rest.openApi) {
      if (!rest.verbs.empty()) {
        return fileError(rest.verbs.front().where, "a rest with openApi has no verbs of its own",
                         "put these verbs in a rest of their own");
      }
      if (!direct_routes_known) {
        direct_routes = directRouteNames(context, sources.routes);
        direct_routes_known = true;
      }
      DROMEDARY_TRY(made, openApiRoutes(context, *rest.openApi, options, direct_routes));
      for (RouteSource& r : made) routes.push_back(std::move(r));
      continue;
    }
    if (rest.verbs.empty()) {
      return fileError(rest.where, "rest has no verb", "add get, post, put, patch, delete or head");
    }
    const Scalar* rest_path = attribute(rest.attributes, "path");
    for (const RestVerbSource& verb : rest.verbs) {
      DROMEDARY_TRY_VOID(checkRestKeys(context, verb.attributes, kVerbKeys, verb.method));
      if (verb.paramDefault) {
        return fileError(verb.paramDefault->where, "a param's defaultValue is not applied here",
                         "set the header in the route when the request lacks it");
      }
      DROMEDARY_TRY(verb_disabled, isTrue(context, verb.attributes, "disabled"));
      if (verb_disabled) continue;
      const Scalar* verb_path = attribute(verb.attributes, "path");
      std::string path =
          joinRestPath(config.settings().contextPath, rest_path ? rest_path->value : "",
                       verb_path ? verb_path->value : "");
      std::string method = verb.method;
      for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (verb.to.empty()) {
        return fileError(verb.where, fmt::format("rest {} {} has no to", method, path),
                         "say where its requests go, e.g. 'to: direct:name'");
      }
      RouteSource r;
      r.where = verb.where;
      r.from = Scalar{"platform-http:" + path, verb.where};
      r.parameters.emplace_back("httpMethodRestrict", Scalar{method, verb.where});
      for (std::string_view key : {"consumes", "produces"}) {
        const Scalar* s = attribute(verb.attributes, key);
        if (!s) s = attribute(rest.attributes, key);
        if (s) r.parameters.emplace_back(std::string(key), *s);
      }
      const Scalar* id = attribute(verb.attributes, "routeId");
      if (!id) id = attribute(verb.attributes, "id");
      if (id) r.attributes.emplace_back("id", *id);
      r.steps = verb.to;
      std::string mode = config.settings().bindingMode;
      for (const auto* attrs : {&rest.attributes, &verb.attributes}) {
        if (const Scalar* b = attribute(*attrs, "bindingMode")) {
          DROMEDARY_TRY(v, resolveScalar(context, *b));
          mode = v;
        }
      }
      if (!equalsIgnoreCase(mode, "off")) bindJson(r, equalsIgnoreCase(mode, "auto"));
      routes.push_back(std::move(r));
    }
  }
  return routes;
}

}  // namespace dromedary::dsl
