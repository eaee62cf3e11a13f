// SPDX-License-Identifier: Apache-2.0
#include "dsl/route_fingerprint.h"

#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace dromedary::dsl {

namespace {

// Writes a route's parts into one text (each part with its length, so that no two different
// routes write the same text) and hashes that.
class Writer {
 public:
  explicit Writer(Context& context) : context_(context) {}

  void text(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
  }
  void value(const std::string& s) {
    if (s.find("{{") == std::string::npos) return text(s);
    auto resolved = context_.resolvePlaceholders(s);
    text(resolved ? *resolved : s);  // an unresolvable one fails the load elsewhere
  }
  void pairs(std::span<const std::pair<std::string, Scalar>> list) {
    out_ += '{';
    for (const auto& [key, scalar] : list) {
      text(key);
      value(scalar.value);
    }
    out_ += '}';
  }
  void expression(const ExpressionSource& e) {
    text(e.language);
    value(e.text);
    pairs(e.options);
  }
  void steps(std::span<const StepSource> list) {
    out_ += '[';
    for (const StepSource& s : list) step(s);
    out_ += ']';
  }
  void step(const StepSource& s) {
    text(s.kind);
    pairs(s.attributes);
    pairs(s.parameters);
    if (s.expression) expression(*s.expression);
    out_ += '|';
    for (const Scalar& e : s.exceptions) value(e.value);
    for (const auto& [key, e] : s.predicates) {
      text(key);
      expression(e);
    }
    pairs(s.policy);
    steps(s.steps);
    for (const auto* list : {&s.whens, &s.otherwise, &s.catches, &s.finally, &s.policies}) {
      steps(*list);
    }
  }
  void route(const RouteSource& r) {
    pairs(r.attributes);
    value(r.from.value);
    pairs(r.parameters);
    steps(r.steps);
    steps(r.onExceptions);
    steps(r.onCompletions);
    steps(r.intercepts);
    text(r.kameletUse.empty() ? "" : "kamelet");
  }
  uint64_t hash(uint64_t seed) const {
    return std::hash<std::string_view>{}(out_) ^ (seed + 0x9e3779b97f4a7c15ULL + (seed << 6));
  }

 private:
  Context& context_;
  std::string out_;
};

}  // namespace

uint64_t sharedFingerprint(Context& context, const FileSources& sources) {
  Writer w(context);
  for (const RouteConfigurationSource& c : sources.configurations) {
    w.text(c.id ? c.id->value : "");
    w.steps(c.errorHandler);
    w.steps(c.onExceptions);
    w.steps(c.onCompletions);
    w.steps(c.intercepts);
  }
  for (const BeanSource& b : sources.beans) {
    w.text(b.name.value);
    w.text(b.type);
    w.pairs(b.properties);
  }
  for (const RestConfigurationSource& c : sources.restConfigurations) w.pairs(c.attributes);
  return w.hash(0);
}

uint64_t routeFingerprint(Context& context, const RouteSource& route, uint64_t shared) {
  Writer w(context);
  w.route(route);
  return w.hash(shared);
}

uint64_t templatedRouteFingerprint(Context& context, const TemplatedRouteSource& route,
                                   const FileSources& sources, uint64_t shared) {
  Writer w(context);
  w.text(route.templateRef.value);
  w.text(route.routeId ? route.routeId->value : "");
  for (const auto& [name, value] : route.parameters) {
    w.text(name.value);
    w.value(value.value);
  }
  for (const RouteTemplateSource& t : sources.templates) {
    if (t.id.value != route.templateRef.value) continue;
    for (const TemplateParameterSource& p : t.parameters) {
      w.text(p.name.value);
      w.text(p.defaultValue ? p.defaultValue->value : "");
      w.text(p.required ? p.required->value : "");
    }
    w.route(t.route);
  }
  return w.hash(shared);
}

}  // namespace dromedary::dsl
