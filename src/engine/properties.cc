// SPDX-License-Identifier: Apache-2.0
// Property placeholders and .properties files.
#include <fmt/format.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <dromedary/engine/context.h>

#include "core/text.h"

namespace dromedary {

namespace {

// Java .properties escapes: \t \n \r \f \\ \uXXXX (ASCII range kept simple: encoded as UTF-8).
std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'f': out += '\f'; break;
      case 'u':
        if (i + 4 < s.size()) {
          unsigned code = 0;
          bool ok = true;
          for (size_t k = 1; ok && k <= 4; ++k) {
            char h = s[i + k];
            code *= 16;
            if (h >= '0' && h <= '9') code += h - '0';
            else if (h >= 'a' && h <= 'f') code += h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') code += h - 'A' + 10;
            else ok = false;
          }
          if (ok) {
            if (code < 0x80) {
              out += static_cast<char>(code);
            } else if (code < 0x800) {
              out += static_cast<char>(0xC0 | (code >> 6));
              out += static_cast<char>(0x80 | (code & 0x3F));
            } else {
              out += static_cast<char>(0xE0 | (code >> 12));
              out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
              out += static_cast<char>(0x80 | (code & 0x3F));
            }
            i += 4;
            break;
          }
        }
        out += 'u';
        break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void Properties::set(std::string key, std::string value) {
  if (!pinned_.empty() && pinned_.contains(key)) return;
  values_[std::move(key)] = std::move(value);
}

void Properties::pin(std::string key, std::string value) {
  pinned_.insert(key);
  values_[std::move(key)] = std::move(value);
}

std::vector<std::pair<std::string, std::string>> Properties::withPrefix(
    std::string_view prefix) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = values_.lower_bound(prefix); it != values_.end() && it->first.starts_with(prefix);
       ++it) {
    out.emplace_back(it->first, it->second);
  }
  return out;
}

std::optional<std::string> Properties::get(std::string_view key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

Result<void> Properties::load(const std::string& path) { return load(path, false); }

Result<void> Properties::loadPinned(const std::string& path) { return load(path, true); }

Result<void> Properties::load(const std::string& path, bool pinned) {
  std::ifstream in(path);
  if (!in) {
    return makeError(ErrorCode::Io, fmt::format("cannot read properties file '{}': {}", path,
                                                std::strerror(errno)));
  }
  std::string line;
  std::string logical;
  while (std::getline(in, line)) {
    std::string_view l = line;
    if (logical.empty()) {
      l = trim(l);
      if (l.empty() || l.front() == '#' || l.front() == '!') continue;
    } else {
      l = trim(l);  // a continuation line's leading blanks are dropped
    }
    // A line ending in an odd number of backslashes continues on the next line.
    size_t slashes = 0;
    while (slashes < l.size() && l[l.size() - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 1) {
      logical.append(l.substr(0, l.size() - 1));
      continue;
    }
    logical.append(l);
    std::string_view entry = logical;
    size_t sep = std::string_view::npos;
    for (size_t i = 0; i < entry.size(); ++i) {
      if (entry[i] == '\\') {
        ++i;
        continue;
      }
      if (entry[i] == '=' || entry[i] == ':' || entry[i] == ' ' || entry[i] == '\t') {
        sep = i;
        break;
      }
    }
    std::string key = unescape(trim(entry.substr(0, sep)));
    std::string value;
    if (sep != std::string_view::npos) {
      std::string_view rest = trim(entry.substr(sep));
      if (!rest.empty() && (rest.front() == '=' || rest.front() == ':')) {
        rest = trim(rest.substr(1));
      }
      value = unescape(rest);
    }
    if (pinned) {
      pin(std::move(key), std::move(value));
    } else {
      set(std::move(key), std::move(value));
    }
    logical.clear();
  }
  return {};
}

Result<std::string> Properties::resolve(std::string_view text) const {
  std::vector<std::string> chain;
  return resolve(text, chain);
}

Result<std::string> Properties::resolve(std::string_view text,
                                        std::vector<std::string>& chain) const {
  if (text.find("{{") == std::string_view::npos) return std::string(text);
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      out.append(text.substr(pos));
      break;
    }
    out.append(text.substr(pos, open - pos));
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) {
      return makeError(ErrorCode::UnknownProperty,
                       fmt::format("unterminated property placeholder in '{}': expected '}}}}' "
                                   "after '{}'",
                                   text, text.substr(open)));
    }
    std::string_view inner = trim(text.substr(open + 2, close - open - 2));
    std::string_view placeholder = text.substr(open, close + 2 - open);
    std::string_view key = inner;
    std::optional<std::string_view> fallback;
    bool env = false;
    bool sys = false;
    const bool optional = !key.empty() && key.front() == '?';
    if (optional) key.remove_prefix(1);
    if (key.substr(0, 4) == "env:" || key.substr(0, 4) == "env.") {
      env = true;
      key.remove_prefix(4);
    } else if (key.substr(0, 4) == "sys:") {
      sys = true;
      key.remove_prefix(4);
    }
    if (size_t colon = key.find(':'); colon != std::string_view::npos) {
      fallback = key.substr(colon + 1);
      key = key.substr(0, colon);
    }
    if (key.empty()) {
      return makeError(ErrorCode::UnknownProperty,
                       fmt::format("empty property placeholder '{}' in '{}'", placeholder, text));
    }
    std::optional<std::string> value;
    if (env) {
      if (const char* v = std::getenv(std::string(key).c_str())) value = v;
    } else if (sys) {
      value = systemProperty(key);
    } else {
      value = get(key);
    }
    if (!value && fallback) value = std::string(*fallback);
    if (!value && optional) value = std::string();
    if (!value) {
      std::string message =
          env ? fmt::format("property placeholder '{}' in '{}': environment variable '{}' is "
                            "not set (give a default as '{{{{env:{}:default}}}}')",
                            placeholder, text, key, key)
              : fmt::format("property placeholder '{}' in '{}': no property '{}' is defined "
                            "(give a default as '{{{{{}:default}}}}')",
                            placeholder, text, key, key);
      return makeError(ErrorCode::UnknownProperty, std::move(message));
    }
    std::string name(key);
    for (const std::string& seen : chain) {
      if (seen == name) {
        std::string cycle;
        for (const std::string& c : chain) cycle += c + " -> ";
        return makeError(ErrorCode::UnknownProperty,
                         fmt::format("circular property reference: {}{}", cycle, name));
      }
    }
    chain.push_back(name);
    auto nested = resolve(*value, chain);
    chain.pop_back();
    if (!nested) return nested.error();
    out.append(*nested);
    pos = close + 2;
  }
  return out;
}

