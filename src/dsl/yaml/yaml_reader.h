// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the readers of whole-file resources (yaml_resources.cc: Kamelet, Pipe, KameletBinding)
// and of the REST DSL (yaml_rest.cc) use of the route reader (yaml_routes.cc), so that a
// Kamelet's template and a route read their `from`, steps and beans the same way.

#include <dromedary/core/result.h>
#include <yaml-cpp/yaml.h>

#include <string_view>
#include <vector>

#include "dsl/file_source.h"

namespace dromedary::dsl {

class YamlRouteReader {
 public:
  virtual ~YamlRouteReader() = default;
  virtual SourceRef at(const YAML::Node& node) const = 0;
  /// `node` as one value; an error names `key` when it is a map, a list or null.
  virtual Result<Scalar> scalar(const YAML::Node& node, std::string_view key) const = 0;
  /// A `from:` (uri, parameters, steps) into `route`.
  virtual Result<void> from(const YAML::Node& node, RouteSource& route) = 0;
  /// A step's body (what follows its name) into `s`, whose kind and place are set.
  virtual Result<void> step(const YAML::Node& node, StepSource& s) = 0;
  /// A `beans:` list into `out`.
  virtual Result<void> beans(const YAML::Node& node, std::vector<BeanSource>& out) = 0;
};

/// Reads a file whose root is a Kubernetes-style resource (`kind: Kamelet`, `kind: Pipe`,
/// `kind: KameletBinding`) into `out`: a Kamelet into out.kamelets, a Pipe into a route (and
/// its error handler into a routeConfiguration of its own).
Result<void> readYamlResource(const YAML::Node& root, YamlRouteReader& reader, FileSources& out);

/// A `rest:` entry (yaml_rest.cc) into out.rests; `key` is where it is named.
Result<void> readYamlRest(const YAML::Node& key, const YAML::Node& node, YamlRouteReader& reader,
                          FileSources& out);

/// A `restConfiguration:` entry into out.restConfigurations.
Result<void> readYamlRestConfiguration(const YAML::Node& key, const YAML::Node& node,
                                       YamlRouteReader& reader, FileSources& out);

}  // namespace dromedary::dsl
