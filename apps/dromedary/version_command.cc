// SPDX-License-Identifier: Apache-2.0
#include "version_command.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include <dromedary/dromedary.h>

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
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace dromedary::cli
