// SPDX-License-Identifier: Apache-2.0
#include "version_command.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include <dromedary/dromedary.h>

#include "component_modules.h"

namespace dromedary::cli {

int printVersion(bool json) {
  const BuildInfo& info = buildInfo();
  if (!json) {
    std::printf("dromedary %s (commit %s)\n", info.version, info.commit);
    return 0;
  }
  setLogLevel(LoggingLevel::Warn);
  Context context;
  registerBuiltinComponents(context);
  nlohmann::ordered_json out;
  out["version"] = info.version;
  out["commit"] = info.commit;
  out["compiler"] = info.compiler;
  out["buildType"] = info.buildType;
  out["system"] = info.system;
  out["cxxStandard"] = __cplusplus;
  out["systemdNotify"] = info.systemd;
  out["components"] = context.componentSchemes();
  out["languages"] = context.languageNames();
  out["dataFormats"] = context.dataFormatNames();
  // Each component module, its schemes, and the file it would load from (null: not found).
  nlohmann::ordered_json modules = nlohmann::ordered_json::object();
  for (const modules::ComponentModuleSpec& spec : modules::builtinModules()) {
    std::string file = modules::findModuleFile(spec.name);
    nlohmann::ordered_json& m = modules[std::string(spec.name)];
    m["schemes"] = std::vector<std::string>(spec.schemes.begin(), spec.schemes.end());
    m["file"] = file.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(file);
  }
  out["modules"] = modules;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace dromedary::cli
