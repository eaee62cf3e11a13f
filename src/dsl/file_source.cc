// SPDX-License-Identifier: Apache-2.0
#include "dsl/file_source.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/route_builder.h>

#include "core/text.h"
#include "dsl/kamelet/kamelet_expansion.h"
#include "dsl/loaders.h"
#include "dsl/route_fingerprint.h"
#include "eip/aggregation_strategy_beans.h"
#include "eip/eip_schema.h"
#include "dsl/translator.h"
#include "engine/route_model.h"

namespace dromedary::dsl {

namespace {

template <typename T>
void appendAll(std::vector<T>& to, std::vector<T>&& from) {
  if (to.empty()) {
    to = std::move(from);
    return;
  }
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace

void appendSources(FileSources& to, FileSources&& from) {
  appendAll(to.routes, std::move(from.routes));
  appendAll(to.routeContexts, std::move(from.routeContexts));
  appendAll(to.routeContextRefs, std::move(from.routeContextRefs));
  appendAll(to.propertyLocations, std::move(from.propertyLocations));
  appendAll(to.configurations, std::move(from.configurations));
  appendAll(to.beans, std::move(from.beans));
  appendAll(to.templates, std::move(from.templates));
  appendAll(to.templatedRoutes, std::move(from.templatedRoutes));
  appendAll(to.rests, std::move(from.rests));
  appendAll(to.restConfigurations, std::move(from.restConfigurations));
  appendAll(to.kamelets, std::move(from.kamelets));
}

Result<void> includeRouteContexts(FileSources& sources, std::vector<std::string>& notes) {
  std::vector<bool> used(sources.routeContexts.size(), false);
  for (const Scalar& ref : sources.routeContextRefs) {
    size_t i = 0;
    while (i < sources.routeContexts.size() && sources.routeContexts[i].id.value != ref.value) ++i;
    if (i == sources.routeContexts.size()) {
      std::vector<std::string_view> ids;
      for (const RouteContextSource& c : sources.routeContexts) ids.push_back(c.id.value);
      return fileError(ref.where, fmt::format("no <routeContext id=\"{}\">", ref.value),
                       ids.empty() ? std::string("no file of this load declares a routeContext")
                                   : fmt::format("there are: {}", joinNames(ids)));
    }
    if (used[i]) {
      // Camel would add its routes twice, with the same ids: a start failure there.
      return fileError(ref.where,
                       fmt::format("routeContext '{}' is referenced twice", ref.value));
    }
    used[i] = true;
    appendAll(sources.routes, std::move(sources.routeContexts[i].routes));
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i]) continue;
    const RouteContextSource& c = sources.routeContexts[i];
    notes.push_back(fmt::format("routeContext '{}' at {} is not referenced by a "
                                "<routeContextRef>: its routes are not loaded",
                                c.id.value, positionText(c.id.where)));
  }
  sources.routeContexts.clear();
  sources.routeContextRefs.clear();
  return {};
}

Result<void> loadPropertyLocations(Context& context, const FileSources& sources,
                                   std::vector<std::string>& notes) {
  for (const Scalar& location : sources.propertyLocations) {
    std::string_view name = location.value;
    std::filesystem::path path;
    if (name.starts_with("file:")) {
      path = std::string(name.substr(5));
    } else {
      if (name.starts_with("classpath:")) name.remove_prefix(10);
      while (name.starts_with("/")) name.remove_prefix(1);
      path = std::filesystem::path(location.where.file.str()).parent_path() / std::string(name);
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      notes.push_back(fmt::format("property-placeholder location '{}' at {}: no {}; its "
                                  "properties are not loaded (give them with --properties)",
                                  location.value, positionText(location.where), path.string()));
      continue;
    }
    DROMEDARY_TRY_VOID(context.properties().load(path.string()));
    notes.push_back(fmt::format("loaded properties from {}", path.string()));
  }
  return {};
}

Result<void> refuseNulBytes(std::string_view text, const std::string& file) {
  size_t at = text.find('\0');
  if (at == std::string_view::npos) return {};
  size_t line_start = text.rfind('\n', at);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  SourceRef where;
  where.file = file;
  where.line = static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
  where.column = static_cast<uint32_t>(at - line_start + 1);
  return fileError(where, "a NUL byte", "a route file is text: is this the file meant?");
}

Result<void> refuseUnknownKey(std::string_view kind, std::string_view key, const SourceRef& where) {
  const eip::EipSchema* schema = eip::findEipSchema(kind);
  if (!schema || key == "id" || key == "description" || schema->attribute(key)) return {};
  std::vector<std::string_view> names;
  for (const eip::AttributeSchema& a : schema->attributes) names.push_back(a.name);
  if (!schema->clauseSchemas.empty() && closestMatch(key, names).empty()) {
    std::string hint = fmt::format("{} holds {}", kind, schema->clauses);
    if (!names.empty()) hint += fmt::format("; its other keys: {}", joinNames(names));
    return fileError(where, fmt::format("unknown key '{}' in {}", key, kind), hint);
  }
  return fileError(where, fmt::format("unknown key '{}' in {}", key, kind),
                   names.empty() ? fmt::format("{} takes no keys but id and description", kind)
                                 : suggestion(key, names));
}

std::string positionText(const SourceRef& where) {
  if (where.line == 0) return where.file;
  return fmt::format("{}:{}:{}", where.file.str(), where.line, where.column);
}

Error fileError(const SourceRef& where, std::string_view what, std::string_view hint) {
  std::string message = fmt::format("{} at {}", what, positionText(where));
  if (!hint.empty()) {
    message += "; ";
    message += hint;
  }
  Error e = makeError(ErrorCode::InvalidRoute, std::move(message));
  e.where.snippet = where.snippet;
  return e;
}

std::string suggestion(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string meant = closestMatch(word, candidates);
  if (!meant.empty()) return fmt::format("did you mean '{}'?", meant);
  return fmt::format("expected one of: {}", joinNames(candidates));
}

const std::vector<std::string_view>& expressionLanguages() {
  static const std::vector<std::string_view> languages = {
      "simple", "constant", "header", "exchangeProperty", "variable", "jsonpath", "jq", "tokenize"};
  return languages;
}

bool isJvmLanguage(std::string_view language) {
  static constexpr std::string_view kJvm[] = {
      "groovy", "javascript", "js", "mvel", "ognl", "python", "spel", "java", "joor",
      "datasonnet", "xpath", "xquery", "kotlin", "bean", "method", "wasm", "jexl"};
  return std::find(std::begin(kJvm), std::end(kJvm), language) != std::end(kJvm);
}

bool languageTakesOptions(std::string_view language) {
  return language == "jsonpath" || language == "jq";
}

namespace {

using Templates = std::map<std::string, RouteTemplate, std::less<>>;

// A routeTemplate is checked when it is loaded, even if nothing instantiates it: its route is
// translated once, with each parameter's default or a stand-in that typed checks let through.
// Only a mistake of the template's own (an unknown step, key or language) fails the load; what
// depends on the values waits for them.
Result<void> checkTemplate(Context& context, const RouteTemplateSource& t,
                           const std::vector<RouteConfigurationSource>& configs) {
  std::map<std::string, std::string, std::less<>> values;
  for (const TemplateParameterSource& p : t.parameters) {
    values[p.name.value] = p.defaultValue ? p.defaultValue->value
                                          : fmt::format("{0}{1}{0}", kTemplateStandIn, p.name.value);
  }
  RouteSource route = t.route;
  substituteTemplateParameters(route, values);
  RouteBuilder scratch;
  Translator translator(context);
  auto checked = translator.route(scratch, route, configs);
  if (checked) return {};
  const std::string& m = checked.error().message;
  const bool own = !isTemplateStandIn(m) &&
                   (m.starts_with("unknown step") || m.starts_with("unknown key") ||
                    m.starts_with("unknown language") || m.starts_with("unknown exchange pattern"));
  if (!own) return {};
  Error e = checked.error();
  e.message += fmt::format(" (in route template '{}')", t.id.value);
  return e;
}

// The load's routeTemplates, as templates whose build translates a copy of the route with the
// parameters put in (positions kept, so a mistake points into the template).
// The load's templates; on a reload (the same files read again) a template may replace the one
// the context keeps under its id.
Result<Templates> routeTemplates(Context& context, const FileSources& sources, bool reload) {
  Templates out;
  auto configs = std::make_shared<std::vector<RouteConfigurationSource>>(sources.configurations);
  for (const RouteTemplateSource& t : sources.templates) {
    if (out.count(t.id.value) || (!reload && context.routeTemplate(t.id.value))) {
      return fileError(t.id.where,
                       fmt::format("route template id '{}' is used twice", t.id.value));
    }
    RouteTemplate made;
    for (const TemplateParameterSource& p : t.parameters) {
      TemplateParameter parameter(p.name.value);
      if (p.defaultValue) parameter.defaultValue = p.defaultValue->value;
      if (p.required) {
        if (p.required->value != "true" && p.required->value != "false") {
          return fileError(p.required->where, fmt::format("required must be true or false, not '{}'",
                                                          p.required->value));
        }
        parameter.required = p.required->value == "true";
      }
      parameter.description = p.description;
      made.parameters.push_back(std::move(parameter));
    }
    DROMEDARY_TRY_VOID(checkTemplate(context, t, *configs));
    auto source = std::make_shared<RouteTemplateSource>(t);
    made.build = [&context, source, configs](RouteBuilder& builder,
                                             const TemplateParameters& values) -> Result<void> {
      RouteSource route = source->route;
      substituteTemplateParameters(route, values);
      Translator translator(context);
      return translator.route(builder, route, *configs);
    };
    out.emplace(t.id.value, std::move(made));
  }
  return out;
}

Result<void> templatedRoute(Context& context, const Templates& templates, RouteBuilder& builder,
                            const TemplatedRouteSource& t) {
  const RouteTemplate* found = nullptr;
  if (auto it = templates.find(t.templateRef.value); it != templates.end()) found = &it->second;
  if (!found) found = context.routeTemplate(t.templateRef.value);
  if (!found) {
    std::vector<std::string> known = context.routeTemplateIds();
    for (const auto& [id, unused] : templates) known.push_back(id);
    std::vector<std::string_view> names(known.begin(), known.end());
    return fileError(t.templateRef.where,
                     fmt::format("unknown route template '{}'", t.templateRef.value),
                     names.empty() ? "no routeTemplate is defined" : suggestion(t.templateRef.value, names));
  }
  TemplateParameters values;
  for (const auto& [name, value] : t.parameters) {
    if (!values.emplace(name.value, value.value).second) {
      return fileError(name.where, fmt::format("parameter '{}' is given twice", name.value));
    }
  }
  auto added = addRouteFromTemplate(builder, *found, t.templateRef.value,
                                    t.routeId ? t.routeId->value : std::string(), values);
  if (!added && added.error().where.file.empty()) {
    return fileError(t.where, added.error().message);
  }
  return added;
}

}  // namespace

const Scalar* attribute(const std::vector<std::pair<std::string, Scalar>>& attributes,
                        std::string_view key) {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<std::string> resolveScalar(Context& context, const Scalar& s) {
  if (s.value.find("{{") == std::string::npos) return s.value;
  auto r = context.resolvePlaceholders(s.value);
  if (!r) return fileError(s.where, r.error().message);
  return r;
}

const Context::BeanFactory* beanFactoryFor(const Context& context, std::string_view type) {
  if (const Context::BeanFactory* factory = context.beanFactory(type)) return factory;
  return detail::aggregationStrategyBeanFactory(type);
}

Result<void> makeBean(Context& context, const Context::BeanFactory& factory,
                      const BeanSource& bean) {
  Context::BeanDefinition definition;
  DROMEDARY_TRY(name, resolveScalar(context, bean.name));
  definition.name = std::move(name);
  definition.type = bean.type.starts_with("#class:") ? bean.type.substr(7) : bean.type;
  for (const auto& [key, value] : bean.properties) {
    DROMEDARY_TRY(resolved, resolveScalar(context, value));
    definition.properties.emplace_back(key, std::move(resolved));
  }
  auto made = factory(context, definition);
  if (!made && made.error().where.file.empty()) {
    return fileError(bean.name.where, fmt::format("bean '{}' of type '{}': {}", definition.name,
                                                  definition.type, made.error().message));
  }
  return made;
}

Result<void> addRouteSources(Context& context, FileSources& sources, const LoadOptions& options,
                             std::vector<LoadedRoute>& loaded) {
  for (const BeanSource& bean : sources.beans) {
    if (context.processorByName(bean.name.value)) continue;
    if (const Context::BeanFactory* factory = beanFactoryFor(context, bean.type)) {
      DROMEDARY_TRY_VOID(makeBean(context, *factory, bean));
      continue;
    }
    return fileError(bean.name.where,
                     fmt::format("bean '{}'{} cannot be created: there are no Java classes here",
                                 bean.name.value,
                                 bean.type.empty() ? std::string()
                                                   : fmt::format(" of type '{}'", bean.type)),
                     fmt::format("bind a C++ processor under this name with "
                                 "Context::bindProcessor(\"{}\", ...)",
                                 bean.name.value));
  }
  Translator translator(context);
  RouteBuilder builder;
  std::set<std::string_view> ids;
  for (const RouteConfigurationSource& c : sources.configurations) {
    if (c.id && !ids.insert(c.id->value).second) {
      return fileError(c.id->where,
                       fmt::format("routeConfiguration id '{}' is used twice", c.id->value));
    }
  }
  DROMEDARY_TRY(rest_routes, restRoutes(context, sources));
  for (RouteSource& r : rest_routes) sources.routes.push_back(std::move(r));
  DROMEDARY_TRY_VOID(expandKamelets(context, sources.routes, sources.configurations,
                                    sources.kamelets, options.reload));
  DROMEDARY_TRY(templates, routeTemplates(context, sources, options.reload));
  DROMEDARY_TRY_VOID(translator.globalConfigurations(builder, sources.configurations));

  // Each route's key and fingerprint; `include` picks those added.
  const uint64_t shared = sharedFingerprint(context, sources);
  std::map<std::string, int, std::less<>> unnamed;  // routes without an id, per file
  auto keyOf = [&](const Scalar* id, const SourceRef& where) {
    if (id && !id->value.empty()) return id->value;
    return fmt::format("{}#{}", where.file.str(), ++unnamed[where.file.str()]);
  };
  std::vector<size_t> added;  // indexes into `loaded`, in the order they go to the builder
  loaded.reserve(loaded.size() + sources.routes.size() + sources.templatedRoutes.size());
  added.reserve(sources.routes.size() + sources.templatedRoutes.size());
  auto consider = [&](LoadedRoute route) {
    bool include = !options.include || options.include(route);
    if (include) added.push_back(loaded.size());
    loaded.push_back(std::move(route));
    return include;
  };
  for (RouteSource& r : sources.routes) {
    if (!consider({keyOf(attribute(r.attributes, "id"), r.where), {},
                   routeFingerprint(context, r, shared)})) {
      continue;
    }
    auto translated = translator.route(builder, r, sources.configurations);
    if (!translated && !r.kameletUse.empty()) {
      Error e = translated.error();
      e.message += fmt::format(" (in the route of {})", r.kameletUse);
      return e;
    }
    DROMEDARY_TRY_VOID(translated);
    // Translated: its source is not needed again. Let go of it now, so that a big file's
    // sources and models are not all held at once (about a third of the peak when loading).
    r = RouteSource{};
  }
  // And the list itself (a few hundred bytes a route, emptied) before the routes are added.
  sources.routes.clear();
  sources.routes.shrink_to_fit();
  for (const TemplatedRouteSource& t : sources.templatedRoutes) {
    if (!consider({keyOf(t.routeId ? &*t.routeId : nullptr, t.where), {},
                   templatedRouteFingerprint(context, t, sources, shared)})) {
      continue;
    }
    DROMEDARY_TRY_VOID(templatedRoute(context, templates, builder, t));
  }
  const size_t before = context.routeCount();
  DROMEDARY_TRY_VOID(context.addRoutes(builder));
  // Routes are appended in the builder's order: the new ids, in the order they were added.
  std::vector<std::string> now = context.routeIds();
  for (size_t i = 0; i < added.size() && before + i < now.size(); ++i) {
    loaded[added[i]].id = now[before + i];
  }
  // The load's templates stay in the context, for code or later loads to add routes from.
  for (auto& [id, t] : templates) {
    if (options.reload) context.removeRouteTemplate(id);
    DROMEDARY_TRY_VOID(context.addRouteTemplate(id, std::move(t)));
  }
  return {};
}

}  // namespace dromedary::dsl
