// SPDX-License-Identifier: Apache-2.0
// `dromedary kamelets [NAME]`: what the catalogue holds, printed from the Kamelets' own schemas.
#include <dromedary/dsl/kamelets.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "dsl/kamelet/kamelet_catalog.h"

namespace dromedary {

namespace {

std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += ' ';
    } else if (c == '|') {
      out += "\\|";
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

Result<std::string> kameletList(Context& context) {
  dsl::KameletCatalog catalog(context, {});
  std::string out = "| name | type | title | found in |\n| --- | --- | --- | --- |\n";
  for (const std::string& name : catalog.names()) {
    DROMEDARY_TRY(k, catalog.find(name));
    if (!k) continue;
    out += fmt::format("| {} | {} | {} | {} |\n", name, k->type, cell(k->title), catalog.origin(name));
  }
  return out;
}

Result<std::string> kameletReference(Context& context, std::string_view name) {
  dsl::KameletCatalog catalog(context, {});
  DROMEDARY_TRY(k, catalog.find(name));
  if (!k) {
    std::vector<std::string> names = catalog.names();
    std::vector<std::string_view> views(names.begin(), names.end());
    return makeError(ErrorCode::NotFound, fmt::format("unknown Kamelet '{}'; {}", name,
                                                      dsl::suggestion(name, views)));
  }
  std::string out = fmt::format("## {}\n\n{}\n\n", k->name.value, cell(k->title));
  if (!k->description.empty()) out += cell(k->description) + "\n\n";
  out += fmt::format("Type: {}. Found in: {}.\n\n", k->type.empty() ? "not given" : k->type,
                     catalog.origin(name));
  if (k->properties.empty()) return out + "It takes no properties.\n";
  out += "| property | type | default | required | description |\n| --- | --- | --- | --- | --- |\n";
  for (const dsl::KameletPropertySource& p : k->properties) {
    std::string type = p.type;
    if (!p.allowed.empty()) type = fmt::format("enum ({})", fmt::join(p.allowed, ","));
    out += fmt::format("| {} | {} | {} | {} | {} |\n", p.name.value, type,
                       p.defaultValue ? cell(p.defaultValue->value) : std::string(),
                       p.required ? "yes" : "", cell(p.description));
  }
  return out;
}

}  // namespace dromedary
