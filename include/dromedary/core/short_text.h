// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Short texts compared and copied inline (header names and values, compared literals: most
/// are under 17 bytes), where a call to memcmp or to std::string's assign would cost more
/// than the work. Engine internals, public because Headers' inline lookups use them.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace dromedary {

namespace detail {
// A little-endian load of a word (uint64_t or uint32_t), usable in constant expressions.
template <class W>
constexpr W loadWord(const char* p) noexcept {
  if (std::is_constant_evaluated()) {
    W w = 0;
    for (size_t i = 0; i < sizeof(W); ++i) w |= W{static_cast<unsigned char>(p[i])} << (8 * i);
    return w;
  }
  W w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
// Byte-equal texts, compared inline by words (the last word overlapping the one before):
// names and most compared values are short, and a call to memcmp costs more. Long texts go
// to memcmp.
inline bool sameBytes(std::string_view a, std::string_view b) noexcept {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    if (n > 64) return std::memcmp(x, y, n) == 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (loadWord<uint64_t>(x + i) != loadWord<uint64_t>(y + i)) return false;
    }
    return loadWord<uint64_t>(x + n - 8) == loadWord<uint64_t>(y + n - 8);
  }
  if (n >= 4) {
    return loadWord<uint32_t>(x) == loadWord<uint32_t>(y) &&
           loadWord<uint32_t>(x + n - 4) == loadWord<uint32_t>(y + n - 4);
  }
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}
// Copies `n` bytes from `from` to `to`, which may overlap: a short text (most header values
// and names) with two loads and two stores, both loads first; a longer one through memmove.
inline void moveBytes(char* to, const char* from, size_t n) noexcept {
  if (n >= 8 && n <= 16) {
    const uint64_t head = loadWord<uint64_t>(from);
    const uint64_t tail = loadWord<uint64_t>(from + n - 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4 && n < 8) {
    const uint32_t head = loadWord<uint32_t>(from);
    const uint32_t tail = loadWord<uint32_t>(from + n - 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
  } else if (n > 0 && n < 4) {
    const char first = from[0];
    const char middle = from[n / 2];
    const char last = from[n - 1];
    to[0] = first;
    to[n / 2] = middle;
    to[n - 1] = last;
  } else if (n > 16) {
    std::memmove(to, from, n);
  }
}
// assignText's longer case: the library's assign. Should it fail (no memory), `to` is left
// empty, never holding the text it had: that may be a removed header's, of another message.
[[gnu::noinline]] inline void assignLongerText(std::string& to, std::string_view from) {
  try {
    to.assign(from.data(), from.size());
  } catch (...) {
    to.clear();
    throw;
  }
}
// `to = from`, keeping `to`'s buffer. When `from` is not longer than what `to` holds (a
// reused string keeps its last text: Headers' spare entries do), it runs inline: the library's
// assign() is a call and a memcpy call. `from` may be a part of `to`.
inline void assignText(std::string& to, std::string_view from) {
  const size_t n = from.size();
  if (n <= to.size()) {
    moveBytes(to.data(), from.data(), n);
    to.resize(n);  // not longer: inline (it only sets the length)
    return;
  }
  assignLongerText(to, from);
}
}  // namespace detail

}  // namespace dromedary
