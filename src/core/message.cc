// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/message.h>

#include "core/text.h"

namespace dromedary {

bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept {
  return equalsIgnoreCaseAscii(a, b);
}

Headers::Headers(std::initializer_list<std::pair<std::string_view, Value>> entries) {
  for (const auto& [name, value] : entries) set(name, value);
}

Headers::Headers(const Headers& other) { *this = other; }

namespace {
// `to = from` for a header's value, with the usual cases inline instead of through the
// variant's generic copy: text over text (a spare entry's, keeping its capacity), a number
// or flag over one of its kind or over nothing.
void assignValue(Value& to, const Value& from) {
  switch (from.type()) {
    case ValueType::String:
      if (std::string* text = to.mutableString()) {
        detail::assignText(*text, from.getString());
        return;
      }
      break;
    case ValueType::Int:
      if (to.isInt() || to.isNull()) {
        to.setInt(from.getInt());
        return;
      }
      break;
    case ValueType::Bool:
      if (to.isBool() || to.isNull()) {
        to.setBool(from.getBool());
        return;
      }
      break;
    default: break;
  }
  to = from;
}
}  // namespace

Headers& Headers::operator=(const Headers& other) {
  if (this == &other) return *this;
  // Element-wise: existing entries keep their string capacity.
  if (entries_.size() < other.size_) entries_.resize(other.size_);
  for (uint32_t i = 0; i < other.size_; ++i) {
    Entry& to = entries_[i];
    const Entry& from = other.entries_[i];
    if (to.hash != from.hash || !sameSpelling(to.name, from.name)) {
      to.name.assign(from.name);
      to.hash = from.hash;
    }
    assignValue(to.value, from.value);
  }
  truncate(other.size_);
  return *this;
}

Headers::Entry& Headers::appendOther(std::string_view name, uint32_t hash) {
  ++version_;
  if (size_ == entries_.size()) {
    // A new list starts with room for a few: most messages carry a handful of headers, and
    // growing one entry at a time moved every entry at the second and third (a new exchange's
    // kafka.RECORD_META after its key: ~480 instructions).
    if (entries_.capacity() == 0) entries_.reserve(kFirstCapacity);
    entries_.emplace_back();
  }
  Entry& e = entries_[size_++];
  // A spare entry often held this very name (a pooled exchange setting the same headers).
  if (e.hash != hash || !sameSpelling(e.name, name)) {
    e.name.assign(name.data(), name.size());
    e.hash = hash;
  }
  return e;
}

void Headers::set(std::string_view name, uint32_t hash, const Value& value) {
  if (Value* v = find(name, hash)) {
    *v = value;
    return;
  }
  // `value` may live in this very vector (setHeader("b", header("a"))): appending could
  // reallocate under it, so copy it out first in that case.
  const Value* p = &value;
  if (!entries_.empty() && std::less_equal<const void*>()(&entries_.front(), p) &&
      std::less<const void*>()(p, entries_.data() + entries_.size())) {
    Value copy = value;
    append(name, hash).value = std::move(copy);
    return;
  }
  Entry& e = append(name, hash);
  try {
    e.value = value;
  } catch (...) {
    // Not set (no memory): the entry goes back to the spare ones, rather than show what a
    // removed entry held (its last text, maybe another message's).
    --size_;
    ++version_;
    throw;
  }
}

void Headers::set(std::string_view name, uint32_t hash, Value&& value) {
  if (Value* v = find(name, hash)) {
    *v = std::move(value);
    return;
  }
  append(name, hash).value = std::move(value);
}

Value& Headers::slot(std::string_view name, uint32_t hash) {
  if (Value* v = find(name, hash)) return *v;
  Entry& e = append(name, hash);
  e.value.reset();
  return e.value;
}

std::string& Headers::textSlot(const HeaderKey& key) {
  // One pass over the live entries, then the spare entry after them taken in place (the same
  // as find() then append(), without their calls and second version step).
  ++version_;
  const uint32_t hash = key.hash();
  const std::string_view name = key.name();
  Value* v = nullptr;
  for (uint32_t i = 0; i < size_; ++i) {
    Entry& e = entries_[i];
    if (e.hash == hash && sameName(e.name, name)) {
      v = &e.value;
      break;
    }
  }
  if (!v) {
    Entry& e = size_ < entries_.size() ? entries_[size_] : entries_.emplace_back();
    if (e.hash != hash || !sameSpelling(e.name, name)) {
      e.name.assign(name.data(), name.size());
      e.hash = hash;
    }
    ++size_;
    v = &e.value;  // a spare entry's: its last text, or null
  }
  if (std::string* s = v->mutableString()) [[likely]] return *s;
  return v->resetString();
}

void Headers::eraseAt(uint32_t index) noexcept {
  // Move the removed entry past the live range by swaps: order is kept, no string is freed.
  for (uint32_t i = index; i + 1 < size_; ++i) swapEntries(i, i + 1);
  truncate(size_ - 1);
}

void Headers::truncate(uint32_t size) noexcept {
  ++version_;
  for (uint32_t i = size; i < size_; ++i) {
    // Spare entries keep nothing alive; a number or flag holds nothing to let go of; text
    // (most values) keeps its buffer and its last text, which whoever takes the entry
    // assigns over (detail::assignText: inline when not longer).
    Value& v = entries_[i].value;
    if (v.type() > ValueType::String) v.clearForReuse();
  }
  size_ = size;
}

bool Headers::remove(std::string_view name, uint32_t hash) noexcept {
  for (uint32_t i = 0; i < size_; ++i) {
    if (entries_[i].hash == hash && sameName(entries_[i].name, name)) {
      eraseAt(i);
      return true;
    }
  }
  return false;
}

bool Headers::operator==(const Headers& other) const noexcept {
  if (size_ != other.size_) return false;
  for (const Entry& e : *this) {
    const Value* v = other.get(e.name);
    if (!v || !(*v == e.value)) return false;
  }
  return true;
}

void Message::adoptSpareString() noexcept {
  // The spare buffer keeps its last text: a body no longer than it is copied over it inline
  // (Value::setString).
  body_.adoptString(std::move(spare_));
}

void Message::setBodyOther(const Value& body) {
  // The new body may be a part of the old one (`${body[n]}` of a map, an item of a list):
  // copied out before the old one goes, which frees it.
  if (body_.isList() || body_.isMap() || body_.isObject()) {
    Value copy = body;
    body_ = std::move(copy);
    return;
  }
  if (body.isString()) {  // the body is not text yet: take the spare buffer, then copy in
    if (!body_.isString() && spare_.capacity() > 15) adoptSpareString();
    body_.setString(body.getString());
    return;
  }
  body_ = body;
}

void Message::setBody(std::string_view body) {
  if (!body_.isString() && (spare_.capacity() > 15 || body_.type() > ValueType::String))
      [[unlikely]] {
    setTextOverOther(body);
    return;
  }
  body_.setString(body);  // text over text, or a short text over nothing or a number
}

// Out of line, so that the usual cases above keep a small frame.
[[gnu::noinline]] void Message::setTextOverOther(std::string_view body) {
  // Bytes, a list, a map or an object may hold the very text `body` views: copied out
  // before the old body goes.
  if (body_.type() > ValueType::String) {
    Value text{std::string(body)};
    body_ = std::move(text);
    return;
  }
  adoptSpareString();
  body_.setString(body);
}

void Message::clear() noexcept {
  headers_.clear();
  // A pooled exchange keeps its body's buffer for the next string body, up to a size: beyond
  // it, copying the body costs more than allocating it, and a pool of exchanges each keeping
  // a large body's buffer held tens of MiB for nothing (12 KB bodies through a broker).
  if (std::string* s = body_.mutableString();
      s && s->capacity() > spare_.capacity() && s->capacity() <= kMaxSpareBody) {
    spare_.swap(*s);  // with its text, which the next body is copied over
  }
  body_.reset();
}

}  // namespace dromedary
