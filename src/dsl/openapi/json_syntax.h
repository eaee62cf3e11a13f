// SPDX-License-Identifier: Apache-2.0
#pragma once

// The JSON syntax check of contract-first REST's clientRequestValidation and
// clientResponseValidation ("Invalid JSon payload."), in the dsl layer, which has no JSON
// library (the json component's reader lives above it). It builds nothing and allocates
// nothing; the json_text fuzz target checks it accepts all the json component reads and writes.

#include <string_view>

namespace dromedary::dsl {

/// Whether `text` is one JSON value (RFC 8259), with nothing but whitespace around it, nested
/// at most 1,000 levels (as the json component's reader). UTF-8 is not checked.
bool isJsonText(std::string_view text) noexcept;

}  // namespace dromedary::dsl
