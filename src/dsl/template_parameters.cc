// SPDX-License-Identifier: Apache-2.0
// A routeTemplate's (or a Kamelet's) parameters put into a copy of its route: {{name}} (or
// {{name:default}}, {{?name}}) becomes the parameter's value in every text of the route
// (URIs, options, expressions), so the route is then validated and built like any other.
// Placeholders naming no parameter are left for the context's properties, as Camel resolves
// them.
#include <functional>
#include <span>

#include "dsl/file_source.h"

namespace dromedary::dsl {

namespace {

using Values = std::map<std::string, std::string, std::less<>>;
using Visit = std::function<void(std::string&)>;

// Calls `visit` on every text of a route: its attributes, URIs, parameters, expressions and
// those of every nested step.
void forEach(std::span<std::pair<std::string, Scalar>> pairs, const Visit& visit) {
  for (auto& [key, scalar] : pairs) visit(scalar.value);
}

void forEach(ExpressionSource& e, const Visit& visit) {
  visit(e.text);
  forEach(e.options, visit);
}

void forEach(std::span<StepSource> steps, const Visit& visit);

void forEach(StepSource& s, const Visit& visit) {
  forEach(s.attributes, visit);
  forEach(s.parameters, visit);
  if (s.expression) forEach(*s.expression, visit);
  for (Scalar& e : s.exceptions) visit(e.value);
  for (auto& [key, e] : s.predicates) forEach(e, visit);
  forEach(s.policy, visit);
  forEach(s.steps, visit);
  for (auto* list : {&s.whens, &s.otherwise, &s.catches, &s.finally, &s.policies}) {
    forEach(*list, visit);
  }
}

void forEach(std::span<StepSource> steps, const Visit& visit) {
  for (StepSource& s : steps) forEach(s, visit);
}

void forEach(RouteSource& route, const Visit& visit) {
  forEach(route.attributes, visit);
  visit(route.from.value);
  forEach(route.parameters, visit);
  forEach(route.steps, visit);
  forEach(route.onExceptions, visit);
  forEach(route.onCompletions, visit);
  forEach(route.intercepts, visit);
}

// The name a placeholder's inside names: "name" of "name", "name:default" and "?name".
std::string_view placeholderName(std::string_view inside) {
  std::string_view name = inside.substr(0, inside.find(':'));
  if (name.starts_with('?')) name.remove_prefix(1);
  return name;
}

// Calls `fn(from, end, name)` for each {{...}} of `text`; fn returns where to look next.
template <class Fn>
void eachPlaceholder(std::string& text, Fn fn) {
  size_t from = 0;
  while ((from = text.find("{{", from)) != std::string::npos) {
    size_t end = text.find("}}", from + 2);
    if (end == std::string::npos) return;
    from = fn(from, end, placeholderName(std::string_view(text).substr(from + 2, end - from - 2)));
  }
}

}  // namespace

void substituteTemplateParameters(std::string& text, const Values& values) {
  eachPlaceholder(text, [&](size_t from, size_t end, std::string_view name) {
    auto it = values.find(name);
    if (it == values.end()) return end + 2;
    text.replace(from, end + 2 - from, it->second);
    return from + it->second.size();
  });
}

void substituteTemplateParameters(RouteSource& route, const Values& values) {
  forEach(route, [&](std::string& text) { substituteTemplateParameters(text, values); });
}

std::set<std::string, std::less<>> placeholderNames(const RouteSource& route) {
  std::set<std::string, std::less<>> names;
  RouteSource copy = route;
  forEach(copy, [&](std::string& text) {
    eachPlaceholder(text, [&](size_t, size_t end, std::string_view name) {
      names.emplace(name);
      return end + 2;
    });
  });
  return names;
}

}  // namespace dromedary::dsl
