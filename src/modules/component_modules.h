// SPDX-License-Identifier: Apache-2.0
#pragma once

// Components built as loadable modules (dromedary-NAME.so, docs/modules.md): the program
// registers a stand-in for each scheme and bean type a module provides, and loads the module
// into the process the first time a route uses one of them, so that a process whose routes
// never call out over HTTP, Kafka, AMQP or SQL does not map libcurl, librdkafka, Proton or
// libpq (~9 MB of resident memory). Once loaded, the stand-in hands every call to the
// module's component: endpoints are the module's own, and nothing changes per message.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/engine/context.h>

namespace dromedary::modules {

/// What a module provides, as its component's CMake declaration says
/// (dromedary_add_component ... MODULE SCHEMES ... BEAN_TYPES ...).
struct ComponentModuleSpec {
  std::string_view name;  ///< "kafka": the file is dromedary-kafka.so
  std::span<const std::string_view> schemes;
  std::span<const std::string_view> beanTypes;
};

/// The modules this build has, in the order they were declared.
std::span<const ComponentModuleSpec> builtinModules();

/// Registers stand-ins for `spec`'s schemes and bean types in `context`.
void addComponentModule(Context& context, const ComponentModuleSpec& spec);

/// Loads the module behind `component` now, if it is a stand-in that has not loaded yet: an
/// error says which module could not be loaded, why, and where it was looked for. Ok for any
/// other component.
Result<void> loadModuleOf(Component& component);

/// The folders modules are looked for in: those of $DROMEDARY_MODULE_PATH (separated by ':'),
/// then the program's own (BIN/../LIBDIR/dromedary).
std::vector<std::string> moduleFolders();

/// The file of the module `name` in the first of moduleFolders() that has it (not loaded);
/// empty when none has.
std::string findModuleFile(std::string_view name);

}  // namespace dromedary::modules
