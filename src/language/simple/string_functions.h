// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel 4's string functions in Simple:
//   ${substringBefore(before)}   ${substringBefore(value,before)}     (null when not found)
//   ${substringAfter(after)}     ${substringAfter(value,after)}
//   ${substringBetween(after,before)}   ${substringBetween(value,after,before)}
//   ${concat(right)} (after the body)   ${concat(left,right)}   ${concat(left,right,separator)}
//   ${join}  ${join(separator)}  ${join(separator,prefix)}  ${join(separator,prefix,value)}
// Each argument is a Simple argument: a quoted or bare literal, or a ${...} function; the
// value defaults to the body.

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for `fn` when it is one of the functions above, else nullptr.
ExprPtr parseStringFunction(Parser& parser, std::string_view fn);

}  // namespace dromedary::simplelang
