// SPDX-License-Identifier: Apache-2.0
// Whole-file YAML resources as Camel K and Camel JBang write them:
//
//   kind: Kamelet                      a route template with a typed parameter schema
//   metadata: {name: greet-source, labels: {camel.apache.org/kamelet.type: source}}
//   spec:
//     definition: {required: [message], properties: {message: {type: string}}}
//     template: {from: {uri: "timer:tick", steps: [...]}}
//
//   kind: Pipe                         (or the older KameletBinding) a route from a source
//   metadata: {name: hello}            through steps to a sink, each a Kamelet or a URI
//   spec: {source: {ref: {kind: Kamelet, name: timer-source}, properties: {...}},
//          steps: [...], sink: {uri: "log:out"}, errorHandler: {sink: {endpoint: ...}}}
//
// Every key is checked: what Dromedary cannot honour is refused by name, where it is.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include <dromedary/core/uri.h>

#include "dsl/yaml/yaml_reader.h"

namespace dromedary::dsl {

namespace {

using Keys = std::vector<std::string_view>;

class ResourceReader {
 public:
  ResourceReader(YamlRouteReader& reader, FileSources& out) : r_(reader), out_(out) {}

  Result<void> read(const YAML::Node& root) {
    DROMEDARY_TRY(kind, r_.scalar(root["kind"], "kind"));
    DROMEDARY_TRY_VOID(checkKeys(root, "the resource", {"apiVersion", "kind", "metadata", "spec"}));
    if (kind.value == "Kamelet") return kamelet(root);
    if (kind.value == "Pipe" || kind.value == "KameletBinding") return pipe(root, kind.value);
    if (kind.value == "Integration") {
      return fileError(kind.where, "a Camel K Integration resource is not read here",
                       "put its flows in a route file of their own");
    }
    return fileError(kind.where, fmt::format("unknown resource kind '{}'", kind.value),
                     suggestion(kind.value, {"Kamelet", "Pipe", "KameletBinding"}));
  }

 private:
  // --- Kamelet -----------------------------------------------------------------------------

  Result<void> kamelet(const YAML::Node& root) {
    KameletSource k;
    k.where = r_.at(root);
    DROMEDARY_TRY(name, metadataName(root));
    k.name = std::move(name);
    if (const YAML::Node labels = root["metadata"]["labels"]) {
      if (const YAML::Node type = labels["camel.apache.org/kamelet.type"]) {
        DROMEDARY_TRY(t, r_.scalar(type, "camel.apache.org/kamelet.type"));
        if (t.value != "source" && t.value != "action" && t.value != "sink") {
          return fileError(t.where, fmt::format("kamelet.type must be source, action or sink, "
                                                "not '{}'",
                                                t.value));
        }
        k.type = t.value;
      }
    }
    const YAML::Node spec = root["spec"];
    DROMEDARY_TRY_VOID(requireMap(spec, root, "spec"));
    DROMEDARY_TRY_VOID(checkKeys(spec, "a Kamelet's spec",
                                 {"definition", "dependencies", "template", "flow", "types",
                                  "dataTypes"}));
    if (const YAML::Node definition = spec["definition"]) {
      DROMEDARY_TRY_VOID(kameletDefinition(definition, k));
    }
    if (const YAML::Node deps = spec["dependencies"]) {
      if (!deps.IsSequence()) return fileError(r_.at(deps), "dependencies must be a list");
      for (const YAML::Node& d : deps) {
        DROMEDARY_TRY(dep, r_.scalar(d, "dependencies"));
        k.dependencies.push_back(std::move(dep));
      }
    }
    YAML::Node tmpl = spec["template"];
    if (!tmpl) tmpl = spec["flow"];  // the name before Camel 3.17
    if (!tmpl) return fileError(r_.at(spec), fmt::format("Kamelet '{}' has no spec.template", k.name.value));
    if (!tmpl.IsMap()) return fileError(r_.at(tmpl), "a Kamelet's template must be a map with from");
    DROMEDARY_TRY_VOID(checkKeys(tmpl, "a Kamelet's template", {"from", "beans"}));
    if (!tmpl["from"]) return fileError(r_.at(tmpl), "a Kamelet's template needs 'from'");
    k.route.where = r_.at(tmpl);
    DROMEDARY_TRY_VOID(r_.from(tmpl["from"], k.route));
    if (const YAML::Node beans = tmpl["beans"]) DROMEDARY_TRY_VOID(r_.beans(beans, k.beans));
    out_.kamelets.push_back(std::move(k));
    return {};
  }

