// SPDX-License-Identifier: Apache-2.0
// Each use of a Kamelet becomes a route of its own, as Camel's kamelet component makes them:
//
//   use                                  instance (route id RID = NAME-N, or as given)
//   from: kamelet:timer-source?message=hi      from: timer:tick ... to: kamelet:sink?routeId=RID
//     becomes from: kamelet:timer-source/RID     (a sink step is added when the template has none)
//   to: kamelet:log-sink?showHeaders=true      from: kamelet:source?routeId=RID ... (sinks dropped:
//     becomes to: kamelet:log-sink/RID           the exchange goes back to the caller at the end)
//
// A property's value is the use's parameter, else the property camel.kamelet.NAME.RID.P, else
// camel.kamelet.NAME.P, else the schema's default; placeholders in it stay for the context's
// properties, as Camel resolves them.
#include "dsl/kamelet/kamelet_expansion.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <dromedary/core/uri.h>
#include <dromedary/engine/context.h>

#include "core/text.h"
#include "dsl/kamelet/kamelet_catalog.h"
#include "dsl/translator.h"
#include "eip/eip_schema.h"

namespace dromedary::dsl {

namespace {

using Values = std::map<std::string, std::string, std::less<>>;
using Params = std::vector<std::pair<std::string, Scalar>>;

enum class UseKind { From, To };

struct Use {
  std::string name;
  std::string routeId;
  Params values;
  SourceRef where;
};

// "kamelet:NAME...", or a bare "kamelet" whose parameters name it (templateId, routeId).
bool isKameletUri(std::string_view uri) {
  return uri.starts_with("kamelet:") || uri == "kamelet" || uri.starts_with("kamelet?");
}

std::string_view kameletPath(std::string_view uri) {
  if (!uri.starts_with("kamelet:")) return {};  // a bare "kamelet": its parameters name it
  std::string_view path = uri.substr(8);
  path = path.substr(0, path.find('?'));
  if (path.starts_with("//")) path.remove_prefix(2);
  return path;
}

bool isSourceOrSink(std::string_view uri) {
  std::string_view path = kameletPath(uri);
  return path == "source" || path == "sink";
}

bool isSink(std::string_view uri) { return isKameletUri(uri) && kameletPath(uri) == "sink"; }

Scalar* uriOf(StepSource& s) {
  for (auto& [key, value] : s.attributes) {
    if (key == "uri") return &value;
  }
  return nullptr;
}

// Drops a to-used instance's `to: kamelet:sink` steps (the exchange returns to its caller at
// the end anyway), or points a from-used instance's at the route that uses it. True when one
// was found.
bool rewriteSinks(std::vector<StepSource>& steps, const std::string* sink_uri) {
  bool found = false;
  for (auto it = steps.begin(); it != steps.end();) {
    Scalar* uri = it->kind == "to" ? uriOf(*it) : nullptr;
    if (uri && isSink(uri->value)) {
      found = true;
      if (!sink_uri) {
        it = steps.erase(it);
        continue;
      }
      uri->value = *sink_uri;
      it->parameters.clear();
    }
    found = rewriteSinks(it->steps, sink_uri) || found;
    for (auto* list : {&it->whens, &it->otherwise, &it->catches, &it->finally}) {
      if (!list->empty()) found = rewriteSinks(list->vector(), sink_uri) || found;
    }
    ++it;
  }
  return found;
}

std::optional<std::string> typeProblem(const KameletPropertySource& p, const std::string& value) {
  if (value.find("{{") != std::string::npos) return std::nullopt;  // known when resolved
  if (!p.allowed.empty() &&
      std::find(p.allowed.begin(), p.allowed.end(), value) == p.allowed.end()) {
    return fmt::format("one of {}", fmt::join(p.allowed, ", "));
  }
  if ((p.type == "integer" || p.type == "long") && !parseInteger(value)) return "an integer";
  if (p.type == "number") {
    char* end = nullptr;
    std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size()) return "a number";
  }
  if (p.type == "boolean" && value != "true" && value != "false") return "true or false";
  return std::nullopt;
}

class Expander {
 public:
  Expander(Context& context, std::vector<RouteSource>& routes,
           const std::vector<KameletSource>& own, bool reload)
      : context_(context), routes_(routes), catalog_(context, own) {
    if (!reload) {
      for (const std::string& id : context.routeIds()) ids_.insert(id);
    }
    for (const RouteSource& r : routes) {
      if (const Scalar* id = attribute(r.attributes, "id")) ids_.insert(id->value);
    }
    chains_.resize(routes.size());
  }

