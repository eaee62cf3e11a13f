// SPDX-License-Identifier: Apache-2.0
// The REST DSL in a YAML route file: `rest:` entries with their verbs, and `restConfiguration:`.
#include <fmt/format.h>

#include <string>

#include "dsl/yaml/yaml_reader.h"

namespace dromedary::dsl {

namespace {

class RestReader {
 public:
  RestReader(YamlRouteReader& reader, FileSources& out) : r_(reader), out_(out) {}

  // - rest:
  //     path: /users
  //     get:
  //       - path: /{id}
  //         to: direct:getUser
  //     post:
  //       - to: {uri: direct:addUser}
  Result<void> rest(const YAML::Node& key, const YAML::Node& node) {
    RestSource r;
    r.where = at(key);
    if (!node.IsMap()) return fileError(at(node), "rest must be a map with path and verbs");
    for (const auto& kv : node) {
      std::string k = kv.first.as<std::string>();
      if (isRestVerb(k)) {
        if (kv.second.IsMap()) {
          DROMEDARY_TRY_VOID(restVerb(k, kv.first, kv.second, r));
        } else if (kv.second.IsSequence()) {
          for (const YAML::Node& item : kv.second) DROMEDARY_TRY_VOID(restVerb(k, item, item, r));
        } else {
          return fileError(at(kv.second), fmt::format("{} must be a list of verbs", k),
                           "e.g. '- path: /{id}' with 'to: direct:name'");
        }
      } else if (k == "openApi") {
        // Camel 4's contract-first REST: services made from an OpenAPI document.
        if (!kv.second.IsMap()) {
          return fileError(at(kv.second), "openApi must be a map",
                           "e.g. 'openApi: {specification: petstore.json}'");
        }
        RestOpenApiSource o;
        o.where = at(kv.first);
        for (const auto& option : kv.second) {
          std::string name = option.first.as<std::string>();
          DROMEDARY_TRY(value, scalar(option.second, name));
          value.where = at(option.first);
          o.attributes.emplace_back(std::move(name), std::move(value));
        }
        r.openApi = std::move(o);
      } else {
        DROMEDARY_TRY(value, scalar(kv.second, k));
        value.where = at(kv.first);
        r.attributes.emplace_back(std::move(k), std::move(value));
      }
    }
    out_.rests.push_back(std::move(r));
    return {};
  }

  static bool isRestVerb(std::string_view k) {
    return k == "get" || k == "post" || k == "put" || k == "patch" || k == "delete" || k == "head";
  }

  Result<void> restVerb(const std::string& method, const YAML::Node& where, const YAML::Node& node,
                        RestSource& rest) {
    if (!node.IsMap()) {
      return fileError(at(node), fmt::format("a {} must be a map with path and to", method));
    }
    RestVerbSource v;
    v.method = method;
    v.where = at(where);
    for (const auto& kv : node) {
      std::string k = kv.first.as<std::string>();
      if (k == "to" || k == "toD") {
        if (!v.to.empty()) return fileError(at(kv.first), fmt::format("a {} has one to", method));
        StepSource s;
        s.kind = k;
        s.where = at(kv.first);
        DROMEDARY_TRY_VOID(r_.step(kv.second, s));
        v.to.push_back(std::move(s));
      } else if (k == "param") {
        if (!kv.second.IsSequence()) return fileError(at(kv.second), "param must be a list");
        for (const YAML::Node& p : kv.second) {
          v.params.push_back(at(p));
          if (p.IsMap() && p["defaultValue"] && !v.paramDefault) {
            DROMEDARY_TRY(d, scalar(p["defaultValue"], "defaultValue"));
            v.paramDefault = std::move(d);
          }
        }
      } else if (k == "responseMessage" || k == "security") {
        // Documentation for OpenAPI: nothing to serve.
      } else {
        DROMEDARY_TRY(value, scalar(kv.second, k));
        value.where = at(kv.first);
        v.attributes.emplace_back(std::move(k), std::move(value));
      }
    }
    rest.verbs.push_back(std::move(v));
    return {};
  }

 private:
  SourceRef at(const YAML::Node& node) const { return r_.at(node); }
  Result<Scalar> scalar(const YAML::Node& node, std::string_view key) const {
    return r_.scalar(node, key);
  }

  YamlRouteReader& r_;
  FileSources& out_;
};

}  // namespace

Result<void> readYamlRest(const YAML::Node& key, const YAML::Node& node, YamlRouteReader& reader,
                          FileSources& out) {
  return RestReader(reader, out).rest(key, node);
}

Result<void> readYamlRestConfiguration(const YAML::Node& key, const YAML::Node& node,
                                       YamlRouteReader& reader, FileSources& out) {
  RestConfigurationSource c;
  c.where = reader.at(key);
  if (!node.IsMap()) {
    return fileError(reader.at(node), "restConfiguration must be a map of its options");
  }
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    DROMEDARY_TRY(value, reader.scalar(kv.second, k));
    c.attributes.emplace_back(std::move(k), std::move(value));
  }
  out.restConfigurations.push_back(std::move(c));
  return {};
}

}  // namespace dromedary::dsl
