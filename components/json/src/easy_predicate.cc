// SPDX-License-Identifier: Apache-2.0
// Camel's jsonpath "easy predicate": `PATH OP VALUE` read as a filter on PATH's parent
// (json_path.h, easyPredicate).
#include <array>
#include <string>
#include <string_view>

#include "json_path.h"

namespace dromedary::component::json {

namespace {

// Camel's operators; the two-character ones before the one-character ones they start with,
// so that `<=` is not read as `<` followed by `=`.
constexpr std::array<std::string_view, 11> kOperators = {"==", "!=",  "<=", ">=",   "=~",   "<",
                                                         ">",  "nin", "in", "size", "empty"};

// Where the first ` OP ` (spaces around) starts at or after `from`, and which operator.
size_t findOperator(std::string_view text, size_t from, std::string_view& op) {
  for (size_t at = text.find(' ', from); at != std::string_view::npos;
       at = text.find(' ', at + 1)) {
    for (std::string_view o : kOperators) {
      std::string_view rest = text.substr(at + 1);
      if (rest.starts_with(o) && rest.size() > o.size() && rest[o.size()] == ' ') {
        op = o;
        return at;
      }
    }
  }
  return std::string_view::npos;
}

std::string_view trimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string easyPredicate(std::string_view text) {
  if (text.starts_with('$')) return std::string(text);
  std::string_view op;
  size_t at = findOperator(text, 0, op);
  if (at == std::string_view::npos) return std::string(text);
  std::string_view left = trimSpaces(text.substr(0, at));
  std::string_view right = trimSpaces(text.substr(at + 1 + op.size()));
  std::string_view second;
  // One operator only, as Camel's parser; a path with spaces in it is not an easy one either.
  if (left.empty() || right.empty() || left.find(' ') != std::string_view::npos ||
      findOperator(right, 0, second) != std::string_view::npos) {
    return std::string(text);
  }
  size_t dot = left.rfind('.');
  std::string_view parent = dot == std::string_view::npos ? "..*" : left.substr(0, dot);
  std::string_view field = dot == std::string_view::npos ? left : left.substr(dot + 1);
  std::string out = "$";
  if (!parent.starts_with('.')) out += '.';
  out.append(parent);
  out.append("[?(@.").append(field).append(" ").append(op).append(" ").append(right);
  out.append(")]");
  return out;
}

}  // namespace dromedary::component::json
