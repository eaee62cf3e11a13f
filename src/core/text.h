// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small text helpers shared by the core (private).

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace dromedary {

/// One copy of `text` for the process's life, shared by every caller that interns the same
/// text (file names of sources, log categories: made at load time, never per message). Safe
/// from any thread; the reference stays valid until exit.
const std::string& internText(std::string_view text);

/// a == b. Texts of 8 to 16 bytes (most endpoint URIs a template sends to) are compared
/// inline with two 8-byte loads each, overlapping, instead of a call to memcmp.
inline bool sameText(std::string_view a, std::string_view b) noexcept {
  const size_t n = a.size();
  if (n != b.size()) return false;
  if (n >= 8 && n <= 16) {
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a.data(), 8);
    std::memcpy(&b0, b.data(), 8);
    std::memcpy(&a1, a.data() + n - 8, 8);
    std::memcpy(&b1, b.data() + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  return n == 0 || std::memcmp(a.data(), b.data(), n) == 0;
}

inline char toLowerAscii(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c;
}

inline bool equalsIgnoreCaseAscii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  if (a == b) return true;  // the usual case: same spelling (a memcmp)
  for (size_t i = 0; i < a.size(); ++i) {
    if (toLowerAscii(a[i]) != toLowerAscii(b[i])) return false;
  }
  return true;
}

inline bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && equalsIgnoreCaseAscii(s.substr(0, prefix.size()), prefix);
}

inline std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                        s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

inline std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = toLowerAscii(c);
  return out;
}

/// The length of the well-formed UTF-8 sequence at the start of `s` (1 to 4), or 0 when `s`
/// does not start with one (a stray continuation byte, an overlong form, a surrogate, a
/// truncated sequence, or nothing left).
size_t utf8SequenceLength(std::string_view s) noexcept;

/// Is all of `s` well-formed UTF-8?
bool isValidUtf8(std::string_view s) noexcept;

/// `s` for a message: bytes that are not printable UTF-8 (control bytes, malformed
/// sequences) as \xNN.
std::string printableText(std::string_view s);

/// The candidate closest to `word` by edit distance (case-insensitive), if close enough to
/// be what was meant ("did you mean ...?"), else empty.
std::string closestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

/// "a, b, c"
std::string joinNames(const std::vector<std::string_view>& names);

}  // namespace dromedary
