// SPDX-License-Identifier: Apache-2.0
#pragma once

// Simple's built-in functions (`body`, `header.x`, `date:now:yyyyMMdd`, `random(1,10)` ...),
// resolved to nodes when the expression is compiled.

#include <optional>
#include <string_view>
#include <vector>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for one function, `fn` being the text between `${` and `}` (trimmed, a view into
/// the text being parsed, so errors can point at it).
ExprPtr parseFunction(Parser& parser, std::string_view fn);

/// The node for `${body}`.
ExprPtr bodyNode();

/// A function call in `fn`: "name(args)rest", its arguments split at top-level commas, and
/// what follows the closing parenthesis (an OGNL chain).
struct Call {
  std::vector<std::string_view> args;
  std::string_view rest;
};
/// `fn` as a call of `name`, or nullopt when it is not one; an unclosed '(' fails.
std::optional<Call> callOf(Parser& parser, std::string_view fn, std::string_view name);
/// Fails unless the call has min..max arguments, naming the function.
void expectArgs(Parser& parser, std::string_view fn, const Call& call, size_t min, size_t max);
/// Fails when something follows the call.
void expectNoChain(Parser& parser, std::string_view rest);

/// The header `e` reads when it is `${header.NAME}` (and its forms), else nullptr: a
/// predicate comparing it looks the header up itself, without a call through the node.
const HeaderKey* headerKeyOf(const Expression& e) noexcept;

/// What `${header.NAME}` evaluates to: the header, else (absent or null) the exchange
/// property of that name, as Camel's; null when neither is there.
inline const Value& headerOrProperty(const Exchange& ex, const HeaderKey& key) noexcept {
  const Value* v = ex.message().getHeader(key);
  if (!v || v->isNull()) [[unlikely]] {
    v = ex.getProperty(key);
    if (!v) return nullValue();
  }
  return *v;
}

}  // namespace dromedary::simplelang
