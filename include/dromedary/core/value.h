// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Value: the type of a message body, a header, an exchange property and an expression result.
///
/// A Value is null, bool, int64, double, string, bytes (a shared immutable buffer), list,
/// map (insertion-ordered), or a typed user object. It is cheap to move; copying a bytes,
/// list, map or object value bumps a reference count (lists and maps are copy-on-write), so
/// multicast, wire tap and redelivery snapshots never deep-copy a large body. Copy-assigning
/// a string into a Value that already holds a string reuses its capacity, which is how the
/// per-message path stays free of allocation.
///
/// Conversions go through the process-wide type-converter registry (type_converter.h):
///   Value v{"42"};
///   int64_t n = v.as<int64_t>();              // throws TypeConversionError on failure
///   std::optional<double> d = v.tryAs<double>();
///
/// Thread-safety: a Value is not synchronised; the shared parts (bytes, list, map, object)
/// are immutable or copy-on-write and may be shared between threads.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <dromedary/core/type_id.h>

namespace dromedary {

class Value;
using ValueList = std::vector<Value>;
/// A map keeps insertion order, as a JSON object read from a message would.
using ValueMap = std::vector<std::pair<std::string, Value>>;

/// An immutable, shared byte buffer. Copies share the buffer.
class Bytes {
 public:
  Bytes() = default;
  explicit Bytes(std::string_view data) : data_(std::make_shared<const std::string>(data)) {}
  explicit Bytes(std::string&& data)
      : data_(std::make_shared<const std::string>(std::move(data))) {}
  explicit Bytes(const char* data) : Bytes(std::string_view(data)) {}

  const char* data() const noexcept { return data_ ? data_->data() : ""; }
  size_t size() const noexcept { return data_ ? data_->size() : 0; }
  bool empty() const noexcept { return size() == 0; }
  std::string_view view() const noexcept { return data_ ? std::string_view(*data_) : ""; }
  bool operator==(const Bytes& other) const noexcept { return view() == other.view(); }

 private:
  std::shared_ptr<const std::string> data_;
};

/// A user object held by a Value: shared, immutable through the Value.
struct Object {
  std::shared_ptr<const void> ptr;
  TypeId type = nullptr;
  bool operator==(const Object& other) const noexcept { return ptr == other.ptr; }
};

/// The kind of value held, in the order of Value's alternatives.
enum class ValueType : uint8_t { Null, Bool, Int, Double, String, Bytes, List, Map, Object };

/// The name of a value type as log lines and errors show it ("String", "Long", "Map"...).
std::string_view valueTypeName(ValueType type) noexcept;

/// Appends `s` as a JSON string literal: quoted, with JSON's escapes (control characters as
/// \u00XX, as Jackson writes them). How maps and lists render as text, and what the json
/// data format writes.
void appendJsonString(std::string& out, std::string_view s);

/// Thrown by Value::as<T>() when a conversion is not possible. Never thrown by built-in steps.
class TypeConversionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Value {
 public:
  Value() noexcept = default;
  Value(std::nullptr_t) noexcept {}  // NOLINT
  Value(bool b) noexcept : v_(b) {}  // NOLINT
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                          !std::is_same_v<I, char>, int> = 0>
  Value(I i) noexcept : v_(static_cast<int64_t>(i)) {}  // NOLINT
  Value(double d) noexcept : v_(d) {}  // NOLINT
  Value(float d) noexcept : v_(static_cast<double>(d)) {}  // NOLINT
  Value(const char* s) : v_(std::in_place_index<4>, s) {}  // NOLINT
  Value(std::string_view s) : v_(std::in_place_index<4>, s) {}  // NOLINT
  Value(std::string s) noexcept : v_(std::in_place_index<4>, std::move(s)) {}  // NOLINT
  Value(Bytes b) noexcept : v_(std::move(b)) {}  // NOLINT
  Value(ValueList list) : v_(std::make_shared<ValueList>(std::move(list))) {}  // NOLINT
  Value(ValueMap map) : v_(std::make_shared<ValueMap>(std::move(map))) {}  // NOLINT
  Value(Object object) noexcept : v_(std::move(object)) {}  // NOLINT

  /// A Value holding a user object of type T.
  template <class T>
  static Value object(std::shared_ptr<const T> ptr) {
    return Value(Object{std::move(ptr), typeIdOf<T>()});
  }
  template <class T, class... Args>
  static Value makeObject(Args&&... args) {
    return object<T>(std::make_shared<const T>(std::forward<Args>(args)...));
  }

  Value(const Value&) = default;
  Value(Value&&) noexcept = default;
  Value& operator=(const Value&) = default;
  Value& operator=(Value&&) noexcept = default;

  ValueType type() const noexcept { return static_cast<ValueType>(v_.index()); }
  std::string_view typeName() const noexcept;
  /// The TypeId of the held value (builtin ids for builtin types).
  TypeId typeId() const noexcept;
  bool isNull() const noexcept { return type() == ValueType::Null; }
  bool isBool() const noexcept { return type() == ValueType::Bool; }
  bool isInt() const noexcept { return type() == ValueType::Int; }
  bool isDouble() const noexcept { return type() == ValueType::Double; }
  bool isNumber() const noexcept { return isInt() || isDouble(); }
  bool isString() const noexcept { return type() == ValueType::String; }
  bool isBytes() const noexcept { return type() == ValueType::Bytes; }
  bool isList() const noexcept { return type() == ValueType::List; }
  bool isMap() const noexcept { return type() == ValueType::Map; }
  bool isObject() const noexcept { return type() == ValueType::Object; }

