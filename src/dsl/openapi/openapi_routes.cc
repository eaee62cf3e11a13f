// SPDX-License-Identifier: Apache-2.0
// Camel's contract-first REST (`rest: openApi: {specification: petstore.json}`) as routes.
// Camel serves every operation from one rest-openapi consumer that matches the request to an
// operation; here each operation is a platform-http route of its own (as each verb of the
// code-first REST DSL is), so matching, path parameters, 404 and 405 are platform-http's.
#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/engine/rest_definition.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "dsl/openapi/openapi_document.h"
#include "dsl/openapi/openapi_responders.h"
#include "dsl/rest_sources.h"
#include "dsl/translator.h"
#include "eip/eip_schema.h"
#include "engine/resources.h"

namespace dromedary::dsl {

namespace {

constexpr std::string_view kComponentPrefix = "camel.component.rest-openapi.";
constexpr std::string_view kDefaultMockPattern = "classpath:camel-mock/**";

// A component property (camel.component.rest-openapi.basePath), camelCase or kebab-case.
std::optional<std::string> componentProperty(Context& context, std::string_view camel,
                                             std::string_view kebab) {
  for (std::string_view name : {camel, kebab}) {
    if (auto v = context.properties().get(fmt::format("{}{}", kComponentPrefix, name))) return v;
  }
  return std::nullopt;
}

// "direct:name?options", "direct://name": the name; empty for another scheme.
std::string directName(std::string_view uri) {
  if (!uri.starts_with("direct:")) return {};
  uri.remove_prefix(7);
  if (uri.starts_with("//")) uri.remove_prefix(2);
  return std::string(uri.substr(0, uri.find('?')));
}

struct OpenApiOptions {
  std::string specification;
  SourceRef specificationWhere;
  std::string missingOperation;
  std::string mockIncludePattern;
  std::string routeId;
  std::string apiContextPath;
  bool disabled = false;
};

Result<OpenApiOptions> readOptions(Context& context, const RestOpenApiSource& source,
                                   const RestServiceOptions& rest) {
  static const std::vector<std::string_view> kKeys = {"specification",
                                                      "missingOperation",
                                                      "mockIncludePattern",
                                                      "routeId",
                                                      "apiContextPath",
                                                      "disabled",
                                                      "id",
                                                      "description"};
  OpenApiOptions o;
  o.apiContextPath = rest.apiContextPath;
  bool has_specification = false;
  for (const auto& [written, scalar] : source.attributes) {
    std::string key = eip::camelCaseOf(written);
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      return fileError(scalar.where, fmt::format("unknown key '{}' in openApi", written),
                       suggestion(key, kKeys));
    }
    DROMEDARY_TRY(v, resolveScalar(context, scalar));
    if (key == "specification") {
      o.specification = v;
      o.specificationWhere = scalar.where;
      has_specification = true;
    } else if (key == "missingOperation") {
      o.missingOperation = v;
      if (!equalsIgnoreCase(v, "fail") && !equalsIgnoreCase(v, "ignore") &&
          !equalsIgnoreCase(v, "mock")) {
        return fileError(scalar.where, fmt::format("missingOperation '{}' is not one of fail, "
                                                   "ignore or mock",
                                                   v));
      }
    } else if (key == "mockIncludePattern") {
      o.mockIncludePattern = v;
    } else if (key == "routeId") {
      o.routeId = v;
    } else if (key == "apiContextPath") {
      o.apiContextPath = v;
    } else if (key == "disabled") {
      if (v != "true" && v != "false") {
        return fileError(scalar.where, fmt::format("disabled must be true or false, not '{}'", v));
      }
      o.disabled = v == "true";
    }
  }
  if (!has_specification || o.specification.empty()) {
    return fileError(source.where, "openApi has no specification",
                     "name the OpenAPI document, e.g. 'specification: petstore.json'");
  }
  // Not set: the component's option, then Camel's default by profile (mock in dev, as Camel
  // JBang runs; fail otherwise).
  if (o.missingOperation.empty()) {
    o.missingOperation =
        componentProperty(context, "missingOperation", "missing-operation").value_or("");
    if (o.missingOperation.empty()) {
      const std::string profile = context.properties().get("camel.main.profile").value_or("dev");
      o.missingOperation = equalsIgnoreCase(profile, "dev") ? "mock" : "fail";
    }
  }
  if (o.mockIncludePattern.empty()) {
    o.mockIncludePattern = componentProperty(context, "mockIncludePattern", "mock-include-pattern")
                               .value_or(std::string(kDefaultMockPattern));
  }
  return o;
}

// The document's text: a bare name is on the classpath, as Camel's resource loader has it.
Result<std::string> readSpecification(Context& context, const OpenApiOptions& o) {
  std::string_view spec = o.specification;
  if (spec.starts_with("http:") || spec.starts_with("https:")) {
    return fileError(o.specificationWhere,
                     fmt::format("specification '{}' is not fetched here", spec),
                     "save the document beside the route files and name the file");
  }
  std::string resource = spec.starts_with("file:") || spec.starts_with("classpath:")
                             ? fmt::format("resource:{}", spec)
                             : fmt::format("resource:classpath:{}", spec);
  auto text = detail::readResource(context, resource);
  if (!text) return fileError(o.specificationWhere, text.error().message);
  return std::move(*text);
}

StepSource processStep(const SourceRef& where, std::string name,
                       std::shared_ptr<Processor> processor) {
  StepSource s;
  s.kind = "process";
  s.where = where;
  s.attributes.emplace_back("ref", Scalar{std::move(name), where});
  s.processor = std::move(processor);
  return s;
}

// A rejected request ends here, with the check's answer.
StepSource stopWhenRejected(const SourceRef& where) {
  StepSource filter;
  filter.kind = "filter";
  filter.where = where;
  filter.expression =
      ExpressionSource{"simple",
                       fmt::format("${{exchangeProperty.{}}} == true", kRequestRejectedProperty),
                       where,
                       {}};
  StepSource stop;
  stop.kind = "stop";
  stop.where = where;
  filter.steps.push_back(std::move(stop));
  return filter;
}

// The route serving one operation: the request check (clientRequestValidation), then the
// send to direct:operationId when `implemented` (its JSON bound as bindingMode says), else the
// mock answer (`mocks` set) or nothing (ignore: the request answers), then the response check.
RouteSource operationRoute(const SourceRef& where, const OpenApiOperation& op,
                           const std::string& base, const OpenApiOptions& o,
                           const RestServiceOptions& rest, bool implemented,
                           const std::shared_ptr<const std::vector<MockFile>>& mocks) {
  RouteSource r;
  r.where = where;
  r.from = Scalar{"platform-http:" + joinRestPath(base, op.path, ""), where};
  r.parameters.emplace_back("httpMethodRestrict", Scalar{op.method, where});
  if (!o.routeId.empty())
    r.attributes.emplace_back("id", Scalar{o.routeId + "-" + op.operationId, where});
  if (rest.clientRequestValidation) {
    // 415 and 406 are platform-http's answers; the rest is the check's.
    if (!op.consumes.empty()) r.parameters.emplace_back("consumes", Scalar{op.consumes, where});
    if (!op.produces.empty()) r.parameters.emplace_back("produces", Scalar{op.produces, where});
    r.steps.push_back(
        processStep(where, "openApi-request-check:" + op.operationId, makeRequestCheck(op)));
    r.steps.push_back(stopWhenRejected(where));
  }
  if (implemented) {
    if (!equalsIgnoreCase(rest.bindingMode, "off")) {
      RouteSource bound;
      bound.where = where;
      bindJson(bound, equalsIgnoreCase(rest.bindingMode, "auto"));
      r.steps.push_back(std::move(bound.steps.front()));
    }
    StepSource to;
    to.kind = "to";
    to.where = where;
    to.attributes.emplace_back("uri", Scalar{"direct:" + op.operationId, where});
    r.steps.push_back(std::move(to));
  } else if (mocks) {
    r.steps.push_back(
        processStep(where, "openApi-mock:" + op.operationId, makeMockResponder(base, op, mocks)));
  }
  if (rest.clientResponseValidation) {
    r.steps.push_back(
        processStep(where, "openApi-response-check:" + op.operationId, makeResponseCheck(op)));
  }
  return r;
}

}  // namespace

