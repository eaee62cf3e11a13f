// SPDX-License-Identifier: Apache-2.0
#include "init_command.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "text_file.h"

namespace dromedary::cli {

namespace fs = std::filesystem;

std::string initialRouteFile(const std::string& file_name) {
  fs::path path(file_name);
  std::string ext = path.extension().string();
  // The stem names the route and its timer: kept to what a URI path takes unescaped.
  std::string id = path.stem().string();
  for (char& c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  }
  if (ext == ".yaml" || ext == ".yml") {
    return fmt::format(
        "# A route to start from: `dromedary run --dev {0}` runs it and reloads it on save.\n"
        "# Camel's YAML DSL: the steps are listed by `dromedary eips`, the components by\n"
        "# `dromedary components`.\n"
        "- route:\n"
        "    id: {1}\n"
        "    from:\n"
        "      uri: timer:{1}\n"
        "      parameters:\n"
        "        period: 1000\n"
        "      steps:\n"
        "        - setBody:\n"
        "            simple: Hello from ${{routeId}} at ${{date:now:HH:mm:ss}}\n"
        "        - log: ${{body}}\n",
        path.filename().string(), id);
  }
  if (ext == ".xml") {
    return fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- A route to start from: `dromedary run --dev {0}` runs it and reloads it on save.\n"
        "     Camel's XML DSL: the steps are listed by `dromedary eips`, the components by\n"
        "     `dromedary components`. -->\n"
        "<routes xmlns=\"http://camel.apache.org/schema/spring\">\n"
        "  <route id=\"{1}\">\n"
        "    <from uri=\"timer:{1}?period=1000\"/>\n"
        "    <setBody>\n"
        "      <simple>Hello from ${{routeId}} at ${{date:now:HH:mm:ss}}</simple>\n"
        "    </setBody>\n"
        "    <log message=\"${{body}}\"/>\n"
        "  </route>\n"
        "</routes>\n",
        path.filename().string(), id);
  }
  return {};
}

int runInit(const InitOptions& options) {
  std::string text = initialRouteFile(options.file);
  if (text.empty()) {
    std::fprintf(stderr, "dromedary: init writes a .yaml, .yml or .xml file, not '%s'\n",
                 options.file.c_str());
    return 2;
  }
  fs::path target = (fs::path(options.directory) / options.file).lexically_normal();
  std::error_code ec;
  if (fs::exists(target, ec) && !options.force) {
    std::fprintf(stderr, "dromedary: %s exists (--force replaces it)\n", target.c_str());
    return 1;
  }
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (!writeTextFile(target, text)) return 1;
  std::printf("wrote %s: dromedary run --dev %s\n", target.c_str(), target.c_str());
  return 0;
}

}  // namespace dromedary::cli
