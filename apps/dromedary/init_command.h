// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary init NAME.yaml|NAME.xml`: a small working route file to start from, as Camel
// JBang's `camel init` writes one.

#include <string>

namespace dromedary::cli {

struct InitOptions {
  std::string file;             ///< NAME.yaml, NAME.yml or NAME.xml
  std::string directory = ".";  ///< where it goes (made when missing)
  bool force = false;           ///< replace an existing file
};

/// The route file's text for `file_name` (its extension picks YAML or XML; its stem names the
/// route), or empty when the extension is neither.
std::string initialRouteFile(const std::string& file_name);

/// Writes the file. Exit code: 0 written, 1 it exists (without --force) or cannot be written,
/// 2 an extension that is not .yaml, .yml or .xml.
int runInit(const InitOptions& options);

}  // namespace dromedary::cli
