// SPDX-License-Identifier: Apache-2.0
#include "json_options.h"

#include <fmt/format.h>

#include <dromedary/core/uri.h>

namespace dromedary::component::json {

Result<EndpointOptions> resolveOptions(std::span<const OptionSpec> specs,
                                       const std::map<std::string, std::string, std::less<>>& options,
                                       std::string_view subject) {
  // Through a URI, so that the checks and their messages are the endpoint options' own.
  std::string text = "options:x";
  char separator = '?';
  for (const auto& [key, value] : options) {
    text += fmt::format("{}{}={}", separator, key, encodeUriComponent(value));
    separator = '&';
  }
  DROMEDARY_TRY(uri, Uri::parse(text));
  auto resolved = EndpointOptions::resolve(specs, uri);
  if (resolved) return resolved;
  Error e = resolved.error();
  // "... for endpoint 'options:x?...'" becomes "... for <subject>".
  for (std::string_view of : {" for endpoint '", " of endpoint '"}) {
    size_t at = e.message.find(of);
    if (at == std::string::npos) continue;
    size_t end = e.message.find('\'', at + of.size());
    e.message.replace(at, end == std::string::npos ? std::string::npos : end + 1 - at,
                      fmt::format("{} {}", of.substr(0, of.find(" endpoint")), subject));
  }
  return e;
}

}  // namespace dromedary::component::json
