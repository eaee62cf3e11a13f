// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writing a file the dromedary command makes (init's route file, the man pages).

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace dromedary::cli {

/// Writes `text` to `path`, replacing it; false (the error printed) when it cannot.
inline bool writeTextFile(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "dromedary: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

}  // namespace dromedary::cli
