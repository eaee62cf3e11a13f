// SPDX-License-Identifier: Apache-2.0
#include <dromedary/spi/header_filter_strategy.h>

#include <dromedary/core/message.h>

namespace dromedary {

DefaultHeaderFilterStrategy::DefaultHeaderFilterStrategy() {
  in_.prefixes = camelPrefixes();
  out_.prefixes = camelPrefixes();
}

bool DefaultHeaderFilterStrategy::Rules::matches(std::string_view name) const noexcept {
  for (const std::string& p : prefixes) {
    if (name.size() >= p.size() && equalsIgnoreCase(name.substr(0, p.size()), p)) return true;
  }
  for (const std::string& n : names) {
    if (equalsIgnoreCase(name, n)) return true;
  }
  return false;
}

bool DefaultHeaderFilterStrategy::filtered(const Rules& rules, std::string_view name,
                                           const Value& value) const noexcept {
  if (name.empty()) return true;
  if (value.isNull() && !allowNullValues_) return true;
  return rules.matches(name) == filterOnMatch_;
}

bool DefaultHeaderFilterStrategy::applyFilterToCamelHeaders(std::string_view name,
                                                            const Value& value) const noexcept {
  return filtered(out_, name, value);
}

bool DefaultHeaderFilterStrategy::applyFilterToExternalHeaders(std::string_view name,
                                                               const Value& value) const
    noexcept {
  return filtered(in_, name, value);
}

}  // namespace dromedary
