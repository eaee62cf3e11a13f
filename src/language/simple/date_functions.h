// SPDX-License-Identifier: Apache-2.0
#pragma once

// Simple's dates: ${date:now:yyyyMMdd}, ${date:header.x}, ${date:exchangeCreated},
// ${date:file:...}, offsets (now-24h) and ${date-with-timezone:...}.

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for `date:SPEC` (`date-with-timezone:SPEC` with `with_zone`); `fn` is the whole
/// function text, for errors.
ExprPtr parseDate(Parser& parser, std::string_view fn, std::string_view spec, bool with_zone);

}  // namespace dromedary::simplelang
