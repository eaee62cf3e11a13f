// SPDX-License-Identifier: Apache-2.0
// Routes from templates named in properties, as Camel main reads them:
//   camel.route-template[one].template-id=mytemplate
//   camel.route-template[one].route-id=r1         (optional: else the route's id is "one")
//   camel.route-template[one].input=foo           (every other key: a parameter)
// Groups are made in the order of their ids (numbers in numeric order); kebab-case keys are
// camelCase, and camel.routeTemplate is read the same.
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "dsl/loaders.h"
#include "eip/eip_schema.h"

namespace dromedary::dsl {

namespace {

struct Group {
  std::string id;      // the route's id unless route-id is given, as Camel main's
  std::string prefix;  // "camel.route-template[0]": where its errors point
  struct Entry {
    std::string key;       // camelCase
    std::string property;  // as written, for errors
    std::string value;
  };
  std::vector<Entry> entries;
};

// "[one].key" -> ("one", "key"); nullopt otherwise.
std::optional<std::pair<std::string, std::string>> splitGroup(std::string_view rest) {
  if (!rest.starts_with('[')) return std::nullopt;
  size_t end = rest.find(']');
  if (end == std::string_view::npos || end == 1 || end + 2 >= rest.size() || rest[end + 1] != '.') {
    return std::nullopt;
  }
  return std::pair{std::string(rest.substr(1, end - 1)), std::string(rest.substr(end + 2))};
}

// "2" sorts as 2 and before names; names sort as text.
std::pair<int64_t, std::string> order(const std::string& group) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(group.data(), group.data() + group.size(), n);
  if (ec == std::errc() && p == group.data() + group.size()) return {n, {}};
  return {INT64_MAX, group};
}

}  // namespace

Result<void> templatedRoutesFromProperties(Context& context, FileSources& out) {
  std::map<std::pair<int64_t, std::string>, Group> groups;
  for (std::string_view prefix : {"camel.route-template", "camel.routeTemplate"}) {
    for (const auto& [key, value] : context.properties().withPrefix(prefix)) {
      auto split = splitGroup(std::string_view(key).substr(prefix.size()));
      if (!split) {
        return makeError(
            ErrorCode::InvalidRoute,
            fmt::format("property '{}': expected {}[N].KEY (such as {}[0].template-id)", key,
                        prefix, prefix));
      }
      Group& g = groups[order(split->first)];
      g.id = split->first;
      g.prefix = fmt::format("{}[{}]", prefix, split->first);
      g.entries.push_back({eip::camelCaseOf(split->second), key, value});
    }
  }
  for (auto& [unused, g] : groups) {
    TemplatedRouteSource t;
    t.where.file = fmt::format("property {}", g.prefix);
    bool has_template = false;
    for (const auto& [key, property, value] : g.entries) {
      Scalar v{value, SourceRef{fmt::format("property {}", property), 0, 0, {}}};
      if (key == "templateId") {
        t.templateRef = std::move(v);
        has_template = true;
      } else if (key == "routeId") {
        t.routeId = std::move(v);
      } else {
        t.parameters.emplace_back(Scalar{key, v.where}, std::move(v));
      }
    }
    if (!t.routeId) t.routeId = Scalar{g.id, t.where};
    if (!has_template) {
      return makeError(
          ErrorCode::InvalidRoute,
          fmt::format("{}: no template-id: which routeTemplate to make a route from", g.prefix));
    }
    out.templatedRoutes.push_back(std::move(t));
  }
  return {};
}

}  // namespace dromedary::dsl
