// SPDX-License-Identifier: Apache-2.0
// A routeTemplate's parameters put into a copy of its route: {{name}} (or {{name:default}})
// becomes the parameter's value in every text of the route (URIs, options, expressions), so
// the route is then validated and built like any other. Placeholders naming no parameter are
// left for the context's properties, as Camel resolves them.
#include "dsl/file_source.h"

namespace dromedary::dsl {

namespace {

using Values = std::map<std::string, std::string, std::less<>>;

void substitute(std::string& text, const Values& values) {
  size_t from = 0;
  while ((from = text.find("{{", from)) != std::string::npos) {
    size_t end = text.find("}}", from + 2);
    if (end == std::string::npos) return;
    std::string_view inside(text.data() + from + 2, end - from - 2);
    auto it = values.find(inside.substr(0, inside.find(':')));
    if (it == values.end()) {
      from = end + 2;
      continue;
    }
    text.replace(from, end + 2 - from, it->second);
    from += it->second.size();
  }
}

void substitute(std::vector<std::pair<std::string, Scalar>>& pairs, const Values& values) {
  for (auto& [key, scalar] : pairs) substitute(scalar.value, values);
}

void substitute(ExpressionSource& e, const Values& values) {
  substitute(e.text, values);
  substitute(e.options, values);
}

void substitute(std::vector<StepSource>& steps, const Values& values);

void substitute(StepSource& s, const Values& values) {
  substitute(s.attributes, values);
  substitute(s.parameters, values);
  if (s.expression) substitute(*s.expression, values);
  for (Scalar& e : s.exceptions) substitute(e.value, values);
  for (auto& [key, e] : s.predicates) substitute(e, values);
  substitute(s.policy, values);
  for (auto* list : {&s.steps, &s.whens, &s.otherwise, &s.catches, &s.finally, &s.policies}) {
    substitute(*list, values);
  }
}

void substitute(std::vector<StepSource>& steps, const Values& values) {
  for (StepSource& s : steps) substitute(s, values);
}

}  // namespace

void substituteTemplateParameters(RouteSource& route, const Values& values) {
  substitute(route.attributes, values);
  substitute(route.from.value, values);
  substitute(route.parameters, values);
  substitute(route.steps, values);
  substitute(route.onExceptions, values);
  substitute(route.onCompletions, values);
}

}  // namespace dromedary::dsl