  Result<void> kameletDefinition(const YAML::Node& definition, KameletSource& k) {
    if (!definition.IsMap()) return fileError(r_.at(definition), "definition must be a map");
    DROMEDARY_TRY_VOID(checkKeys(definition, "a Kamelet's definition",
                                 {"title", "description", "type", "required", "properties"}));
    if (const YAML::Node t = definition["title"]) k.title = t.Scalar();
    if (const YAML::Node d = definition["description"]) k.description = d.Scalar();
    if (const YAML::Node properties = definition["properties"]) {
      if (!properties.IsMap()) return fileError(r_.at(properties), "properties must be a map");
      for (const auto& kv : properties) {
        DROMEDARY_TRY_VOID(kameletProperty(kv.first, kv.second, k));
      }
    }
    if (const YAML::Node required = definition["required"]) {
      if (!required.IsSequence()) return fileError(r_.at(required), "required must be a list");
      for (const YAML::Node& item : required) {
        DROMEDARY_TRY(name, r_.scalar(item, "required"));
        auto it = std::find_if(k.properties.begin(), k.properties.end(),
                               [&](const KameletPropertySource& p) { return p.name.value == name.value; });
        // Camel marks only the properties it has as required; a name it lacks is ignored.
        if (it == k.properties.end()) continue;
        it->required = true;
      }
    }
    return {};
  }

  Result<void> kameletProperty(const YAML::Node& key, const YAML::Node& node, KameletSource& k) {
    KameletPropertySource p;
    DROMEDARY_TRY(name, r_.scalar(key, "a property's name"));
    p.name = std::move(name);
    if (node.IsNull()) {
      k.properties.push_back(std::move(p));
      return {};
    }
    if (!node.IsMap()) return fileError(r_.at(node), fmt::format("property '{}' must be a map", p.name.value));
    DROMEDARY_TRY_VOID(checkKeys(node, fmt::format("property '{}'", p.name.value),
                                 {"title", "description", "type", "default", "example", "format",
                                  "enum", "pattern", "x-descriptors", "minimum", "maximum",
                                  "nullable"}));
    for (const auto& kv : node) {
      const std::string k2 = kv.first.as<std::string>();
      if (k2 == "enum") {
        if (!kv.second.IsSequence()) return fileError(r_.at(kv.second), "enum must be a list");
        for (const YAML::Node& v : kv.second) p.allowed.push_back(v.Scalar());
        continue;
      }
      if (k2 == "x-descriptors") continue;  // OpenShift console hints
      DROMEDARY_TRY(value, r_.scalar(kv.second, k2));
      if (k2 == "title") p.title = value.value;
      if (k2 == "description") p.description = value.value;
      if (k2 == "type") p.type = value.value;
      if (k2 == "default") p.defaultValue = value;
      if (k2 == "format") p.format = value.value;
      if (k2 == "example") p.example = value.value;
    }
    k.properties.push_back(std::move(p));
    return {};
  }

  // --- Pipe ----------------------------------------------------------------------------------

  Result<void> pipe(const YAML::Node& root, const std::string& kind) {
    RouteSource route;
    route.where = r_.at(root);
    DROMEDARY_TRY(name, metadataName(root));
    route.attributes.emplace_back("id", name);
    const YAML::Node spec = root["spec"];
    DROMEDARY_TRY_VOID(requireMap(spec, root, "spec"));
    DROMEDARY_TRY_VOID(checkKeys(spec, fmt::format("a {}'s spec", kind),
                                 {"source", "steps", "sink", "errorHandler", "integration",
                                  "replicas"}));
    if (const YAML::Node integration = spec["integration"]) {
      return fileError(r_.at(integration), "spec.integration (Camel K's Integration settings) is "
                                           "not read here");
    }
    if (!spec["source"]) return fileError(r_.at(spec), fmt::format("a {} needs spec.source", kind));
    if (!spec["sink"]) return fileError(r_.at(spec), fmt::format("a {} needs spec.sink", kind));
    DROMEDARY_TRY(source, endpoint(spec["source"], "source"));
    route.from = std::move(source.uri);
    route.parameters = std::move(source.properties);
    if (const YAML::Node steps = spec["steps"]) {
      if (!steps.IsSequence()) return fileError(r_.at(steps), "steps must be a list");
      for (const YAML::Node& item : steps) {
        DROMEDARY_TRY(step, endpoint(item, "step"));
        route.steps.push_back(toStep(std::move(step), r_.at(item)));
      }
    }
    DROMEDARY_TRY(sink, endpoint(spec["sink"], "sink"));
    route.steps.push_back(toStep(std::move(sink), r_.at(spec["sink"])));
    if (const YAML::Node handler = spec["errorHandler"]) {
      DROMEDARY_TRY_VOID(pipeErrorHandler(handler, route, name.value));
    }
    out_.routes.push_back(std::move(route));
    return {};
  }

