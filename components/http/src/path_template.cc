// SPDX-License-Identifier: Apache-2.0
#include "path_template.h"

#include <iterator>

#include <fmt/format.h>

namespace dromedary::component::http {

namespace {

// Calls f(segment) for each non-empty '/'-separated segment of `path`; stops when f returns
// false. Empty segments ("a//b", a trailing '/') are skipped, as servers usually do.
template <class F>
bool forEachSegment(std::string_view path, F&& f) {
  size_t i = 0;
  while (i < path.size()) {
    size_t end = path.find('/', i);
    if (end == std::string_view::npos) end = path.size();
    if (end > i && !f(path.substr(i, end - i))) return false;
    i = end + 1;
  }
  return true;
}

int hexValue(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percentDecode(std::string_view text, bool plusIsSpace) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      int hi = hexValue(text[i + 1]);
      int lo = hexValue(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += (c == '+' && plusIsSpace) ? ' ' : c;
  }
  return out;
}

Result<PathTemplate> PathTemplate::parse(std::string_view path) {
  PathTemplate t;
  std::string error;
  forEachSegment(path, [&](std::string_view s) {
    size_t open = s.find('{');
    size_t close = s.find('}');
    if (open == std::string_view::npos && close == std::string_view::npos) {
      t.segments_.push_back({std::string(s), false});
      return true;
    }
    if (open != 0 || close != s.size() - 1 || s.find('{', 1) != std::string_view::npos) {
      error = fmt::format("'{}' must be a whole segment: {{name}}", s);
      return false;
    }
    std::string name(s.substr(1, s.size() - 2));
    if (name.empty()) {
      error = "'{}' names no parameter";
      return false;
    }
    for (const Segment& seg : t.segments_) {
      if (seg.parameter && seg.text == name) {
        error = fmt::format("parameter '{}' appears twice", name);
        return false;
      }
    }
    t.segments_.push_back({std::move(name), true});
    ++t.parameters_;
    return true;
  });
  if (!error.empty()) {
    return makeError(ErrorCode::InvalidUri, fmt::format("bad path '{}': {}", path, error));
  }
  for (const Segment& s : t.segments_) {
    if (s.parameter) {
      fmt::format_to(std::back_inserter(t.text_), "/{{{}}}", s.text);
    } else {
      fmt::format_to(std::back_inserter(t.text_), "/{}", s.text);
    }
  }
  if (t.text_.empty()) t.text_.push_back('/');
  return t;
}

bool PathTemplate::match(std::string_view path, bool prefix,
                         std::vector<std::pair<std::string, std::string>>* params) const {
  size_t index = 0;
  bool ok = forEachSegment(path, [&](std::string_view s) {
    if (index == segments_.size()) {
      if (!prefix) return false;
      ++index;  // a longer path: the rest is the prefix's
      return false;
    }
    const Segment& seg = segments_[index++];
    if (seg.parameter) {
      if (params) params->emplace_back(seg.text, percentDecode(s, false));
      return true;
    }
    return seg.text == s;
  });
  if (index > segments_.size()) return true;  // stopped past the template: a prefix match
  return ok && index == segments_.size();
}

bool PathTemplate::samePath(const PathTemplate& other) const noexcept {
  if (segments_.size() != other.segments_.size()) return false;
  for (size_t i = 0; i < segments_.size(); ++i) {
    const Segment& a = segments_[i];
    const Segment& b = other.segments_[i];
    if (a.parameter != b.parameter || (!a.parameter && a.text != b.text)) return false;
  }
  return true;
}

}  // namespace dromedary::component::http