std::set<std::string> directRouteNames(Context& context, const std::vector<RouteSource>& routes) {
  std::set<std::string> names;
  Translator translator(context);
  for (const RouteSource& r : routes) {
    auto uri = translator.withParameters(r.from, r.parameters);
    if (!uri) continue;  // the route's own translation reports it
    if (std::string name = directName(*uri); !name.empty()) names.insert(std::move(name));
  }
  for (const std::string& id : context.routeIds()) {
    if (auto stats = context.routeStatistics(id)) {
      if (std::string name = directName(stats->from); !name.empty()) names.insert(std::move(name));
    }
  }
  return names;
}

Result<std::vector<RouteSource>> openApiRoutes(Context& context, const RestOpenApiSource& source,
                                               const RestServiceOptions& rest,
                                               const std::set<std::string>& direct_routes) {
  std::vector<RouteSource> routes;
  DROMEDARY_TRY(o, readOptions(context, source, rest));
  if (o.disabled) return routes;
  DROMEDARY_TRY(text, readSpecification(context, o));
  auto read = readOpenApiDocument(text, o.specification);
  if (!read) {  // where in the document, and which openApi named it
    const Error& e = read.error();
    return fileError(o.specificationWhere,
                     e.where.line ? fmt::format("{}:{}:{}: {}", e.where.file.str(), e.where.line,
                                                e.where.column, e.message)
                                  : e.message);
  }
  OpenApiDocument doc = std::move(*read);

  // Camel's order: the component's basePath, the restConfiguration's contextPath, the
  // document's server URL.
  std::string base = componentProperty(context, "basePath", "base-path").value_or("");
  if (base.empty()) base = rest.contextPath;
  if (base.empty()) base = doc.basePath;
  base = joinRestPath(base, "", "");
  if (base == "/") base.clear();

  std::vector<std::string> missing;
  for (const OpenApiOperation& op : doc.operations) {
    if (!direct_routes.contains(op.operationId)) missing.push_back("direct:" + op.operationId);
  }
  if (!missing.empty() && equalsIgnoreCase(o.missingOperation, "fail")) {
    std::sort(missing.begin(), missing.end());
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    return fileError(
        source.where,
        fmt::format("OpenAPI document '{}' has {} operation{} without a route: {}", o.specification,
                    missing.size(), missing.size() == 1 ? "" : "s", list),
        "add a route from each, or set missingOperation to ignore or mock");
  }
  if (!missing.empty() && equalsIgnoreCase(o.missingOperation, "ignore")) {
    Logger::get("dromedary.rest-openapi")
        .log(LoggingLevel::Warn,
             fmt::format("OpenAPI document '{}' has {} operations without a route; "
                         "missingOperation ignore: each answers with its request",
                         o.specification, missing.size()));
  }
  std::shared_ptr<const std::vector<MockFile>> mocks;
  if (!missing.empty() && equalsIgnoreCase(o.missingOperation, "mock")) {
    auto files = readMockFiles(context, o.mockIncludePattern);
    if (!files) return fileError(source.where, files.error().message);
    mocks = std::make_shared<const std::vector<MockFile>>(std::move(*files));
  }

  for (const OpenApiOperation& op : doc.operations) {
    routes.push_back(operationRoute(source.where, op, base, o, rest,
                                    direct_routes.contains(op.operationId), mocks));
  }

  if (!o.apiContextPath.empty()) {
    std::string type = o.specification.ends_with("json") ? "application/json"
                       : o.specification.ends_with("yaml") || o.specification.ends_with("yml")
                           ? "text/yaml"
                           : "";
    RouteSource r;
    r.where = source.where;
    r.from = Scalar{"platform-http:" + joinRestPath(base, o.apiContextPath, ""), source.where};
    r.parameters.emplace_back("httpMethodRestrict", Scalar{"GET", source.where});
    if (!o.routeId.empty())
      r.attributes.emplace_back("id", Scalar{o.routeId + "-api-doc", source.where});
    r.steps.push_back(processStep(source.where, "openApi-document",
                                  makeDocumentResponder(std::move(text), std::move(type))));
    routes.push_back(std::move(r));
  }
  return routes;
}

}  // namespace dromedary::dsl
