// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's File language inside Simple: ${file:name}, ${file:onlyname.noext}, ${file:ext},
// ${file:parent}, ${file:size}, ${file:modified} ... read from the CamelFile* headers the file
// consumer sets (so they also work on any exchange that carries those headers).

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for `file:WHAT` (`what` is the text after "file:"); an unknown WHAT is a parse
/// error at it, listing the known ones.
ExprPtr parseFileFunction(Parser& parser, std::string_view what);

}  // namespace dromedary::simplelang
