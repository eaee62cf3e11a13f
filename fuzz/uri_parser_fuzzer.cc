// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text as an endpoint URI, and as text with {{placeholders}}. Nothing may
// crash, hang or read out of bounds; errors are fine. A URI that parses has a normalised form
// that parses again to itself (it is the endpoint cache's key: two spellings of one endpoint
// must meet there, and a key must not change when read back).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <dromedary/dromedary.h>

namespace {

dromedary::Context& context() {
  static dromedary::Context* c = [] {
    dromedary::setLogLevel(dromedary::LoggingLevel::Off);
    auto* ctx = new dromedary::Context("fuzz");
    ctx->properties().set("host", "localhost");
    ctx->properties().set("port", "{{host}}:8080");
    return ctx;
  }();
  return *c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto uri = dromedary::Uri::parse(text);
  if (uri) {
    auto again = dromedary::Uri::parse(uri->normalized());
    if (!again || again->normalized() != uri->normalized()) std::abort();
    for (const auto& [name, value] : uri->options()) (void)dromedary::encodeUriComponent(value);
  }
  (void)context().resolvePlaceholders(text);
  (void)context().properties().withoutAbsentOptionalOptions(text);
  return 0;
}
