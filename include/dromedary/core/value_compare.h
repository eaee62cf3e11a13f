// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Comparisons with Camel's type coercion (ObjectHelper.typeCoerceEquals/Compare), shared by
/// the C++ DSL's predicates and the Simple language. None of them allocates when both sides
/// are strings or numbers.

#include <optional>
#include <string>
#include <string_view>

#include <dromedary/core/value.h>

namespace dromedary {

/// null equals only null; two texts made only of digits compare as numbers ("0001" equals
/// "001", "2" is less than "10", as in Camel 4); numbers compare numerically (a string side is parsed as a
/// number when it can be); a bool compares with "true"/"false"; otherwise string forms.
bool coerceEquals(const Value& a, const Value& b) noexcept;
/// <0, 0 or >0; nullopt when a side is null (nothing is ordered against null).
std::optional<int> coerceCompare(const Value& a, const Value& b) noexcept;
/// A string side contains the other's string form; a list contains an equal element.
bool coerceContains(const Value& a, const Value& b) noexcept;
bool coerceStartsWith(const Value& a, const Value& b) noexcept;
bool coerceEndsWith(const Value& a, const Value& b) noexcept;

/// The string form of `v`: a view of its own string when it is one, else rendered into
/// `buffer` (which keeps its capacity). Null is the empty view.
std::string_view stringForm(const Value& v, std::string& buffer) noexcept;

}  // namespace dromedary