  Result<void> run(std::vector<RouteConfigurationSource>& configurations) {
    for (RouteConfigurationSource& c : configurations) {
      for (StepSource& h : c.errorHandler) {
        for (auto& [key, value] : h.attributes) {
          if (key != "deadLetterUri" || !isKameletUri(value.value) || isSourceOrSink(value.value)) continue;
          DROMEDARY_TRY(use, parseUse(value, {}));
          DROMEDARY_TRY(rid, instantiate(use, UseKind::To, {}));
          value.value = fmt::format("kamelet:{}/{}", use.name, rid);
        }
      }
    }
    // Instances are appended as they are made, and their own uses expanded in turn.
    for (size_t i = 0; i < routes_.size(); ++i) {
      const std::vector<std::string> chain = chains_[i];
      if (isKameletUri(routes_[i].from.value) && !isSourceOrSink(routes_[i].from.value)) {
        DROMEDARY_TRY(use, parseUse(routes_[i].from, routes_[i].parameters));
        DROMEDARY_TRY(rid, instantiate(use, UseKind::From, chain));
        routes_[i].from.value = fmt::format("kamelet:{}/{}", use.name, rid);
        routes_[i].parameters.clear();
      }
      for (auto list : {&RouteSource::steps, &RouteSource::onExceptions, &RouteSource::onCompletions}) {
        std::vector<StepSource> steps = std::move(routes_[i].*list);
        auto done = this->steps(steps, chain);
        routes_[i].*list = std::move(steps);
        if (!done) return done.error();
      }
    }
    return {};
  }

 private:
  Result<void> steps(std::vector<StepSource>& list, const std::vector<std::string>& chain) {
    for (StepSource& s : list) {
      Scalar* uri = uriOf(s);
      if (uri && isKameletUri(uri->value) && !isSourceOrSink(uri->value)) {
        if (s.kind == "toD") {
          return fileError(uri->where, "a Kamelet cannot be called through toD",
                           "Kamelets are made into routes when the files load; use to");
        }
        if (s.kind == "to" || s.kind == "wireTap") {
          DROMEDARY_TRY(use, parseUse(*uri, s.parameters));
          DROMEDARY_TRY(rid, instantiate(use, UseKind::To, chain));
          uri->value = fmt::format("kamelet:{}/{}", use.name, rid);
          s.parameters.clear();
        }
      }
      DROMEDARY_TRY_VOID(steps(s.steps, chain));
      for (auto* nested : {&s.whens, &s.otherwise, &s.catches, &s.finally}) {
        if (!nested->empty()) DROMEDARY_TRY_VOID(steps(nested->vector(), chain));
      }
    }
    return {};
  }

  Result<Use> parseUse(const Scalar& uri, const Params& parameters) {
    std::string text = uri.value;
    const bool bare = !text.starts_with("kamelet:");
    if (bare) text.insert(7, ":-");  // no path: the parameters name the Kamelet
    auto parsed = Uri::parse(text);
    if (!parsed) return fileError(uri.where, parsed.error().message);
    Use use;
    use.where = uri.where;
    std::string_view path = parsed->path();
    size_t slash = path.find('/');
    if (!bare) use.name = std::string(path.substr(0, slash));
    if (!bare && slash != std::string_view::npos) use.routeId = std::string(path.substr(slash + 1));
    for (const auto& [key, value] : parsed->options()) {
      if (key == "routeId") {
        use.routeId = value;
      } else if (key == "templateId") {
        use.name = value;
      } else if (key == "location") {
        return fileError(uri.where, "a Kamelet's location in its URI is not supported",
                         "put its folder in the property camel.component.kamelet.location");
      } else if (key != "uuid") {
        use.values.emplace_back(key, Scalar{value, uri.where});
      }
    }
    for (const auto& [key, value] : parameters) {
      std::string name = eip::camelCaseOf(key);
      if (name == "templateId") {
        use.name = value.value;
      } else if (name == "routeId") {
        use.routeId = value.value;
      } else {
        use.values.emplace_back(key, value);
      }
    }
    if (use.name.empty()) return fileError(uri.where, fmt::format("'{}' names no Kamelet", uri.value));
    return use;
  }

