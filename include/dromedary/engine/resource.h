// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's resource URIs for components that take a file's text as an option or a path (the
// sql component's `sql:classpath:query.sql`). There is no Java classpath: `classpath:` names
// are looked up in the folders of the loaded route files, then the working folder.

#include <dromedary/core/result.h>

#include <string>
#include <string_view>

namespace dromedary {

class Context;

/// Whether `uri` is a resource URI this function reads ("file:..." or "classpath:...").
inline bool isResourceUri(std::string_view uri) {
  return uri.starts_with("file:") || uri.starts_with("classpath:");
}

/// The text of the resource `uri` names; read when a route starts, never per message. An
/// error names the resource and the folders it was looked for in. Only regular files are read.
Result<std::string> readResourceUri(Context& context, std::string_view uri);

}  // namespace dromedary
