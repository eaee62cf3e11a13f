// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text as a Camel XML (or Spring XML) route file.
#include "route_file_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return dromedary::fuzz::loadAndCompile(data, size, [](dromedary::Context& c, std::string_view t) {
    return dromedary::loadXmlRoutes(c, t, "fuzz.xml").has_value();
  });
}