  Result<const KameletSource*> kamelet(const Use& use) {
    DROMEDARY_TRY(k, catalog_.find(use.name));
    if (k) return k;
    std::vector<std::string> names = catalog_.names();
    std::vector<std::string_view> views(names.begin(), names.end());
    std::string hint = suggestion(use.name, views);
    return fileError(use.where, fmt::format("unknown Kamelet '{}'", use.name),
                     fmt::format("{} (Kamelets are found among the route files, in the folders "
                                 "of --kamelets and camel.component.kamelet.location, and among "
                                 "the shipped ones: dromedary kamelets lists them)",
                                 hint));
  }

  std::string freeId(std::string_view name) {
    for (size_t n = 1;; ++n) {
      std::string id = fmt::format("{}-{}", name, n);
      if (!ids_.count(id)) return id;
    }
  }

  // The instance's property values, checked against the Kamelet's schema.
  Result<Values> values(const KameletSource& k, const Use& use, const std::string& rid) {
    Values out;
    const std::set<std::string, std::less<>> used = placeholderNames(k.route);
    auto declared = [&](std::string_view name) -> const KameletPropertySource* {
      for (const KameletPropertySource& p : k.properties) {
        if (p.name.value == name) return &p;
      }
      return nullptr;
    };
    for (const auto& [given, value] : use.values) {
      std::string name = given;
      if (!declared(name) && !used.count(name) && declared(eip::camelCaseOf(name))) {
        name = eip::camelCaseOf(name);  // kebab-case, as Camel's YAML DSL reads parameters
      }
      if (!declared(name) && !used.count(name)) {
        std::vector<std::string_view> names;
        for (const KameletPropertySource& p : k.properties) names.push_back(p.name.value);
        return fileError(value.where,
                         fmt::format("Kamelet '{}' has no property '{}'", k.name.value, given),
                         names.empty() ? std::string("it takes no properties") : suggestion(given, names));
      }
      if (!out.emplace(name, value.value).second) {
        return fileError(value.where, fmt::format("property '{}' is given twice", name));
      }
    }
    for (const KameletPropertySource& p : k.properties) {
      const std::string& name = p.name.value;
      if (!out.count(name)) {
        for (const std::string& key : {fmt::format("camel.kamelet.{}.{}.{}", k.name.value, rid, name),
                                       fmt::format("camel.kamelet.{}.{}", k.name.value, name)}) {
          if (auto v = context_.properties().get(key)) {
            out.emplace(name, *v);
            break;
          }
        }
      }
      if (!out.count(name) && p.defaultValue) out.emplace(name, p.defaultValue->value);
      auto it = out.find(name);
      if (it == out.end()) {
        if (!p.required) continue;
        return fileError(use.where,
                         fmt::format("Kamelet '{}' needs the property '{}'", k.name.value, name),
                         fmt::format("give it with the use's parameters, or as the property "
                                     "camel.kamelet.{}.{}",
                                     k.name.value, name));
      }
      if (auto expected = typeProblem(p, it->second)) {
        return fileError(use.where,
                         fmt::format("Kamelet '{}' property '{}' must be {}, not '{}'",
                                     k.name.value, name, *expected, it->second));
      }
    }
    out.emplace("routeId", rid);
    out.emplace("templateId", k.name.value);
    return out;
  }

  // The Kamelet's beans of classes a component makes (a data source, a component ...): one
  // set per use, named ROUTEID-NAME, their properties given the use's values; the route refers
  // to each as {{NAME}} (Camel's template beans), so NAME becomes that name in `vals`.
  Result<void> makeBeans(const KameletSource& k, const std::string& rid, Values& vals) {
    for (const BeanSource& bean : k.beans) {
      if (context_.processorByName(bean.name.value)) continue;
      const Context::BeanFactory* factory = beanFactoryFor(context_, bean.type);
      if (!factory) continue;
      BeanSource made = bean;
      made.name.value = fmt::format("{}-{}", rid, bean.name.value);
      for (auto& [key, value] : made.properties) substituteTemplateParameters(value.value, vals);
      auto result = makeBean(context_, *factory, made);
      if (!result) {
        Error e = result.error();
        e.message += fmt::format(" (a bean of Kamelet '{}')", k.name.value);
        return e;
      }
      vals[bean.name.value] = made.name.value;
    }
    return {};
  }

