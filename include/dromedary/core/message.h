// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Headers and Message.
///
/// Headers is a small flat vector of (name, Value) with case-insensitive names, as Camel's
/// headers are: `set("Foo", 1)` then `get("foo")` finds it, and the name keeps the case it
/// was first set with for output. Entries keep insertion order. A cleared or removed entry
/// keeps its string, capacity and last text, for the next use: a pooled exchange sets the
/// same headers again without allocating, and text no longer than the last is copied inline
/// (detail::assignText). Copying is a flat element-wise copy, never a re-hash.
/// The same type holds exchange properties.
///
/// Each entry keeps a hash of its name that ignores case, so a lookup compares one number per
/// entry and a name only where the numbers agree. A HeaderKey carries that hash made once (a
/// step or an expression makes its keys when its route starts): looking a key up hashes
/// nothing.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <dromedary/core/short_text.h>
#include <dromedary/core/value.h>

namespace dromedary {

/// ASCII case-insensitive equality (header names are ASCII in every protocol we speak).
bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept;

namespace detail {
constexpr uint64_t mixNameWord(uint64_t h, uint64_t word) noexcept {
  // OR-ing 0x20 into every byte maps A-Z onto a-z (and a few other characters onto others:
  // the hash only has to agree for names equal without case; names are compared after it).
  h = (h ^ (word | 0x2020202020202020ull)) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 32);
}
}  // namespace detail

/// The hash Headers keep for a name, the same for names that differ only in ASCII case.
/// Made a word (8 bytes) at a time, the last word overlapping the one before: a name of 20
/// characters costs three multiplications.
constexpr uint32_t headerNameHash(std::string_view name) noexcept {
  const char* p = name.data();
  const size_t n = name.size();
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      h = detail::mixNameWord(h, detail::loadWord<uint64_t>(p + i));
    }
    h = detail::mixNameWord(h, detail::loadWord<uint64_t>(p + n - 8));
  } else if (n >= 4) {
    const uint64_t first = detail::loadWord<uint32_t>(p);
    const uint64_t last = detail::loadWord<uint32_t>(p + n - 4);
    h = detail::mixNameWord(h, first | last << 32);
  } else {
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) w |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    h = detail::mixNameWord(h, w);
  }
  return static_cast<uint32_t>(h);
}

/// A header or property name prepared for lookups: the name and its hash, made once.
class HeaderKey {
 public:
  HeaderKey() = default;
  explicit HeaderKey(std::string name) : name_(std::move(name)), hash_(headerNameHash(name_)) {}
  const std::string& name() const noexcept { return name_; }
  uint32_t hash() const noexcept { return hash_; }

 private:
  std::string name_;
  uint32_t hash_ = headerNameHash("");
};

class Headers {
 public:
  struct Entry {
    std::string name;
    Value value;
    uint32_t hash = headerNameHash("");  ///< headerNameHash(name)
  };

  Headers() = default;
  Headers(std::initializer_list<std::pair<std::string_view, Value>> entries);
  Headers(const Headers& other);
  Headers& operator=(const Headers& other);
  Headers(Headers&& other) noexcept
      : entries_(std::move(other.entries_)), size_(other.size_), version_(other.version_ + 1) {
    other.size_ = 0;
    ++other.version_;
  }
  Headers& operator=(Headers&& other) noexcept {
    entries_ = std::move(other.entries_);
    size_ = other.size_;
    other.size_ = 0;
    // Never back to a number this object had: a version seen before must mean what it meant.
    version_ = (version_ > other.version_ ? version_ : other.version_) + 1;
    ++other.version_;
    return *this;
  }

  /// The value for `name` (case-insensitive), or nullptr.
  const Value* get(std::string_view name) const noexcept {
    return lookup(name, headerNameHash(name));
  }
  const Value* get(const HeaderKey& key) const noexcept { return lookup(key.name(), key.hash()); }
  Value* find(std::string_view name) noexcept { return find(name, headerNameHash(name)); }
  Value* find(const HeaderKey& key) noexcept { return find(key.name(), key.hash()); }
  bool contains(std::string_view name) const noexcept { return get(name) != nullptr; }
  bool contains(const HeaderKey& key) const noexcept { return get(key) != nullptr; }

