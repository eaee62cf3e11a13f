// SPDX-License-Identifier: Apache-2.0
#include "module_loader.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "component_modules.h"
#include "dromedary_build_id.h"

namespace dromedary::modules {

namespace {

// The build (dromedary_build_id.h: version, compiler, build type and flags, and a hash of the
// headers modules share with the program) and the modules' folder relative to the one above
// the program's (set by CMake).
constexpr std::string_view kBuildId = DROMEDARY_BUILD_ID;
constexpr std::string_view kModuleDir = DROMEDARY_MODULE_DIR;

std::string programFolder() {
  std::string path(4096, '\0');
  ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return {};
  path.resize(static_cast<size_t>(n));
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

Error moduleError(std::string_view name, std::string why) {
  return makeError(ErrorCode::UnknownComponent,
                   fmt::format("the module dromedary-{}.so {}", name, why));
}

}  // namespace

std::vector<std::string> moduleFolders() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("DROMEDARY_MODULE_PATH")) {
    std::string_view rest(env);
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      std::string_view folder = rest.substr(0, colon);
      if (!folder.empty()) folders.emplace_back(folder);
      rest.remove_prefix(colon == std::string_view::npos ? rest.size() : colon + 1);
    }
  }
  if (std::string bin = programFolder(); !bin.empty()) {
    std::filesystem::path folder = std::filesystem::path(bin) / ".." / kModuleDir;
    folders.push_back(folder.lexically_normal().string());
  }
  return folders;
}

std::string findModuleFile(std::string_view name) {
  for (const std::string& folder : moduleFolders()) {
    std::string path = fmt::format("{}/dromedary-{}.so", folder, name);
    if (access(path.c_str(), F_OK) == 0) return path;
  }
  return {};
}

namespace detail {

Result<RegisterFunction> openModule(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, RegisterFunction, std::less<>> opened;
  std::lock_guard lock(mutex);
  if (auto it = opened.find(name); it != opened.end()) return it->second;

  std::string path = findModuleFile(name);
  if (path.empty()) {
    return moduleError(name, fmt::format("is in none of the module folders ({}); build it with "
                                         "`cmake --build BUILD_DIR --target dromedary_modules`, "
                                         "or name its folder in DROMEDARY_MODULE_PATH",
                                         fmt::join(moduleFolders(), ", ")));
  }
  // RTLD_NOW: a symbol the program does not provide is an error here, not a crash later.
  // Never closed: the module's code runs until the process ends.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return moduleError(name, fmt::format("could not be loaded: {}", dlerror()));
  auto build = reinterpret_cast<const char* (*)()>(dlsym(handle, "dromedary_module_build"));
  auto entry = reinterpret_cast<RegisterFunction>(dlsym(handle, "dromedary_module_register"));
  if (!build || !entry) return moduleError(name, fmt::format("({}) is not a module", path));
  if (build() != kBuildId) {
    return moduleError(name, fmt::format("({}) comes from another build ({}) than this program "
                                         "({}): build both again (cmake --build BUILD_DIR)",
                                         path, build(), kBuildId));
  }
  opened.emplace(name, entry);
  return entry;
}

}  // namespace detail

}  // namespace dromedary::modules