  struct EndpointRef {
    Scalar uri;
    std::vector<std::pair<std::string, Scalar>> properties;
  };

  // {ref: {kind: Kamelet, name: x}, properties: {...}} or {uri: "log:x", properties: {...}}
  Result<EndpointRef> endpoint(const YAML::Node& node, std::string_view what) {
    if (!node.IsMap()) return fileError(r_.at(node), fmt::format("a {} must be a map with ref or uri", what));
    DROMEDARY_TRY_VOID(checkKeys(node, fmt::format("a {}", what),
                                 {"ref", "uri", "properties", "dataTypes", "types"}));
    for (std::string_view unsupported : {"dataTypes", "types"}) {
      if (const YAML::Node d = node[std::string(unsupported)]) {
        return fileError(r_.at(d), fmt::format("{} (Camel's data type transformers) are not "
                                               "supported here",
                                               unsupported),
                         "convert the body with a step (convertBodyTo, marshal) instead");
      }
    }
    EndpointRef out;
    const YAML::Node ref = node["ref"];
    const YAML::Node uri = node["uri"];
    if (ref && uri) return fileError(r_.at(uri), fmt::format("a {} has a ref or a uri, not both", what));
    if (uri) {
      DROMEDARY_TRY(u, r_.scalar(uri, "uri"));
      out.uri = std::move(u);
    } else if (ref) {
      if (!ref.IsMap()) return fileError(r_.at(ref), "ref must be a map with kind and name");
      DROMEDARY_TRY_VOID(checkKeys(ref, "ref", {"kind", "apiVersion", "name", "namespace"}));
      DROMEDARY_TRY(name, required(ref, "name", "ref"));
      DROMEDARY_TRY(kind, required(ref, "kind", "ref"));
      if (kind.value == "Kamelet") {
        out.uri = Scalar{"kamelet:" + name.value, name.where};
      } else if (kind.value == "KafkaTopic") {  // Strimzi's topic: Camel reads it as kafka:NAME
        out.uri = Scalar{"kafka:" + name.value, name.where};
      } else {
        return fileError(kind.where,
                         fmt::format("a ref to a {} (a Kubernetes resource) cannot be reached "
                                     "here",
                                     kind.value),
                         "refer to a Kamelet, or give the endpoint's uri");
      }
    } else {
      return fileError(r_.at(node), fmt::format("a {} needs ref or uri", what));
    }
    if (const YAML::Node properties = node["properties"]) {
      if (!properties.IsMap()) return fileError(r_.at(properties), "properties must be a map");
      for (const auto& kv : properties) {
        std::string key = kv.first.as<std::string>();
        DROMEDARY_TRY(value, r_.scalar(kv.second, key));
        out.properties.emplace_back(std::move(key), std::move(value));
      }
    }
    return out;
  }

  static StepSource toStep(EndpointRef ref, const SourceRef& where) {
    StepSource s;
    s.kind = "to";
    s.where = where;
    s.attributes.emplace_back("uri", std::move(ref.uri));
    s.parameters = std::move(ref.properties);
    return s;
  }

