// SPDX-License-Identifier: Apache-2.0
#pragma once

// The failure inside Simple: ${exception} (and .stacktrace), ${exception.message}, and
// ${exception.FIELD} / ${exception.getField()} for an exception with fields
// (dromedary/core/exception_fields.h: an HttpOperationFailedException's statusCode ...).

#include <string_view>

#include "language/simple/nodes.h"

namespace dromedary::simplelang {

class Parser;

/// The node for `fn`, which is "exception" or starts with "exception." / "exception?."; a
/// field that is not a name is a parse error at it.
ExprPtr parseExceptionFunction(Parser& parser, std::string_view fn);

}  // namespace dromedary::simplelang
