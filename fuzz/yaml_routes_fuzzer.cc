// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text as a Camel YAML route file.
#include "route_file_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return dromedary::fuzz::loadAndCompile(data, size, [](dromedary::Context& c, std::string_view t) {
    return dromedary::loadYamlRoutes(c, t, "fuzz.yaml").has_value();
  });
}
