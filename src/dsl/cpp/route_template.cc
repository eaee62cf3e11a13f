// SPDX-License-Identifier: Apache-2.0
// Route templates: parameters checked and defaulted, the template's route built and named;
// the context keeps templates by id.
#include <dromedary/engine/route_template.h>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/route_builder.h>

#include "core/text.h"
#include "engine/context_impl.h"

namespace dromedary {

Result<void> addRouteFromTemplate(RouteBuilder& builder, const RouteTemplate& route_template,
                                  std::string_view template_id, const std::string& route_id,
                                  const TemplateParameters& parameters) {
  TemplateParameters values = parameters;  // extra values are kept, as Camel does
  std::vector<std::string_view> missing;
  for (const TemplateParameter& p : route_template.parameters) {
    if (values.count(p.name)) continue;
    if (p.defaultValue) {
      values.emplace(p.name, *p.defaultValue);
    } else if (p.required) {
      missing.push_back(p.name);
    }
  }
  if (!missing.empty()) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("route template '{}' needs the parameter{} {}", template_id,
                                 missing.size() > 1 ? "s" : "", joinNames(missing)));
  }
  size_t before = builder.routesForEngine().size();
  DROMEDARY_TRY_VOID(route_template.build(builder, values));
  size_t added = builder.routesForEngine().size() - before;
  if (added != 1) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("route template '{}' must make exactly one route, not {}",
                                 template_id, added));
  }
  if (!route_id.empty()) builder.routesForEngine().back()->routeId(route_id);
  return {};
}

Result<void> Context::addRouteTemplate(std::string id, RouteTemplate route_template) {
  if (id.empty()) return makeError(ErrorCode::InvalidRoute, "a route template needs an id");
  if (!route_template.build) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("route template '{}' has nothing to build its route", id));
  }
  if (impl_->templates.count(id)) {
    return makeError(ErrorCode::DuplicateRoute,
                     fmt::format("route template id '{}' is used by more than one template", id));
  }
  impl_->templates.emplace(std::move(id), std::move(route_template));
  return {};
}

Result<void> Context::addRouteTemplate(
    std::string id, std::vector<TemplateParameter> parameters,
    std::function<void(RouteBuilder& builder, const TemplateParameters& values)> build) {
  RouteTemplate t{std::move(parameters), nullptr};
  if (build) {
    t.build = [fn = std::move(build)](RouteBuilder& b, const TemplateParameters& values) {
      fn(b, values);
      return Result<void>();
    };
  }
  return addRouteTemplate(std::move(id), std::move(t));
}

bool Context::removeRouteTemplate(std::string_view id) {
  auto it = impl_->templates.find(id);
  if (it == impl_->templates.end()) return false;
  impl_->templates.erase(it);
  return true;
}

const RouteTemplate* Context::routeTemplate(std::string_view id) const {
  auto it = impl_->templates.find(id);
  return it == impl_->templates.end() ? nullptr : &it->second;
}

std::vector<std::string> Context::routeTemplateIds() const {
  std::vector<std::string> ids;
  for (const auto& [id, t] : impl_->templates) ids.push_back(id);
  return ids;
}

Result<std::string> Context::addRouteFromTemplate(std::string route_id,
                                                  std::string_view template_id,
                                                  const TemplateParameters& parameters) {
  const RouteTemplate* t = routeTemplate(template_id);
  if (!t) {
    std::vector<std::string> ids = routeTemplateIds();
    std::vector<std::string_view> names(ids.begin(), ids.end());
    std::string message = fmt::format("unknown route template '{}'", template_id);
    std::string meant = closestMatch(template_id, names);
    if (!meant.empty()) message += fmt::format("; did you mean '{}'?", meant);
    message += fmt::format("; known templates: {}", names.empty() ? "none" : joinNames(names));
    return makeError(ErrorCode::NotFound, std::move(message));
  }
  RouteBuilder builder;
  DROMEDARY_TRY_VOID(dromedary::addRouteFromTemplate(builder, *t, template_id, route_id,
                                                     parameters));
  DROMEDARY_TRY_VOID(addRoutes(builder));
  return impl_->routes.back()->id;
}

}  // namespace dromedary
