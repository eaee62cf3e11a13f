// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Routes from files: Camel's YAML DSL (.yaml, .yml) and XML DSL (.xml: `<routes>`, `<route>`,
/// or Spring XML's `<camelContext>`), read into the same route model as the C++ DSL.
/// Link `dromedary::dsl` (it brings yaml-cpp and pugixml; the core does not).
///
/// Example:
///   Context context;
///   registerBuiltinComponents(context);
///   auto loaded = loadRoutes(context, {"routes/"});   // *.yaml, *.yml, *.xml, by name
///   if (!loaded) { std::puts(loaded.error().toString().c_str()); return 1; }
///   context.start().value();
///
/// A mistake fails the load with its position, the offending text and a suggestion:
///   unknown step 'setheader' at routes.yaml:7:9; did you mean 'setHeader'?
/// Placeholders `{{key}}` are resolved from the context's properties as the file is read;
/// an `application.properties` beside the route files is loaded first.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>

namespace dromedary {

class Context;

/// A route a load read: how it is known across loads, and a fingerprint of its definition.
struct LoadedRoute {
  /// Its id as written (or as a Kamelet or template made it); for a route without one,
  /// "FILE#N": the N-th such route of FILE.
  std::string key;
  /// The id it got in the context; empty when LoadOptions::include left it out.
  std::string id;
  /// Changes when anything that makes the route changes: steps, options, values with their
  /// {{placeholders}} resolved, the load's route configurations and beans; not positions.
  uint64_t fingerprint = 0;
};

struct LoadReport {
  std::vector<std::string> files;  ///< route files read, in order
  size_t routes = 0;               ///< routes added
  std::vector<std::string> notes;  ///< properties files loaded, XML elements skipped
  std::vector<LoadedRoute> loaded;  ///< every route read, added or not, in order
};

/// How to load: what `dromedary run --dev` changes when it reloads edited files.
struct LoadOptions {
  /// Which of the routes read are added (every one when empty); the others are read and
  /// checked but left out.
  std::function<bool(const LoadedRoute&)> include;
  /// The files are those the context's routes were loaded from, read again: a route template
  /// replaces the one of the same id, and ids made for Kamelet instances are made as in the
  /// first load (not around the context's routes), so unchanged routes keep their keys.
  bool reload = false;
};

/// Loads route files and directories (a directory's *.yaml, *.yml and *.xml that hold Camel
/// routes, as Camel JBang picks them; the others are noted as skipped), all or
/// nothing: on an error no route of these files is added.
Result<LoadReport> loadRoutes(Context& context, const std::vector<std::string>& paths,
                              const LoadOptions& options = {});

/// Loads routes from text in Camel's YAML DSL; `name` is the file name errors show.
Result<LoadReport> loadYamlRoutes(Context& context, std::string_view text,
                                  const std::string& name);
/// Loads routes from text in Camel's XML DSL (or Spring XML); `name` as above.
Result<LoadReport> loadXmlRoutes(Context& context, std::string_view text,
                                 const std::string& name);

/// The EIPs route files may use: each one's key and a line saying what it does, in the
/// reference's order.
std::vector<std::pair<std::string, std::string>> eipSummaries();

/// The reference of every EIP route files may use, in Markdown (docs/eip-reference.md): keys,
/// aliases, attributes with type, default and description. Printed from the EIPs' schemas.
std::string eipReference();

/// One EIP's reference, by its key or one of Camel's aliases for it ("set-header"); an error
/// naming the closest key when none has that name.
Result<std::string> eipReference(std::string_view name);

}  // namespace dromedary
