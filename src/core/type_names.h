// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's (Java) type names mapped to Dromedary's value types, so that convertBodyTo("Integer"),
// ${bodyAs(java.lang.String)} and `${header.x} is 'Number'` from Camel route files work
// unchanged. Shared by the EIPs and the Simple language (private to the core).

#include <optional>
#include <string_view>
#include <vector>

#include <dromedary/core/value.h>

namespace dromedary {

/// The value type a conversion to `name` produces ("Integer" -> Int), or nullopt.
std::optional<ValueType> conversionTargetByName(std::string_view name) noexcept;
/// Every name conversionTargetByName() knows, for "did you mean" and error texts.
std::vector<std::string_view> conversionTargetNames();
/// The range of a Java whole-number type narrower than the 64-bit integers values hold
/// ("Short" -> -32768..32767; "Integer", "Byte" and their spellings), or nullopt (Long, or not
/// a whole number): a converted value outside it fails, as Java's conversion does.
std::optional<std::pair<int64_t, int64_t>> integerBounds(std::string_view name) noexcept;

/// A type test for the `is` operator: "String", "Number", "List", "java.util.Map" ...
struct TypeTest {
  std::string_view name;
  bool (*matches)(const Value&) noexcept;
};
const TypeTest* typeTestByName(std::string_view name) noexcept;
std::vector<std::string_view> typeTestNames();

}  // namespace dromedary
