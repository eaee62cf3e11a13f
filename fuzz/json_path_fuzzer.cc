// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text compiled as a JsonPath (as it is, and rewritten as an easy predicate)
// and, when it compiles, evaluated on a fixed
// document with maps, lists, numbers, text and nulls. Errors are fine; crashes, hangs, leaks
// and runaway recursion are not.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "json_path.h"
#include "json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dromedary::component::json;
  static const dromedary::Value document = *readJson(R"({"a": {"b": [1, 2.5, "x", null, true,
      {"c": [[]], "d": {"e": "f"}}], "g": "h"}, "list": [{"n": 1}, {"n": 2, "m": [3]}], "e": {}})");
  // The instrumented build is tens of times slower: a smaller bound keeps a runaway path (the
  // budget is what is tested) inside the fuzzer's 5 s.
  static const bool budget_set = (JsonPath::setVisitBudget(500'000), true);
  (void)budget_set;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // As a path, and as a predicate read as Camel's easy predicates are.
  for (const std::string& candidate : {std::string(text), easyPredicate(text)}) {
    auto path = JsonPath::compile(candidate);
    if (path) (void)path->evaluate(document);
  }
  return 0;
}
