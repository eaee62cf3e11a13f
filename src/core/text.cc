// SPDX-License-Identifier: Apache-2.0
#include "core/text.h"

#include <algorithm>
#include <mutex>
#include <set>

namespace dromedary {

const std::string& internText(std::string_view text) {
  static std::mutex* mutex = new std::mutex();
  static auto* texts = new std::set<std::string, std::less<>>();  // lives through exit
  std::lock_guard lock(*mutex);
  auto it = texts->find(text);
  if (it == texts->end()) it = texts->emplace(text).first;
  return *it;  // set nodes never move
}

namespace {
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t cost = toLowerAscii(a[i - 1]) == toLowerAscii(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closestMatch(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  for (std::string_view c : candidates) {
    size_t d = editDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // Close enough to be a typo: at most a third of the word, and at least one edit allowed.
  size_t limit = std::max<size_t>(1, (word.size() + 2) / 3);
  if (best_distance <= limit) return std::string(best);
  return {};
}

std::string joinNames(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

size_t utf8SequenceLength(std::string_view s) noexcept {
  if (s.empty()) return 0;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range (RFC 3629's table)
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return n;
}

bool isValidUtf8(std::string_view s) noexcept {
  while (!s.empty()) {
    size_t n = utf8SequenceLength(s);
    if (n == 0) return false;
    s.remove_prefix(n);
  }
  return true;
}

std::string printableText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    size_t n = utf8SequenceLength(s);
    if (n == 0 || (n == 1 && (static_cast<unsigned char>(s[0]) < 0x20 || s[0] == 0x7F))) {
      constexpr char kHex[] = "0123456789abcdef";
      const auto b = static_cast<unsigned char>(s[0]);
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
      s.remove_prefix(1);
      continue;
    }
    out.append(s.substr(0, n));
    s.remove_prefix(n);
  }
  return out;
}

}  // namespace dromedary
