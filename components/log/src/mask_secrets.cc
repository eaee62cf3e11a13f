// SPDX-License-Identifier: Apache-2.0
// The log component's logMask: secrets' values hidden in a formatted line, as Camel's
// DefaultMaskingFormatter hides them (its keywords, its two forms), without a regex engine.
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "exchange_formatter.h"

namespace dromedary::component::log {

namespace {

constexpr std::array<std::string_view, 7> kKeywords = {
    "passphrase", "password", "secretkey", "accesstoken", "clientsecret", "authorizationtoken",
    "sasljaasconfig"};
constexpr std::string_view kMask = "xxxxxx";

bool startsWithKeyword(std::string_view text, size_t at, size_t& length) {
  for (std::string_view k : kKeywords) {
    if (text.size() - at < k.size()) continue;
    bool same = std::equal(k.begin(), k.end(), text.begin() + static_cast<long>(at),
                           [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
    if (same) {
      length = k.size();
      return true;
    }
  }
  return false;
}

bool endsPlainValue(char c) {
  return c == '&' || c == ',' || c == ';' || c == ' ' || c == ']' || c == '}' || c == '\n' ||
         c == '"';
}

}  // namespace

void maskSecrets(std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    size_t length = 0;
    if (!startsWithKeyword(line, i, length)) continue;
    size_t j = i + length;
    const bool quoted_key = j < line.size() && line[j] == '"';
    if (quoted_key) ++j;
    while (j < line.size() && line[j] == ' ') ++j;
    if (j >= line.size() || (line[j] != '=' && line[j] != ':')) continue;
    ++j;
    while (j < line.size() && line[j] == ' ') ++j;
    size_t start = j;
    size_t end = j;
    if (j < line.size() && line[j] == '"') {  // JSON: the quoted value
      start = j + 1;
      end = line.find('"', start);
      if (end == std::string::npos) end = line.size();
    } else {
      while (end < line.size() && !endsPlainValue(line[end])) ++end;
    }
    line.replace(start, end - start, kMask);
    i = start + kMask.size() - 1;
  }
}

}  // namespace dromedary::component::log