  /// Sets `name` to `value` (copy-assign: a string reuses the existing capacity).
  void set(std::string_view name, const Value& value) {
    set(name, headerNameHash(name), value);
  }
  void set(std::string_view name, Value&& value) {
    set(name, headerNameHash(name), std::move(value));
  }
  void set(const HeaderKey& key, const Value& value) { set(key.name(), key.hash(), value); }
  void set(const HeaderKey& key, Value&& value) { set(key.name(), key.hash(), std::move(value)); }
  /// Sets another Headers' entry here (its name's hash is reused, not made again).
  void set(const Entry& entry) { set(entry.name, entry.hash, entry.value); }
  /// The slot for `name`, created as null when absent.
  Value& slot(std::string_view name) { return slot(name, headerNameHash(name)); }
  Value& slot(const HeaderKey& key) {
    // Inline for what most exchanges' properties are when a step sets one (filter's
    // CamelFilterMatched, a split's index): empty, the spare entry holding this very name.
    if (size_ == 0 && !entries_.empty()) {
      Entry& e = entries_.front();
      if (e.hash == key.hash() && sameSpelling(e.name, key.name())) [[likely]] {
        ++version_;
        size_ = 1;
        e.value.reset();
        return e.value;
      }
    }
    return slot(key.name(), key.hash());
  }
  /// The value for `key` made text, created when absent, for the caller to assign or clear:
  /// its text when it was text already; a new entry's is the string a removed one left, with
  /// its capacity and its last text (so that detail::assignText can copy inline).
  std::string& textSlot(const HeaderKey& key);
  /// A new entry for `name`, without looking for an existing one: for callers that know it
  /// is absent (else the name would be listed twice). Its value is what a removed entry left
  /// there, maybe that entry's last text: assign it (Value::setString leaves it empty if it
  /// fails; should another assignment fail, remove the entry).
  Value& addUnchecked(std::string_view name) {
    return append(name, headerNameHash(name)).value;
  }
  Value& addUnchecked(const HeaderKey& key) { return append(key.name(), key.hash()).value; }

  /// Removes `name`; returns whether it was present.
  bool remove(std::string_view name) noexcept { return remove(name, headerNameHash(name)); }
  bool remove(const HeaderKey& key) noexcept { return remove(key.name(), key.hash()); }
  /// Removes every entry for which `pred(name)` is true; returns how many.
  template <class Pred>
  size_t removeIf(Pred&& pred) noexcept {
    // One stable compaction pass: kept entries move up by swaps (no string is freed).
    uint32_t kept = 0;
    for (uint32_t i = 0; i < size_; ++i) {
      if (pred(std::string_view(entries_[i].name))) continue;
      if (kept != i) swapEntries(kept, i);
      ++kept;
    }
    size_t removed = size_ - kept;
    truncate(kept);
    return removed;
  }

  /// Removes everything, keeping capacity for reuse.
  void clear() noexcept {
    if (size_ == 0) {  // inline: most exchanges' properties and many messages' headers
      ++version_;
      return;
    }
    truncate(0);
  }
  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// The value of the `index`-th entry (insertion order; index < size()).
  Value& valueAt(size_t index) noexcept {
    ++version_;
    return entries_[index].value;
  }

  const Entry* begin() const noexcept { return entries_.data(); }
  const Entry* end() const noexcept { return entries_.data() + size_; }

  /// Same names (case-insensitive) with equal values, order ignored.
  bool operator==(const Headers& other) const noexcept;

  /// A number that changes whenever these headers may have changed (every non-const call
  /// but the ones returning nothing mutable): equal numbers of the same object mean equal
  /// contents, so a copy made earlier can be known to be still current without comparing.
  uint32_t version() const noexcept { return version_; }
  /// Moves version() on without a change here: for what travels with these headers and may
  /// change apart from them (an exchange's variables move its properties' version).
  void touch() noexcept { ++version_; }

 private:
  const Value* lookup(std::string_view name, uint32_t hash) const noexcept {
    for (uint32_t i = 0; i < size_; ++i) {
      const Entry& e = entries_[i];
      if (e.hash == hash && sameName(e.name, name)) [[likely]] return &e.value;
    }
    return nullptr;
  }
  // Names whose hashes agree: almost always the same spelling, else the same without case.
  static bool sameName(std::string_view a, std::string_view b) noexcept {
    return sameSpelling(a, b) || (a.size() == b.size() && equalsIgnoreCase(a, b));
  }
  static bool sameSpelling(std::string_view a, std::string_view b) noexcept {
    return detail::sameBytes(a, b);
  }

