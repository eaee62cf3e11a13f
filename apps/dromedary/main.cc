// SPDX-License-Identifier: Apache-2.0
// The dromedary command. This first version knows `version` and `components`; `run`,
// `validate` and `eval` come with the route-file loaders and the Simple language.
#include <cstdio>
#include <cstring>
#include <string_view>

#include <dromedary/dromedary.h>

namespace {

constexpr const char* kUsage =
    "usage: dromedary <command>\n"
    "\n"
    "commands:\n"
    "  version               print the version\n"
    "  components [SCHEME]   list the components in this build, or one's options\n"
    "\n"
    "exit codes: 0 success, 1 failure, 2 usage error\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string_view command = argv[1];
  if (command == "version") {
    std::printf("dromedary %s\n", dromedary::kVersion);
    return 0;
  }
  if (command == "components") {
    dromedary::setLogLevel(dromedary::LoggingLevel::Warn);
    dromedary::Context context;
    dromedary::registerBuiltinComponents(context);
    if (argc == 2) {
      for (const std::string& scheme : context.componentSchemes()) std::printf("%s\n", scheme.c_str());
      return 0;
    }
    dromedary::Component* component = context.component(argv[2]);
    if (!component) {
      std::fprintf(stderr, "dromedary: unknown component '%s'\n", argv[2]);
      return 1;
    }
    std::fputs(dromedary::describeOptions(component->scheme(), component->endpointOptions())
                   .c_str(),
               stdout);
    return 0;
  }
  std::fprintf(stderr, "dromedary: unknown command '%s'\n\n%s", argv[1], kUsage);
  return 2;
}
