// SPDX-License-Identifier: Apache-2.0
#pragma once

// Simple's binary operators (==, =~, contains, regex, in, range, is, startsWith ...) and
// the logical ones (&&, ||, !). Constant right-hand sides are prepared when the expression
// is compiled: a regex is compiled once (RE2), an `in` list split once, a range parsed once,
// an `is` type resolved once.

#include <optional>
#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

enum class BinaryOp {
  Eq, EqIgnoreCase, Ne, NeIgnoreCase, Gt, Ge, Lt, Le,
  Contains, NotContains, ContainsIgnoreCase, NotContainsIgnoreCase,
  Regex, NotRegex, In, NotIn, Range, NotRange, Is, NotIs,
  StartsWith, NotStartsWith, EndsWith, NotEndsWith, TextEquals, NotTextEquals,
};

/// The operator spelled `word` ("==", "!contains", "startsWith"...), or nullopt.
std::optional<BinaryOp> binaryOpByName(std::string_view word) noexcept;

/// `left OP right`. `right_text` is the right operand as written (for errors at compile time
/// about a bad regex, range or type name).
PredPtr makeBinary(Parser& parser, BinaryOp op, ExprPtr left, ExprPtr right,
                   std::string_view right_text);
/// `a && b` / `a || b`, short-circuiting.
PredPtr makeLogical(bool is_and, PredPtr a, PredPtr b);
PredPtr makeNot(PredPtr p);
/// True when the value is (Camel's evaluateValuePredicate): see isTruthy().
PredPtr makeTruthy(ExprPtr e);

}  // namespace dromedary::simplelang