  // errorHandler: {sink: {endpoint: {...}, parameters: {...}}} | {log: {parameters: {...}}} |
  // {none: {}}: a routeConfiguration of the Pipe's own, named by its route.
  Result<void> pipeErrorHandler(const YAML::Node& node, RouteSource& route, const std::string& name) {
    if (!node.IsMap() || node.size() != 1) {
      return fileError(r_.at(node), "errorHandler must be a map with one of sink, log or none");
    }
    auto entry = *node.begin();
    const std::string kind = entry.first.as<std::string>();
    const YAML::Node body = entry.second;
    StepSource h;
    h.where = r_.at(entry.first);
    if (kind == "sink") {
      h.kind = "deadLetterChannel";
      if (!body.IsMap() || !body["endpoint"]) {
        return fileError(r_.at(body), "a sink error handler needs 'endpoint'");
      }
      DROMEDARY_TRY_VOID(checkKeys(body, "the sink error handler", {"endpoint", "parameters"}));
      DROMEDARY_TRY(dead, endpoint(body["endpoint"], "dead letter endpoint"));
      std::string uri = dead.uri.value;
      char separator = uri.find('?') == std::string::npos ? '?' : '&';
      for (const auto& [key, value] : dead.properties) {
        uri += fmt::format("{}{}={}", separator, key, encodeUriComponent(value.value));
        separator = '&';
      }
      h.attributes.emplace_back("deadLetterUri", Scalar{uri, dead.uri.where});
    } else if (kind == "log") {
      h.kind = "defaultErrorHandler";
      if (body.IsMap()) DROMEDARY_TRY_VOID(checkKeys(body, "the log error handler", {"parameters"}));
    } else if (kind == "none") {
      h.kind = "noErrorHandler";
    } else {
      return fileError(h.where, fmt::format("unknown Pipe error handler '{}'", kind),
                       suggestion(kind, {"sink", "log", "none"}));
    }
    if (body.IsMap()) {
      if (const YAML::Node parameters = body["parameters"]) {
        if (kind == "none") return fileError(r_.at(parameters), "the none error handler takes no parameters");
        if (!parameters.IsMap()) return fileError(r_.at(parameters), "parameters must be a map");
        // Camel binds them to the error handler by name: its own options and the redelivery
        // policy's, which the translator checks.
        static const Keys kOwn = {"useOriginalMessage", "useOriginalBody",
                                  "deadLetterHandleNewException", "onRedeliveryRef"};
        for (const auto& kv : parameters) {
          std::string key = kv.first.as<std::string>();
          DROMEDARY_TRY(value, r_.scalar(kv.second, key));
          value.where = r_.at(kv.first);
          auto& target = std::find(kOwn.begin(), kOwn.end(), key) != kOwn.end() ? h.attributes
                                                                                 : h.policy.vector();
          target.emplace_back(std::move(key), std::move(value));
        }
      }
    }
    RouteConfigurationSource config;
    config.where = h.where;
    config.id = Scalar{fmt::format("{}-error-handler", name), h.where};
    config.errorHandler.push_back(std::move(h));
    route.attributes.emplace_back("routeConfigurationId", *config.id);
    out_.configurations.push_back(std::move(config));
    return {};
  }

  // --- helpers -------------------------------------------------------------------------------

  // The resource's metadata.name, its metadata's keys checked.
  Result<Scalar> metadataName(const YAML::Node& root) {
    const YAML::Node metadata = root["metadata"];
    DROMEDARY_TRY_VOID(requireMap(metadata, root, "metadata"));
    DROMEDARY_TRY_VOID(checkKeys(metadata, "metadata", {"name", "labels", "annotations", "namespace"}));
    return required(metadata, "name", "metadata");
  }

  Result<void> checkKeys(const YAML::Node& node, std::string_view where_in, const Keys& known) {
    if (!node.IsMap()) return {};
    for (const auto& kv : node) {
      const std::string key = kv.first.as<std::string>();
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      return fileError(r_.at(kv.first), fmt::format("unknown key '{}' in {}", key, where_in),
                       suggestion(key, known));
    }
    return {};
  }

  Result<void> requireMap(const YAML::Node& node, const YAML::Node& parent, std::string_view key) {
    if (!node) return fileError(r_.at(parent), fmt::format("the resource needs '{}'", key));
    if (!node.IsMap()) return fileError(r_.at(node), fmt::format("{} must be a map", key));
    return {};
  }

  Result<Scalar> required(const YAML::Node& node, const char* key, std::string_view in) {
    const YAML::Node value = node[key];
    if (!value) return fileError(r_.at(node), fmt::format("{} needs '{}'", in, key));
    return r_.scalar(value, key);
  }

  YamlRouteReader& r_;
  FileSources& out_;
};

}  // namespace

Result<void> readYamlResource(const YAML::Node& root, YamlRouteReader& reader, FileSources& out) {
  return ResourceReader(reader, out).read(root);
}

}  // namespace dromedary::dsl
