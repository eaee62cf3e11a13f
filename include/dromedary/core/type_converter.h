// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The type-converter registry: how Value::as<T>() reaches user types.
///
/// Built-in conversions (string <-> integers/double/bool, bytes <-> string, list/map ->
/// JSON text) need no registry lookup. For user types, register a converter once at
/// start-up; lookups are cached, misses included, in a table that readers access without
/// a lock (a miss is resolved once, then published copy-on-write).
///
/// Example:
///   struct Order { std::string id; };
///   TypeConverterRegistry::global().add<std::string, Order>(
///       [](const std::string& s) -> std::optional<Order> { return Order{s}; });
///   Order o = Value{"A-1"}.as<Order>();
///
/// Conversions with a user type on either side are tried in this order: a converter
/// registered for exactly (from, to); then, when both exist, from -> string -> to.

#include <functional>
#include <memory>
#include <optional>

#include <dromedary/core/value.h>

namespace dromedary {

class TypeConverterRegistry {
 public:
  /// Converts `in` (of the registered from-type) into `out`; returns false on failure.
  using Converter = std::function<bool(const Value& in, Value& out)>;

  /// The process-wide registry used by Value::as<T>().
  static TypeConverterRegistry& global();

  TypeConverterRegistry();
  ~TypeConverterRegistry();
  TypeConverterRegistry(const TypeConverterRegistry&) = delete;
  TypeConverterRegistry& operator=(const TypeConverterRegistry&) = delete;

  /// Registers a converter between two TypeIds, replacing any earlier one. Clears the cache.
  void add(TypeId from, TypeId to, Converter converter);

  /// Registers a typed converter. From and To may be builtin (std::string, int64_t, double,
  /// bool, Bytes) or user types.
  template <class From, class To, class F>
  void add(F fn) {
    add(typeIdOf<From>(), typeIdOf<To>(),
        [fn = std::move(fn)](const Value& in, Value& out) -> bool {
          std::optional<From> src = in.tryAs<From>();
          if (!src) return false;
          std::optional<To> result = fn(*src);
          if (!result) return false;
          if constexpr (std::is_constructible_v<Value, To>) {
            out = Value(std::move(*result));
          } else {
            out = Value::makeObject<To>(std::move(*result));
          }
          return true;
        });
  }

  /// The converter for (from, to), or nullptr. Cached, misses included; lock-free when cached.
  const Converter* find(TypeId from, TypeId to) const noexcept;

  /// Number of lookups that were not in the cache (for tests of the cache).
  uint64_t cacheMissesForTest() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dromedary
