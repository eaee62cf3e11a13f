// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's external resources for expressions: an expression whose text is
// `resource:file:PATH` or `resource:classpath:PATH` is the text of that file, read once when
// the route starts. There is no Java classpath here: classpath: paths are looked up in the
// folders of the route files loaded (dromedary run adds them) and then the working folder.

#include <dromedary/core/result.h>

#include <string>
#include <string_view>
#include <vector>

namespace dromedary {
class Context;
}

namespace dromedary::detail {

/// The context property listing the classpath: folders (comma-separated).
inline constexpr std::string_view kClasspathProperty = "dromedary.classpath";

/// Whether `text` names a resource (starts with "resource:").
inline bool isResourceText(std::string_view text) { return text.starts_with("resource:"); }

/// The text of the resource `text` names ("resource:file:x.txt", "resource:classpath:x.txt");
/// an error names the resource and where it was looked for.
Result<std::string> readResource(Context& context, std::string_view text);

/// The classpath: folders, in the order they are searched (the working folder last).
std::vector<std::string> classpathFolders(Context& context);

/// Adds `folder` to the classpath: folders (once).
void addClasspathFolder(Context& context, const std::string& folder);

}  // namespace dromedary::detail
