// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel 4's variables inside Simple: ${variable.NAME} (also ${variable:NAME} and
// ${variable[NAME]}; NAME may be global:X, route:X or route:ROUTEID:X), ${variables} (the
// exchange's own, as a map) and ${variableAs(NAME, TYPE)}.

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node reading the variable `name` (its prefix parsed now: a bad one fails at `name`).
ExprPtr variableNode(Parser& parser, std::string_view name);
/// The exchange's own variables as a map (a copy).
ExprPtr variablesNode();

}  // namespace dromedary::simplelang
