// SPDX-License-Identifier: Apache-2.0
#include "static_files.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>

namespace dromedary::component::http {

namespace {

int hexValue(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoded; nothing when an escape is malformed or decodes to NUL.
std::optional<std::string> decodePath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '%') {
      int hi = i + 1 < path.size() ? hexValue(path[i + 1]) : -1;
      int lo = i + 2 < path.size() ? hexValue(path[i + 2]) : -1;
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') return std::nullopt;
    out += c;
  }
  return out;
}

std::optional<std::string> realPath(const std::string& path) {
  char buffer[PATH_MAX];
  if (!::realpath(path.c_str(), buffer)) return std::nullopt;
  return std::string(buffer);
}

bool isRegularFile(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isDirectory(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::optional<std::string> StaticFiles::resolve(std::string_view path) const {
  if (!enabled()) return std::nullopt;
  std::string_view prefix = contextPath;
  while (prefix.ends_with('/')) prefix.remove_suffix(1);
  if (!path.starts_with(prefix)) return std::nullopt;
  std::string_view rest = path.substr(prefix.size());
  if (!rest.empty() && !rest.starts_with('/')) return std::nullopt;  // "/webx" is not "/web"
  auto decoded = decodePath(rest);
  if (!decoded) return std::nullopt;
  std::string relative;
  std::string_view segments = *decoded;
  while (!segments.empty()) {
    size_t slash = segments.find('/');
    std::string_view segment = segments.substr(0, slash);
    segments = slash == std::string_view::npos ? "" : segments.substr(slash + 1);
    if (segment.empty()) continue;
    if (segment == "." || segment == ".." || segment.find('\\') != std::string_view::npos) {
      return std::nullopt;
    }
    relative += '/';
    relative += segment;
  }
  std::string candidate = root + relative;
  if (isDirectory(candidate)) candidate += "/index.html";
  auto real = realPath(candidate);
  if (!real || !isRegularFile(*real)) return std::nullopt;
  // Inside the root once links are resolved: a link out of the folder is not followed.
  if (real->size() <= root.size() || real->compare(0, root.size(), root) != 0 ||
      (*real)[root.size()] != '/') {
    return std::nullopt;
  }
  return real;
}

std::string_view contentTypeOf(std::string_view file_name) noexcept {
  size_t dot = file_name.rfind('.');
  size_t slash = file_name.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return "application/octet-stream";
  }
  std::string_view ext = file_name.substr(dot + 1);
  struct Type {
    std::string_view ext, type;
  };
  static constexpr Type kTypes[] = {
      {"html", "text/html; charset=utf-8"}, {"htm", "text/html; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},   {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"}, {"json", "application/json"},
      {"map", "application/json"},          {"txt", "text/plain; charset=utf-8"},
      {"xml", "application/xml"},           {"svg", "image/svg+xml"},
      {"png", "image/png"},                 {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},               {"gif", "image/gif"},
      {"webp", "image/webp"},               {"ico", "image/x-icon"},
      {"woff", "font/woff"},                {"woff2", "font/woff2"},
      {"wasm", "application/wasm"},         {"pdf", "application/pdf"},
      {"yaml", "application/yaml"},         {"yml", "application/yaml"},
  };
  for (const Type& t : kTypes) {
    if (t.ext.size() != ext.size()) continue;
    bool same = true;
    for (size_t i = 0; i < ext.size(); ++i) {
      same = same && std::tolower(static_cast<unsigned char>(ext[i])) == t.ext[i];
    }
    if (same) return t.type;
  }
  return "application/octet-stream";
}

}  // namespace dromedary::component::http