  Value* find(std::string_view name, uint32_t hash) noexcept {
    ++version_;  // the caller may change the value it gets
    return const_cast<Value*>(lookup(name, hash));
  }
  void set(std::string_view name, uint32_t hash, const Value& value);
  void set(std::string_view name, uint32_t hash, Value&& value);
  Value& slot(std::string_view name, uint32_t hash);
  bool remove(std::string_view name, uint32_t hash) noexcept;
  void eraseAt(uint32_t index) noexcept;
  void swapEntries(uint32_t a, uint32_t b) noexcept {
    entries_[a].name.swap(entries_[b].name);
    entries_[a].value.swap(entries_[b].value);
    std::swap(entries_[a].hash, entries_[b].hash);
  }
  void truncate(uint32_t size) noexcept;
  Entry& append(std::string_view name, uint32_t hash) {
    // Inline when the spare entry after the live ones held this very name (a pooled exchange
    // setting the same headers again: a consumer's record headers).
    if (size_ < entries_.size()) [[likely]] {
      Entry& e = entries_[size_];
      if (e.hash == hash && sameSpelling(e.name, name)) [[likely]] {
        ++version_;
        ++size_;
        return e;
      }
    }
    return appendOther(name, hash);
  }
  Entry& appendOther(std::string_view name, uint32_t hash);
  static constexpr size_t kFirstCapacity = 4;

  std::vector<Entry> entries_;  // [0, size_) live; the rest spare, keeping capacity
  uint32_t size_ = 0;
  uint32_t version_ = 0;
};

/// A message: headers and a body.
class Message {
 public:
  /// clear() keeps a string body's buffer for the next string body up to this size (bytes):
  /// small bodies then cost no allocation, and a pool of messages holds no large buffers.
  static constexpr size_t kMaxSpareBody = 4096;

  Message() = default;
  /// A copy has the headers and the body; the spare buffer (with its last text) stays here.
  Message(const Message& other) : headers_(other.headers_), body_(other.body_) {}
  Message& operator=(const Message& other) {
    headers_ = other.headers_;
    body_ = other.body_;
    return *this;
  }
  Message(Message&&) noexcept = default;
  Message& operator=(Message&&) noexcept = default;

  Headers& headers() noexcept { return headers_; }
  const Headers& headers() const noexcept { return headers_; }
  const Value* getHeader(std::string_view name) const noexcept { return headers_.get(name); }
  const Value* getHeader(const HeaderKey& key) const noexcept { return headers_.get(key); }
  void setHeader(std::string_view name, const Value& value) { headers_.set(name, value); }
  void setHeader(std::string_view name, Value&& value) { headers_.set(name, std::move(value)); }
  bool removeHeader(std::string_view name) noexcept { return headers_.remove(name); }

  Value& body() noexcept { return body_; }
  const Value& body() const noexcept { return body_; }
  /// Sets the body by copy; a string body reuses the capacity of earlier string bodies.
  void setBody(const Value& body) {
    // Text over text (every split item of a list of strings) reuses the buffer, inline.
    if (std::string* s = body_.mutableString(); s && body.isString()) {
      const std::string& from = body.getString();
      if (&from == s) return;  // its own body
      if (from.size() <= s->size()) {
        // Not longer than what is there (split items of a list, mostly the same length):
        // shortening is inline, where assign() is a call into the library.
        s->resize(from.size());
        std::char_traits<char>::copy(s->data(), from.data(), from.size());
      } else {
        s->assign(from);
      }
      return;
    }
    setBodyOther(body);
  }
  void setBody(Value&& body) noexcept { body_ = std::move(body); }
  /// Sets a string body, reusing the capacity of earlier string bodies.
  void setBody(std::string_view body);
  void setBody(const char* body) { setBody(std::string_view(body)); }
  void setBody(const std::string& body) { setBody(std::string_view(body)); }
  void setBody(std::string&& body) noexcept { body_ = Value(std::move(body)); }
  /// The body converted to T (throws TypeConversionError), as Camel's getBody(Class).
  template <class T>
  T getBody() const {
    return body_.as<T>();
  }

  /// Clears headers and body (the body becomes null), keeping capacity for reuse.
  void clear() noexcept;

 private:
  void adoptSpareString() noexcept;  // body_ not text, spare_ past the inline size
  void setTextOverOther(std::string_view body);
  void setBodyOther(const Value& body);

  Headers headers_;
  Value body_;
  std::string spare_;  // a cleared string body's buffer, for the next string body
};

}  // namespace dromedary
