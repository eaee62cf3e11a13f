// SPDX-License-Identifier: Apache-2.0
#include "core/type_names.h"

namespace dromedary {

namespace {

struct TypeName {
  std::string_view name;
  ValueType type;
};
// Camel's (Java) spellings. Every integer type is an int64 here, every floating type a double.
constexpr TypeName kConversionTargets[] = {
    {"String", ValueType::String},    {"java.lang.String", ValueType::String},
    {"Integer", ValueType::Int},      {"java.lang.Integer", ValueType::Int},
    {"int", ValueType::Int},          {"Long", ValueType::Int},
    {"java.lang.Long", ValueType::Int}, {"long", ValueType::Int},
    {"Short", ValueType::Int},        {"short", ValueType::Int},
    {"java.lang.Short", ValueType::Int}, {"Byte", ValueType::Int},
    {"java.lang.Byte", ValueType::Int}, {"byte", ValueType::Int},
    {"Double", ValueType::Double},    {"java.lang.Double", ValueType::Double},
    {"double", ValueType::Double},    {"Float", ValueType::Double},
    {"float", ValueType::Double},     {"Boolean", ValueType::Bool},
    {"java.lang.Boolean", ValueType::Bool}, {"boolean", ValueType::Bool},
    {"byte[]", ValueType::Bytes},     {"[B", ValueType::Bytes},
    // Text becomes a map or a list through a converter a component registers (the json
    // component reads JSON), as Camel's Jackson type converter does.
    {"Map", ValueType::Map},          {"java.util.Map", ValueType::Map},
    {"HashMap", ValueType::Map},      {"java.util.HashMap", ValueType::Map},
    {"LinkedHashMap", ValueType::Map}, {"java.util.LinkedHashMap", ValueType::Map},
    {"List", ValueType::List},        {"java.util.List", ValueType::List},
    {"ArrayList", ValueType::List},   {"java.util.ArrayList", ValueType::List},
};

bool isString(const Value& v) noexcept { return v.isString(); }
bool isInt(const Value& v) noexcept { return v.isInt(); }
bool isDouble(const Value& v) noexcept { return v.isDouble(); }
bool isNumber(const Value& v) noexcept { return v.isNumber(); }
bool isBool(const Value& v) noexcept { return v.isBool(); }
bool isBytes(const Value& v) noexcept { return v.isBytes(); }
bool isList(const Value& v) noexcept { return v.isList(); }
bool isMap(const Value& v) noexcept { return v.isMap(); }
bool isAnything(const Value& v) noexcept { return !v.isNull(); }

constexpr TypeTest kTypeTests[] = {
    {"String", isString},          {"java.lang.String", isString},
    {"CharSequence", isString},    {"java.lang.CharSequence", isString},
    {"Integer", isInt},            {"java.lang.Integer", isInt},
    {"Long", isInt},               {"java.lang.Long", isInt},
    {"Short", isInt},              {"java.lang.Short", isInt},
    {"Double", isDouble},          {"java.lang.Double", isDouble},
    {"Float", isDouble},           {"java.lang.Float", isDouble},
    {"Number", isNumber},          {"java.lang.Number", isNumber},
    {"Boolean", isBool},           {"java.lang.Boolean", isBool},
    {"byte[]", isBytes},           {"[B", isBytes},
    {"List", isList},              {"java.util.List", isList},
    {"Collection", isList},        {"java.util.Collection", isList},
    {"Map", isMap},                {"java.util.Map", isMap},
    {"Object", isAnything},        {"java.lang.Object", isAnything},
};

}  // namespace

std::optional<ValueType> conversionTargetByName(std::string_view name) noexcept {
  for (const TypeName& t : kConversionTargets) {
    if (t.name == name) return t.type;
  }
  return std::nullopt;
}

std::optional<std::pair<int64_t, int64_t>> integerBounds(std::string_view name) noexcept {
  if (name.size() >= 2 && (name.front() == '\'' || name.front() == '"')) {
    name = name.substr(1, name.size() - 2);
  }
  if (name.starts_with("java.lang.")) name.remove_prefix(10);
  if (name == "Byte" || name == "byte") return std::pair<int64_t, int64_t>{INT8_MIN, INT8_MAX};
  if (name == "Short" || name == "short") return std::pair<int64_t, int64_t>{INT16_MIN, INT16_MAX};
  if (name == "Integer" || name == "int") return std::pair<int64_t, int64_t>{INT32_MIN, INT32_MAX};
  return std::nullopt;
}

std::vector<std::string_view> conversionTargetNames() {
  std::vector<std::string_view> names;
  for (const TypeName& t : kConversionTargets) names.push_back(t.name);
  return names;
}

const TypeTest* typeTestByName(std::string_view name) noexcept {
  for (const TypeTest& t : kTypeTests) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::vector<std::string_view> typeTestNames() {
  std::vector<std::string_view> names;
  for (const TypeTest& t : kTypeTests) names.push_back(t.name);
  return names;
}

}  // namespace dromedary
