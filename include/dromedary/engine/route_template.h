// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Route templates (Camel's routeTemplate, templatedRoute and addRouteFromTemplate): a route
/// made from named parameters, added as many times as needed with different values.
///
/// Templates written in route files (`- routeTemplate:` in YAML, `<routeTemplate>` in XML) use
/// their parameters as `{{name}}` placeholders anywhere in the route; `- templatedRoute:` /
/// `<templatedRoute>` entries of the files, or C++ code, add routes from them:
///   context.addRouteFromTemplate("hello-bob", "greeter", {{"name", "bob"}}).value();
///
/// In C++ a template is a function of its parameters:
///   context.addRouteTemplate("greeter",
///       {{"name"}, {"greeting", "Hello"}},   // a parameter with a value is optional
///       [](RouteBuilder& b, const TemplateParameters& p) {
///         b.from("direct:" + p.at("name")).setBody(constant(p.at("greeting"))).to("mock:out");
///       }).value();

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/result.h>

namespace dromedary {

class RouteBuilder;

/// A template's parameter. Without a default value it must be given, unless `required` is
/// false (then a `{{name}}` it leaves is resolved from the context's properties, as in Camel).
struct TemplateParameter {
  TemplateParameter(std::string n) : name(std::move(n)) {}  // NOLINT: {"name"} reads well
  TemplateParameter(std::string n, std::string default_value)
      : name(std::move(n)), defaultValue(std::move(default_value)) {}
  std::string name;
  std::optional<std::string> defaultValue;
  bool required = true;
  std::string description;
};

/// Parameter values by name.
using TemplateParameters = std::map<std::string, std::string, std::less<>>;

struct RouteTemplate {
  std::vector<TemplateParameter> parameters;
  /// Adds the template's one route to `builder`, given every parameter's value (defaults
  /// filled in). The route's id is set afterwards.
  std::function<Result<void>(RouteBuilder& builder, const TemplateParameters& values)> build;
};

/// Adds a route from `route_template` to `builder` (not yet to a context): checks that every
/// required parameter is given (an error names the missing ones and the template), fills in
/// defaults, builds, and names the route `route_id` (empty: the context names it).
Result<void> addRouteFromTemplate(RouteBuilder& builder, const RouteTemplate& route_template,
                                  std::string_view template_id, const std::string& route_id,
                                  const TemplateParameters& parameters);

}  // namespace dromedary
