// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text read as JSON and, when it reads, written back (compact and pretty) and
// read again: the second reading must equal the first. Errors are fine; crashes, hangs,
// leaks, stack exhaustion and a round trip that changes the data are not.
// The JSON syntax check of contract-first REST's validation (dsl/openapi) must accept every
// text the reader reads and every text the writer writes (the reader is the stricter one: it
// also checks UTF-8).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dsl/openapi/json_syntax.h"
#include "json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dromedary::component::json;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool syntax = dromedary::dsl::isJsonText(text);
  auto value = readJson(text);
  if (!value) return 0;
  if (!syntax) std::abort();
  for (bool pretty : {false, true}) {
    std::string out;
    if (!writeJson(*value, out, {.pretty = pretty})) std::abort();
    auto again = readJson(out);
    if (!again || !dromedary::dsl::isJsonText(out)) std::abort();
    // NaN is written as the string "NaN" (as Jackson): the only value that does not come back.
    std::string first;
    std::string second;
    (void)writeJson(*value, first);
    (void)writeJson(*again, second);
    if (first != second) std::abort();
  }
  return 0;
}