  Result<std::string> instantiate(const Use& use, UseKind kind, const std::vector<std::string>& chain) {
    if (std::find(chain.begin(), chain.end(), use.name) != chain.end() ||
        chain.size() >= kMaxKameletDepth) {
      return fileError(use.where, fmt::format("Kamelet '{}' uses itself ({} -> {})", use.name,
                                              fmt::join(chain, " -> "), use.name));
    }
    DROMEDARY_TRY(k, kamelet(use));
    for (const Scalar& dep : k->dependencies) {
      if (dep.value.starts_with("mvn:") || dep.value.starts_with("github:")) {
        return fileError(use.where,
                         fmt::format("Kamelet '{}' depends on '{}', a Java library that cannot "
                                     "be loaded here",
                                     k->name.value, dep.value),
                         fmt::format("its dependency is at {}", positionText(dep.where)));
      }
    }
    for (const BeanSource& bean : k->beans) {
      if (context_.processorByName(bean.name.value)) continue;
      if (beanFactoryFor(context_, bean.type)) continue;  // made per use, below
      return fileError(bean.name.where,
                       fmt::format("Kamelet '{}' needs the bean '{}', which cannot be created "
                                   "here (there are no Java classes)",
                                   k->name.value, bean.name.value),
                       fmt::format("bind a C++ processor under this name with "
                                   "Context::bindProcessor(\"{}\", ...)",
                                   bean.name.value));
    }
    std::string rid = use.routeId.empty() ? freeId(use.name) : use.routeId;
    if (!ids_.insert(rid).second && !use.routeId.empty()) {
      return fileError(use.where, fmt::format("route id '{}' is used by more than one route", rid));
    }
    DROMEDARY_TRY(vals, values(*k, use, rid));
    DROMEDARY_TRY_VOID(makeBeans(*k, rid, vals));
    RouteSource instance = k->route;
    substituteTemplateParameters(instance, vals);
    instance.kameletUse = fmt::format("Kamelet '{}' used at {}", k->name.value, positionText(use.where));
    instance.attributes.emplace_back("id", Scalar{rid, use.where});
    const bool from_source = isKameletUri(instance.from.value) && kameletPath(instance.from.value) == "source";
    if (kind == UseKind::From) {
      if (from_source) {
        return fileError(use.where,
                         fmt::format("Kamelet '{}' is {} (its template starts from kamelet:source): "
                                     "it is called with to, not used as a route's from",
                                     k->name.value, k->type == "sink" ? "a sink" : "an action"));
      }
      const std::string sink = fmt::format("kamelet:sink?routeId={}", rid);
      if (!rewriteSinks(instance.steps, &sink)) {
        StepSource to;
        to.kind = "to";
        to.where = instance.where;
        to.attributes.emplace_back("uri", Scalar{sink, instance.where});
        instance.steps.push_back(std::move(to));
      }
    } else {
      if (!from_source) {
        return fileError(use.where,
                         fmt::format("Kamelet '{}' is a source (its template starts from '{}'): "
                                     "it is a route's from, not called with to",
                                     k->name.value, instance.from.value));
      }
      instance.from.value = fmt::format("kamelet:source?routeId={}", rid);
      instance.parameters.clear();
      rewriteSinks(instance.steps, nullptr);
    }
    std::vector<std::string> inner = chain;
    inner.push_back(k->name.value);
    chains_.push_back(std::move(inner));
    routes_.push_back(std::move(instance));
    return rid;
  }

  Context& context_;
  std::vector<RouteSource>& routes_;
  KameletCatalog catalog_;
  std::vector<std::vector<std::string>> chains_;  // the Kamelets each route is made from
  std::set<std::string, std::less<>> ids_;
};

}  // namespace

Result<void> expandKamelets(Context& context, std::vector<RouteSource>& routes,
                            std::vector<RouteConfigurationSource>& configurations,
                            const std::vector<KameletSource>& own, bool reload) {
  return Expander(context, routes, own, reload).run(configurations);
}

}  // namespace dromedary::dsl
