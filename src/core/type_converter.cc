// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/type_converter.h>

#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>

namespace dromedary {

namespace {

struct Key {
  TypeId from;
  TypeId to;
  bool operator==(const Key& o) const noexcept { return from == o.from && to == o.to; }
  bool operator<(const Key& o) const noexcept {
    return from != o.from ? std::less<TypeId>()(from, o.from) : std::less<TypeId>()(to, o.to);
  }
};
struct KeyHash {
  size_t operator()(const Key& k) const noexcept {
    return std::hash<const void*>()(k.from) * 31 + std::hash<const void*>()(k.to);
  }
};
// An immutable cache snapshot: a null converter records a miss.
using Table = std::unordered_map<Key, const TypeConverterRegistry::Converter*, KeyHash>;

std::optional<ValueType> builtinTypeOf(TypeId id) noexcept {
  for (int t = 0; t < static_cast<int>(ValueType::Object); ++t) {
    if (detail::builtinTypeId(static_cast<ValueType>(t)) == id) return static_cast<ValueType>(t);
  }
  return std::nullopt;
}

// Converts a non-object value to a builtin type through the built-in rules.
bool builtinConvert(const Value& in, ValueType target, Value& out) noexcept {
  try {
    switch (target) {
      case ValueType::Null: return false;
      case ValueType::Bool: {
        auto r = in.tryAs<bool>();
        if (r) out = Value(*r);
        return r.has_value();
      }
      case ValueType::Int: {
        auto r = in.tryAs<int64_t>();
        if (r) out = Value(*r);
        return r.has_value();
      }
      case ValueType::Double: {
        auto r = in.tryAs<double>();
        if (r) out = Value(*r);
        return r.has_value();
      }
      case ValueType::String: {
        if (in.isNull()) return false;
        std::string& s = out.resetString();
        return in.appendTo(s);
      }
      case ValueType::Bytes: {
        auto r = in.tryAs<Bytes>();
        if (r) out = Value(std::move(*r));
        return r.has_value();
      }
      case ValueType::List:
      case ValueType::Map:
        if (in.type() != target) return false;
        out = in;
        return true;
      case ValueType::Object: return false;
    }
  } catch (...) {
  }
  return false;
}

}  // namespace

struct TypeConverterRegistry::State {
  std::mutex mutex;
  std::map<Key, std::unique_ptr<Converter>> registered;
  // Converters and tables that readers may still hold: kept until the registry dies.
  std::vector<std::unique_ptr<Converter>> keepConverters;
  std::vector<std::unique_ptr<Table>> keepTables;
  std::atomic<const Table*> current{nullptr};
  std::atomic<uint64_t> misses{0};

  void publish(std::unique_ptr<Table> table) {
    current.store(table.get(), std::memory_order_release);
    keepTables.push_back(std::move(table));
  }

  const Converter* direct(Key key) const {
    auto it = registered.find(key);
    return it == registered.end() ? nullptr : it->second.get();
  }

  // Called under the mutex: a direct converter, or from -> String -> to.
  const Converter* resolve(Key key) {
    if (const Converter* c = direct(key)) return c;
    TypeId string_id = detail::builtinTypeId(ValueType::String);
    if (key.from == string_id || key.to == string_id) return nullptr;
    const Converter* second = direct({string_id, key.to});
    if (!second) return nullptr;
    const Converter* first = direct({key.from, string_id});
    bool builtin_from = builtinTypeOf(key.from).has_value();
    if (!first && !builtin_from) return nullptr;
    auto composed = std::make_unique<Converter>([first, second](const Value& in, Value& out) {
      Value text;
      if (first) {
        if (!(*first)(in, text)) return false;
      } else if (!builtinConvert(in, ValueType::String, text)) {
        return false;
      }
      return (*second)(text, out);
    });
    const Converter* result = composed.get();
    keepConverters.push_back(std::move(composed));
    return result;
  }
};

TypeConverterRegistry& TypeConverterRegistry::global() {
  static TypeConverterRegistry* registry = new TypeConverterRegistry();  // never destroyed
  return *registry;
}

TypeConverterRegistry::TypeConverterRegistry() : state_(std::make_unique<State>()) {
  state_->publish(std::make_unique<Table>());
}

TypeConverterRegistry::~TypeConverterRegistry() = default;

void TypeConverterRegistry::add(TypeId from, TypeId to, Converter converter) {
  std::lock_guard lock(state_->mutex);
  auto& slot = state_->registered[{from, to}];
  if (slot) state_->keepConverters.push_back(std::move(slot));
  slot = std::make_unique<Converter>(std::move(converter));
  state_->publish(std::make_unique<Table>());  // a new converter invalidates cached misses
}

const TypeConverterRegistry::Converter* TypeConverterRegistry::find(TypeId from,
                                                                    TypeId to) const noexcept {
  Key key{from, to};
  const Table* table = state_->current.load(std::memory_order_acquire);
  auto it = table->find(key);
  if (it != table->end()) return it->second;
  try {
    std::lock_guard lock(state_->mutex);
    table = state_->current.load(std::memory_order_acquire);
    it = table->find(key);
    if (it != table->end()) return it->second;
    state_->misses.fetch_add(1, std::memory_order_relaxed);
    const Converter* resolved = state_->resolve(key);
    auto next = std::make_unique<Table>(*table);
    next->emplace(key, resolved);
    state_->publish(std::move(next));
    return resolved;
  } catch (...) {
    return nullptr;  // out of memory while caching: treat as no converter
  }
}

uint64_t TypeConverterRegistry::cacheMissesForTest() const noexcept {
  return state_->misses.load(std::memory_order_relaxed);
}

namespace detail {

bool convertValue(const Value& in, TypeId target, Value& out) noexcept {
  if (in.typeId() == target) {
    out = in;
    return true;
  }
  if (!in.isObject()) {
    if (auto builtin = builtinTypeOf(target)) {
      if (builtinConvert(in, *builtin, out)) return true;
      // Text to a map or a list has no built-in rule: a registered converter may have one.
      if (*builtin != ValueType::Map && *builtin != ValueType::List) return false;
    }
  }
  const auto* converter = TypeConverterRegistry::global().find(in.typeId(), target);
  if (!converter) return false;
  try {
    return (*converter)(in, out);
  } catch (...) {
    return false;
  }
}

}  // namespace detail
}  // namespace dromedary
