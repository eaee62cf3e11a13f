// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/value.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/short_text.h>

#include <atomic>
#include <memory>

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace dromedary {

namespace {

// Java's Double.toString shape for the common cases: always a decimal point or exponent.
void appendDouble(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
    return;
  }
  if (std::isinf(d)) {
    out += d > 0 ? "Infinity" : "-Infinity";
    return;
  }
  size_t start = out.size();
  fmt::format_to(std::back_inserter(out), "{}", d);
  if (out.find_first_of(".eEn", start) == std::string::npos) out += ".0";
}

// List and map values render as JSON text.
void appendJson(std::string& out, const Value& v) {
  switch (v.type()) {
    case ValueType::Null: out += "null"; return;
    case ValueType::String: appendJsonString(out, v.getString()); return;
    case ValueType::Bytes: appendJsonString(out, v.getBytes().view()); return;
    case ValueType::Object: {
      std::string s;
      if (v.appendTo(s)) {
        appendJsonString(out, s);
      } else {
        out += "null";
      }
      return;
    }
    case ValueType::List: {
      out += '[';
      bool first = true;
      for (const Value& item : v.getList()) {
        if (!first) out += ',';
        first = false;
        appendJson(out, item);
      }
      out += ']';
      return;
    }
    case ValueType::Map: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : v.getMap()) {
        if (!first) out += ',';
        first = false;
        appendJsonString(out, key);
        out += ':';
        appendJson(out, item);
      }
      out += '}';
      return;
    }
    default: v.appendTo(out); return;
  }
}

std::optional<int64_t> parseInt(std::string_view s) noexcept {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return n;
}

