// SPDX-License-Identifier: Apache-2.0
#pragma once

// JSON text to Values and back: objects are ValueMaps (in the text's order), arrays
// ValueLists, numbers Long when whole and in range (else Double), strings String, true/false
// Boolean, null Null.

#include <string>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary::component::json {

/// How deep objects and arrays may nest, as Jackson's default limit (1000): deeper text is
/// refused rather than read into Values whose destruction would recurse that deep.
inline constexpr size_t kMaxJsonDepth = 1000;

/// The Value `text` holds; an error says what is wrong and at which line and column.
Result<Value> readJson(std::string_view text);

struct JsonStyle {
  bool pretty = false;     ///< Jackson's default pretty printer: `{\n  "a" : [ 1, 2 ]\n}`
  bool skipNulls = false;  ///< leave out map entries whose value is null (NON_NULL)
};

/// Appends `value` as JSON text to `out`, the way Jackson writes it: bytes as base64, NaN and
/// infinities as strings, other objects as their text. Fails past kMaxJsonDepth.
Result<void> writeJson(const Value& value, std::string& out, JsonStyle style = {});

}  // namespace dromedary::component::json
