// SPDX-License-Identifier: Apache-2.0
#include "file_names.h"

#include <cctype>
#include <vector>

namespace dromedary::component::file {

std::string_view onlyName(std::string_view name) noexcept {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

std::string_view extensionOf(std::string_view name, bool single) noexcept {
  std::string_view only = onlyName(name);
  size_t dot = single ? only.rfind('.') : only.find('.');
  return dot == std::string_view::npos ? std::string_view() : only.substr(dot + 1);
}

std::string_view withoutExtension(std::string_view name, bool single) noexcept {
  std::string_view ext = extensionOf(name, single);
  if (ext.empty() && (name.empty() || name.back() != '.')) return name;
  return name.substr(0, name.size() - ext.size() - 1);
}

std::string_view parentOf(std::string_view name) noexcept {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : name.substr(0, slash);
}

namespace {

bool sameChar(char a, char b, bool case_sensitive) {
  if (case_sensitive) return a == b;
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// One folder name against one pattern segment (`*` and `?`), iteratively: the last `*` seen
// is where a mismatch backtracks to, so it is linear in practice and never recursive.
bool segmentMatches(std::string_view pattern, std::string_view text, bool case_sensitive) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || sameChar(pattern[p], text[t], case_sensitive))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

}  // namespace

bool antMatches(std::string_view pattern, std::string_view path, bool case_sensitive) {
  std::vector<std::string_view> ps = split(pattern);
  std::vector<std::string_view> ts = split(path);
  // Segments with `**` backtracking, as segmentMatches does with `*`.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < ts.size()) {
    if (p < ps.size() && ps[p] == "**") {
      star = p++;
      mark = t;
    } else if (p < ps.size() && segmentMatches(ps[p], ts[t], case_sensitive)) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < ps.size() && ps[p] == "**") ++p;
  return p == ps.size();
}

bool antMatchesAny(std::string_view patterns, std::string_view path, bool case_sensitive) {
  size_t start = 0;
  while (start <= patterns.size()) {
    size_t comma = patterns.find(',', start);
    if (comma == std::string_view::npos) comma = patterns.size();
    std::string_view one = patterns.substr(start, comma - start);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
    if (!one.empty() && antMatches(one, path, case_sensitive)) return true;
    start = comma + 1;
  }
  return false;
}

std::string replaceFileTokens(std::string_view pattern, std::string_view name) {
  std::string out(pattern);
  auto replace = [&](std::string_view token, std::string_view with) {
    for (size_t at = out.find(token); at != std::string::npos; at = out.find(token, at)) {
      out.replace(at, token.size(), with);
      at += with.size();
    }
  };
  std::string_view only = onlyName(name);
  // Longest tokens first: ${file:name} is a prefix of none of them, but keep the order plain.
  replace("${file:name.noext}", withoutExtension(name, false));
  replace("${file:name.ext}", extensionOf(name, false));
  replace("${file:onlyname.noext}", withoutExtension(only, false));
  replace("${file:onlyname}", only);
  replace("${file:name}", name);
  replace("${file:ext}", extensionOf(name, false));
  replace("${file:parent}", parentOf(name));
  return out;
}

std::string normalizePath(std::string_view path) {
  const bool absolute = !path.empty() && path.front() == '/';
  std::vector<std::string_view> kept;
  for (std::string_view part : split(path)) {
    if (part == ".") continue;
    if (part == "..") {
      if (!kept.empty() && kept.back() != "..") {
        kept.pop_back();
      } else if (!absolute) {
        kept.push_back(part);
      }
      continue;
    }
    kept.push_back(part);
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) out += '/';
    out += kept[i];
  }
  return out;
}

bool staysInside(std::string_view name) {
  if (!name.empty() && name.front() == '/') return false;
  std::string n = normalizePath(name);
  return n != ".." && !n.starts_with("../");
}

}  // namespace dromedary::component::file
