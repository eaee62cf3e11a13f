// SPDX-License-Identifier: Apache-2.0
#pragma once

// Static files for platform-http (Camel's camel.server.staticEnabled): GET and HEAD of a path
// no route serves are answered from one folder. The folder is a jail: a path is decoded,
// any "." or ".." segment refused, and the file's real path (symbolic links resolved) must
// lie inside the folder's real path; anything else is 404, as a missing file is.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dromedary::component::http {

struct StaticFiles {
  std::string root;         ///< the folder's real path; empty: static files are off
  std::string contextPath;  ///< the URL path they are under ("/" or "/web")
  size_t maxFileBytes = 0;  ///< larger files are refused (500), not read into memory

  bool enabled() const noexcept { return !root.empty(); }
  /// The real path of the file serving URL path `path` (a folder's index.html), or nothing
  /// when none may: outside contextPath, a refused segment, outside the root, not a file.
  std::optional<std::string> resolve(std::string_view path) const;
};

/// The Content-Type for a file name, by its extension (application/octet-stream otherwise).
std::string_view contentTypeOf(std::string_view file_name) noexcept;

}  // namespace dromedary::component::http
