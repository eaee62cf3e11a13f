// SPDX-License-Identifier: Apache-2.0
#include "engine/resources.h"

#include <dromedary/engine/context.h>
#include <dromedary/engine/resource.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace dromedary::detail {

namespace fs = std::filesystem;

std::vector<std::string> classpathFolders(Context& context) {
  std::vector<std::string> out;
  std::string list = context.properties().get(kClasspathProperty).value_or("");
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  out.push_back(".");
  return out;
}

namespace {

Result<std::string> readText(const fs::path& path, std::string_view text) {
  // Only regular files: a FIFO or a device (/dev/zero) would block or never end.
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return makeError(ErrorCode::NotFound,
                     fmt::format("cannot read {}: '{}' is not a regular file", text,
                                 path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return makeError(ErrorCode::NotFound,
                     fmt::format("cannot read {} ('{}')", text, path.string()));
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

Result<std::string> readResource(Context& context, std::string_view text) {
  std::string_view spec = text.substr(9);  // after "resource:"
  if (spec.starts_with("file:")) return readText(fs::path(std::string(spec.substr(5))), text);
  if (spec.starts_with("classpath:")) {
    std::string_view name = spec.substr(10);
    while (name.starts_with('/')) name.remove_prefix(1);
    std::vector<std::string> folders = classpathFolders(context);
    for (const std::string& folder : folders) {
      fs::path candidate = fs::path(folder) / std::string(name);
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) return readText(candidate, text);
    }
    std::string where;
    for (const std::string& f : folders) where += (where.empty() ? "" : ", ") + f;
    return makeError(ErrorCode::NotFound,
                     fmt::format("{} is not in the route files' folders nor the working folder "
                                 "({})",
                                 text, where));
  }
  return makeError(
      ErrorCode::InvalidExpression,
      fmt::format("{}: only resource:file: and resource:classpath: can be read", text));
}

void addClasspathFolder(Context& context, const std::string& folder) {
  std::string list = context.properties().get(kClasspathProperty).value_or("");
  for (const std::string& f : classpathFolders(context)) {
    if (f == folder) return;
  }
  context.properties().set(std::string(kClasspathProperty),
                           list.empty() ? folder : list + "," + folder);
}

}  // namespace dromedary::detail

namespace dromedary {

Result<std::string> readResourceUri(Context& context, std::string_view uri) {
  return detail::readResource(context, "resource:" + std::string(uri));
}

}  // namespace dromedary
