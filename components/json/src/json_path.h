// SPDX-License-Identifier: Apache-2.0
#pragma once

// JsonPath as Camel's jsonpath language reads it (Jayway JsonPath's syntax and results), over
// Dromedary's values (maps, lists and scalars, as the json data format reads them). No Debian
// C++ library implements JsonPath, so this is Dromedary's own, compiled once per route and
// fuzzed (fuzz/json_path_fuzzer.cc).
//
//   $.store.book[0].title        $['store']['book'][-1]      $.store.book[*].author
//   $..price                     $.store.book[0,2]           $.store.book[1:3]
//   $.store.book[?(@.price < 10 && @.category == 'fiction')].title
//   $.store.book[?(@.isbn)]      $..book[?(@.author =~ /.*tolkien/i)]
//   $.store.book.length()        $..price.max()              $.items.keys()
//
// Filters compare with == != < <= > >= (numbers as numbers, text as text), =~ (RE2), in, nin,
// subsetof, anyof, noneof, size, empty, and combine with && || ! and parentheses; operands are
// @-paths, $-paths, numbers, 'text', "text", true, false, null and [lists].
//
// A definite path (names and single indexes only) gives one value, and a missing property is
// an error ("No results for path: $['a']['b']"); an indefinite one (wildcards, .., filters,
// slices, several indexes) gives the list of what matched, possibly empty.

#include <memory>
#include <string>
#include <cstdint>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary::component::json {

struct JsonPathProgram;

class JsonPath {
 public:
  /// Parses `text`; an error names the position and what was expected there.
  static Result<JsonPath> compile(std::string_view text);

  /// The path's result on `root` (see above). Errors: a definite path that does not match; a
  /// path that would visit more than visitBudget() nodes (nested deep-scan filters).
  Result<Value> evaluate(const Value& root) const;

  /// How many nodes one evaluation may visit: 20 million unless set (the fuzz target sets a
  /// smaller one, its build being many times slower). Process-wide; set before evaluating.
  static uint64_t visitBudget() noexcept;
  static void setVisitBudget(uint64_t visits) noexcept;

  /// Whether the path gives one value (true) or a list of matches (false).
  bool definite() const noexcept;
  const std::string& text() const noexcept;

 private:
  std::shared_ptr<const JsonPathProgram> program_;
};

/// Camel's "easy predicate" (allowEasyPredicate, on by default, for predicates only): a
/// predicate without the leading `$`, written `PATH OP VALUE` with spaces around the operator,
/// is the filter on PATH's parent: `store.book.price < 10` is `$.store.book[?(@.price < 10)]`,
/// `price < 10` is `$..*[?(@.price < 10)]`. Anything else (a `$` path, no operator, two
/// operators) is returned as it is. Unlike Camel's parser, `<=` and `>=` are read whole.
std::string easyPredicate(std::string_view text);

}  // namespace dromedary::component::json