bool Properties::isAbsentOptional(std::string_view value) const {
  if (!value.starts_with("{{?") || !value.ends_with("}}") ||
      value.find("{{", 1) != std::string_view::npos) {
    return false;
  }
  std::string_view key = trim(value.substr(3, value.size() - 5));
  return key.find(':') == std::string_view::npos && !get(key);  // a default makes it present
}

std::string Properties::withoutAbsentOptionalOptions(std::string_view uri) const {
  size_t query = uri.find('?');
  if (query == std::string_view::npos || uri.find("{{?", query) == std::string_view::npos) {
    return std::string(uri);
  }
  std::string out(uri.substr(0, query));
  char separator = '?';
  std::string_view options = uri.substr(query + 1);
  while (!options.empty()) {
    size_t amp = options.find('&');
    std::string_view option = options.substr(0, amp);
    options.remove_prefix(amp == std::string_view::npos ? options.size() : amp + 1);
    size_t eq = option.find('=');
    std::string_view value = eq == std::string_view::npos ? std::string_view() : option.substr(eq + 1);
    if (isAbsentOptional(value)) continue;  // dropped
    out += separator;
    out += option;
    separator = '&';
  }
  return out;
}

std::optional<std::string> Properties::systemProperty(std::string_view name) {
  auto env = [](const char* variable) -> std::optional<std::string> {
    const char* v = std::getenv(variable);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  if (name == "line.separator") return "\n";
  if (name == "file.separator") return "/";
  if (name == "path.separator") return ":";
  if (name == "user.name") return env("USER");
  if (name == "user.home") return env("HOME");
  if (name == "java.io.tmpdir") return env("TMPDIR").value_or("/tmp");
  if (name == "user.dir") {
    char buf[4096];
    return getcwd(buf, sizeof(buf)) ? std::optional<std::string>(buf) : std::nullopt;
  }
  if (name == "os.name" || name == "os.arch" || name == "os.version") {
    utsname u{};
    if (uname(&u) != 0) return std::nullopt;
    return std::string(name == "os.name" ? u.sysname : name == "os.arch" ? u.machine : u.release);
  }
  return std::nullopt;
}

}  // namespace dromedary