std::optional<double> parseDouble(std::string_view s) noexcept {
  s = trim(s);
  if (s.empty() || s.size() > 64) return std::nullopt;
  char buf[65];
  s.copy(buf, s.size());
  buf[s.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(buf, &end);
  if (end != buf + s.size() || errno == ERANGE) return std::nullopt;
  return d;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04X}", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

std::string_view valueTypeName(ValueType type) noexcept {
  switch (type) {
    case ValueType::Null: return "null";
    case ValueType::Bool: return "Boolean";
    case ValueType::Int: return "Long";
    case ValueType::Double: return "Double";
    case ValueType::String: return "String";
    case ValueType::Bytes: return "byte[]";
    case ValueType::List: return "List";
    case ValueType::Map: return "Map";
    case ValueType::Object: return "Object";
  }
  return "?";
}

std::string_view Value::typeName() const noexcept {
  if (isObject()) return getObject().type->name;
  return valueTypeName(type());
}

TypeId Value::typeId() const noexcept {
  if (isObject()) return getObject().type;
  return detail::builtinTypeId(type());
}

ValueList& Value::mutableList() {
  auto& p = *std::get_if<6>(&v_);
  if (p.use_count() > 1) {
    p = std::make_shared<ValueList>(*p);
  } else {
    // The last other owner may have let go on another thread just now: what it did with the
    // list happens before what the caller does next (its release pairs with this).
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  return *p;
}

ValueMap& Value::mutableMap() {
  auto& p = *std::get_if<7>(&v_);
  if (p.use_count() > 1) {
    p = std::make_shared<ValueMap>(*p);
  } else {
    // The last other owner may have let go on another thread just now: what it did with the
    // map happens before what the caller does next (its release pairs with this).
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  return *p;
}

const Value* Value::mapGet(std::string_view key) const noexcept {
  if (!isMap()) return nullptr;
  for (const auto& [k, v] : getMap()) {
    if (k == key) return &v;
  }
  return nullptr;
}

void Value::setString(std::string_view s) {
  if (auto* str = std::get_if<4>(&v_)) {
    detail::assignText(*str, s);
    return;
  }
  // Not emplace<4>(s): a construction that may throw makes libstdc++'s emplace build a
  // temporary variant and move-assign it, through two visits (some 60 instructions more on
  // every new text body). A null value (monostate: nothing to destroy) is replaced by a
  // variant built in its place; any other is destroyed first by emplacing the moved text.
  if (v_.index() == 0) {
    try {
      std::construct_at(&v_, std::in_place_index<4>, s);
    } catch (...) {
      std::construct_at(&v_);  // still null
      throw;
    }
    return;
  }
  std::string text(s);
  v_.emplace<4>(std::move(text));
}

void Value::adoptString(std::string&& s) noexcept {
  // As setString: a null value is replaced by a variant built in its place (the generic
  // move-assignment visits both sides).
  if (v_.index() == 0) {
    std::construct_at(&v_, std::in_place_index<4>, std::move(s));
    return;
  }
  v_.emplace<4>(std::move(s));
}

std::string& Value::resetString() {
  if (auto* str = std::get_if<4>(&v_)) {
    str->clear();
    return *str;
  }
  return v_.emplace<4>();
}

void Value::clearForReuse() noexcept {
  if (auto* str = std::get_if<4>(&v_)) {
    str->clear();
    // A string value stays a (now empty) string; callers treat it as unset via their own
    // bookkeeping (Headers keeps it beyond its live size).
    return;
  }
  v_.emplace<0>();
}

bool Value::appendTo(std::string& out) const {
  switch (type()) {
    case ValueType::Null: return false;
    case ValueType::Bool: out += getBool() ? "true" : "false"; return true;
    case ValueType::Int: fmt::format_to(std::back_inserter(out), "{}", getInt()); return true;
    case ValueType::Double: appendDouble(out, getDouble()); return true;
    case ValueType::String: out += getString(); return true;
    case ValueType::Bytes: out += getBytes().view(); return true;
    case ValueType::List:
    case ValueType::Map: appendJson(out, *this); return true;
    case ValueType::Object: {
      if (const FileBody* file = getIf<FileBody>()) {  // read here, so a failure names the file
        file->appendTo(out);
        return true;
      }
      Value converted;
      if (!detail::convertValue(*this, detail::builtinTypeId(ValueType::String), converted)) {
        return false;
      }
      out += converted.getString();
      return true;
    }
  }
  return false;
}

bool Value::operator==(const Value& other) const noexcept {
  if (isNumber() && other.isNumber()) {
    if (isInt() && other.isInt()) return getInt() == other.getInt();
    double a = isInt() ? static_cast<double>(getInt()) : getDouble();
    double b = other.isInt() ? static_cast<double>(other.getInt()) : other.getDouble();
    return a == b;
  }
  if (type() != other.type()) return false;
  switch (type()) {
    case ValueType::Null: return true;
    case ValueType::Bool: return getBool() == other.getBool();
    case ValueType::String: return getString() == other.getString();
    case ValueType::Bytes: return getBytes() == other.getBytes();
    case ValueType::List: return getList() == other.getList();
    case ValueType::Map: return getMap() == other.getMap();
    case ValueType::Object: return getObject() == other.getObject();
    default: return false;
  }
}

std::string Value::toString() const {
  std::string out;
  if (isNull()) return "null";
  appendTo(out);
  return out;
}

namespace detail {

TypeId builtinTypeId(ValueType type) noexcept {
  // Named once, as Camel users see them in logs and errors.
  static const TypeId ids[] = {
      [] { registerTypeName<std::nullptr_t>("null"); return typeIdOf<std::nullptr_t>(); }(),
      [] { registerTypeName<bool>("Boolean"); return typeIdOf<bool>(); }(),
      [] { registerTypeName<int64_t>("Long"); return typeIdOf<int64_t>(); }(),
      [] { registerTypeName<double>("Double"); return typeIdOf<double>(); }(),
      [] { registerTypeName<std::string>("String"); return typeIdOf<std::string>(); }(),
      [] { registerTypeName<Bytes>("byte[]"); return typeIdOf<Bytes>(); }(),
      [] { registerTypeName<ValueList>("List"); return typeIdOf<ValueList>(); }(),
      [] { registerTypeName<ValueMap>("Map"); return typeIdOf<ValueMap>(); }(),
      nullptr,
  };
  return ids[static_cast<int>(type)];
}

namespace {
// An Object converted through the registry to a builtin target.
bool objectTo(const Value& v, ValueType target, Value& out) noexcept {
  return v.isObject() && convertValue(v, builtinTypeId(target), out);
}
}  // namespace

std::optional<std::string> ValueTraits<std::string>::from(const Value& v) noexcept {
  if (v.isString()) return v.getString();
  if (v.isNull()) return std::nullopt;
  try {
    std::string out;
    if (!v.appendTo(out)) return std::nullopt;
    return out;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<int64_t> ValueTraits<int64_t>::from(const Value& v) noexcept {
  switch (v.type()) {
    case ValueType::Int: return v.getInt();
    case ValueType::Double: {
      double d = v.getDouble();
      if (!std::isfinite(d) || d < -9.2e18 || d > 9.2e18) return std::nullopt;
      return static_cast<int64_t>(d);
    }
    case ValueType::String: return parseInt(v.getString());
    case ValueType::Bytes: return parseInt(v.getBytes().view());
    case ValueType::Object: {
      Value out;
      if (objectTo(v, ValueType::Int, out) && out.isInt()) return out.getInt();
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::optional<double> ValueTraits<double>::from(const Value& v) noexcept {
  switch (v.type()) {
    case ValueType::Int: return static_cast<double>(v.getInt());
    case ValueType::Double: return v.getDouble();
    case ValueType::String: return parseDouble(v.getString());
    case ValueType::Bytes: return parseDouble(v.getBytes().view());
    case ValueType::Object: {
      Value out;
      if (objectTo(v, ValueType::Double, out) && out.isDouble()) return out.getDouble();
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::optional<bool> ValueTraits<bool>::from(const Value& v) noexcept {
  std::string_view s;
  switch (v.type()) {
    case ValueType::Bool: return v.getBool();
    case ValueType::String: s = trim(v.getString()); break;
    case ValueType::Bytes: s = trim(v.getBytes().view()); break;
    case ValueType::Object: {
      Value out;
      if (objectTo(v, ValueType::Bool, out) && out.isBool()) return out.getBool();
      return std::nullopt;
    }
    default: return std::nullopt;
  }
  if (equalsIgnoreCaseAscii(s, "true")) return true;
  if (equalsIgnoreCaseAscii(s, "false")) return false;
  return std::nullopt;
}

std::optional<Bytes> ValueTraits<Bytes>::from(const Value& v) noexcept {
  if (v.isBytes()) return v.getBytes();
  try {
    if (v.isString()) return Bytes(std::string_view(v.getString()));
    if (v.isObject()) {
      Value out;
      if (objectTo(v, ValueType::Bytes, out) && out.isBytes()) return out.getBytes();
    }
    std::string s;
    if (!v.appendTo(s)) return std::nullopt;
    return Bytes(std::move(s));
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<ValueList> ValueTraits<ValueList>::from(const Value& v) noexcept {
  try {
    if (v.isList()) return v.getList();
    Value out;
    if (objectTo(v, ValueType::List, out) && out.isList()) return out.getList();
  } catch (...) {
  }
  return std::nullopt;
}

std::optional<ValueMap> ValueTraits<ValueMap>::from(const Value& v) noexcept {
  try {
    if (v.isMap()) return v.getMap();
    Value out;
    if (objectTo(v, ValueType::Map, out) && out.isMap()) return out.getMap();
  } catch (...) {
  }
  return std::nullopt;
}

void throwConversionError(const Value& v, TypeId target) {
  builtinTypeId(ValueType::Null);  // make sure the builtin types carry their Camel names
  std::string shown = v.toString();
  if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
  throw TypeConversionError(fmt::format("no type conversion from {} to {} for value '{}'",
                                        v.typeName(), target->name, shown));
}

}  // namespace detail
}  // namespace dromedary
