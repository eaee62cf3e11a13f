// SPDX-License-Identifier: Apache-2.0
#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/spi/header_filter_strategy.h>

namespace dromedary {

Result<std::shared_ptr<const HeaderFilterStrategy>> headerFilterStrategyOption(
    const Context& context, std::string_view option, std::string_view endpoint_uri,
    std::shared_ptr<const HeaderFilterStrategy> fallback) {
  if (option.empty()) return fallback;
  std::string_view name = option.starts_with('#') ? option.substr(1) : option;
  if (auto bound = context.headerFilterStrategyByName(name)) {
    return std::shared_ptr<const HeaderFilterStrategy>(std::move(bound));
  }
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("{}: headerFilterStrategy '{}' names no bound strategy (bind one "
                               "with Context::bindHeaderFilterStrategy(\"{}\", ...))",
                               endpoint_uri, option, name));
}

}  // namespace dromedary
