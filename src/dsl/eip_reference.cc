// SPDX-License-Identifier: Apache-2.0
// The EIP reference for the public API (dromedary eips, docs/eip-reference.md), printed from
// the schemas in src/eip/.
#include <dromedary/dsl/route_loader.h>

#include <fmt/format.h>

#include "core/text.h"
#include "eip/eip_schema.h"

namespace dromedary {

std::vector<std::pair<std::string, std::string>> eipSummaries() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const eip::EipSchema* s : eip::eipSchemas()) {
    out.emplace_back(std::string(s->key), std::string(s->description));
  }
  return out;
}

std::string eipReference() { return eip::eipReference(); }

Result<std::string> eipReference(std::string_view name) {
  const eip::EipSchema* schema = eip::findEipSchema(name);
  if (!schema) schema = eip::findEipSchema(eip::camelCaseOf(name));
  if (schema) return eip::eipReference(*schema);
  std::vector<std::string_view> keys;
  for (const eip::EipSchema* s : eip::eipSchemas()) keys.push_back(s->key);
  std::string closest = closestMatch(name, keys);
  return makeError(ErrorCode::NotFound,
                   closest.empty() ? fmt::format("no EIP named '{}'", name)
                                   : fmt::format("no EIP named '{}'; did you mean '{}'?", name,
                                                 closest));
}

}  // namespace dromedary