  // Unchecked accessors: precondition is the matching is...() check.
  bool getBool() const noexcept { return *std::get_if<1>(&v_); }
  int64_t getInt() const noexcept { return *std::get_if<2>(&v_); }
  double getDouble() const noexcept { return *std::get_if<3>(&v_); }
  const std::string& getString() const noexcept { return *std::get_if<4>(&v_); }
  const Bytes& getBytes() const noexcept { return *std::get_if<5>(&v_); }
  const ValueList& getList() const noexcept { return **std::get_if<6>(&v_); }
  const ValueMap& getMap() const noexcept { return **std::get_if<7>(&v_); }
  const Object& getObject() const noexcept { return *std::get_if<8>(&v_); }

  /// The user object as T, or nullptr when this is not an object of exactly type T.
  template <class T>
  const T* getIf() const noexcept {
    if (!isObject() || getObject().type != typeIdOf<T>()) return nullptr;
    return static_cast<const T*>(getObject().ptr.get());
  }

  /// Mutable access; copies a shared list/map first (copy-on-write). Precondition: isList()/isMap().
  ValueList& mutableList();
  ValueMap& mutableMap();
  /// The entry of a map value with this key (exact match), or nullptr.
  const Value* mapGet(std::string_view key) const noexcept;

  /// Sets a number or flag in place (no temporary Value; cheap when it already holds one).
  void setInt(int64_t i) noexcept {
    if (auto* p = std::get_if<2>(&v_)) {
      *p = i;
    } else {
      v_.emplace<2>(i);
    }
  }
  void setBool(bool b) noexcept {
    if (auto* p = std::get_if<1>(&v_)) {
      *p = b;
    } else {
      v_.emplace<1>(b);
    }
  }
  /// Sets a string, reusing this value's string capacity when it already holds one.
  void setString(std::string_view s);
  /// Makes this the string `s`, moved in with its buffer (and whatever text it holds).
  void adoptString(std::string&& s) noexcept;
  /// Makes this a string and returns it for appending (keeps capacity; clears content).
  std::string& resetString();
  /// The held string for in-place edits, or nullptr when this is not a string.
  std::string* mutableString() noexcept { return std::get_if<4>(&v_); }
  void swap(Value& other) noexcept { v_.swap(other.v_); }
  /// Makes this null, keeping nothing.
  void reset() noexcept { v_.emplace<0>(); }
  /// Makes this null but keeps a string's capacity for reuse (used by pooled exchanges).
  void clearForReuse() noexcept;

  /// Appends the string form (as `as<std::string>()` would give) to `out`, without
  /// allocating beyond `out`'s own growth. null appends nothing and returns false.
  bool appendTo(std::string& out) const;

  /// Converts to T through the type-converter registry. Throws TypeConversionError.
  template <class T>
  T as() const;
  /// Converts to T, or nullopt when not possible. Never throws.
  template <class T>
  std::optional<T> tryAs() const noexcept;

  /// Strict equality: same type and same content (ints and doubles compare numerically).
  bool operator==(const Value& other) const noexcept;

  /// A readable rendering for messages and tests: strings quoted only inside lists/maps.
  std::string toString() const;

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Bytes,
               std::shared_ptr<ValueList>, std::shared_ptr<ValueMap>, Object>
      v_;
};

namespace detail {
// Converts `in` to the builtin or user type `target` into `out`. Returns false when no
// conversion exists or it failed. Defined in type_converter.cc.
bool convertValue(const Value& in, TypeId target, Value& out) noexcept;
// TypeIds of the builtin alternatives.
TypeId builtinTypeId(ValueType type) noexcept;

template <class T>
struct ValueTraits {
  // User types: converted to an Object of T.
  static std::optional<T> from(const Value& v) noexcept {
    if (const T* p = v.getIf<T>()) return *p;
    Value out;
    if (!convertValue(v, typeIdOf<T>(), out)) return std::nullopt;
    if (const T* p = out.getIf<T>()) return *p;
    return std::nullopt;
  }
};
template <>
struct ValueTraits<std::string> {
  static std::optional<std::string> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<int64_t> {
  static std::optional<int64_t> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<double> {
  static std::optional<double> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<bool> {
  static std::optional<bool> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<Bytes> {
  static std::optional<Bytes> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<ValueList> {
  static std::optional<ValueList> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<ValueMap> {
  static std::optional<ValueMap> from(const Value& v) noexcept;
};
template <>
struct ValueTraits<int32_t> {
  static std::optional<int32_t> from(const Value& v) noexcept {
    auto n = ValueTraits<int64_t>::from(v);
    if (!n || *n < INT32_MIN || *n > INT32_MAX) return std::nullopt;
    return static_cast<int32_t>(*n);
  }
};
template <>
struct ValueTraits<float> {
  static std::optional<float> from(const Value& v) noexcept {
    auto d = ValueTraits<double>::from(v);
    if (!d) return std::nullopt;
    return static_cast<float>(*d);
  }
};
[[noreturn]] void throwConversionError(const Value& v, TypeId target);
}  // namespace detail

template <class T>
std::optional<T> Value::tryAs() const noexcept {
  return detail::ValueTraits<T>::from(*this);
}

template <class T>
T Value::as() const {
  auto r = detail::ValueTraits<T>::from(*this);
  if (!r) detail::throwConversionError(*this, typeIdOf<T>());
  return std::move(*r);
}

}  // namespace dromedary
