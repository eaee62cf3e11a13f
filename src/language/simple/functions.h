// SPDX-License-Identifier: Apache-2.0
#pragma once

// Simple's built-in functions (`body`, `header.x`, `date:now:yyyyMMdd`, `random(1,10)` ...),
// resolved to nodes when the expression is compiled.

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for one function, `fn` being the text between `${` and `}` (trimmed, a view into
/// the text being parsed, so errors can point at it).
ExprPtr parseFunction(Parser& parser, std::string_view fn);

}  // namespace dromedary::simplelang
