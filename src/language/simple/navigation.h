// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's OGNL-style navigation on values, with a fixed set of methods (no reflection):
//   ${body.name}  ${body[0]}  ${body[key]}  ${body['a key']}  ${body[last]}  ${body[last-1]}
//   ${header.x.length()}  ${body?.address?.street}  ${body.getName()}
// Map entries and list items are returned in place (no copy); methods that make a new string
// write into a scratch value.

#include <string>
#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// `base` followed by `chain` (".name[0].trim()", a view into the text being parsed);
/// returns `base` when the chain is empty. `source` names the function in runtime errors.
ExprPtr parseNavigation(Parser& parser, ExprPtr base, std::string_view chain,
                        std::string source);

/// The methods navigation knows, for documentation and error messages.
std::string_view navigationMethodNames() noexcept;

}  // namespace dromedary::simplelang
