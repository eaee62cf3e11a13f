// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Camel's REST DSL: HTTP services declared by verb and path, each verb routing to an endpoint.
///
///   builder.restConfiguration().contextPath("/api").port(8080);
///   builder.rest("/users")
///       .get("/{id}").to("direct:getUser")
///       .post().consumes("application/json").to("direct:addUser");
///
/// serves GET /api/users/42 from direct:getUser (header id=42) and POST /api/users from
/// direct:addUser. Each verb becomes a route from a platform-http endpoint (the transport, as
/// in Camel JBang) that sends to its `to` endpoint: the route's result is the response.
/// Link the platform-http component (components/http) for the routes to start.

#include <optional>
#include <string>
#include <vector>

namespace dromedary {

class RouteBuilder;

/// Where and how the REST services are served: Camel's restConfiguration.
class RestConfigurationDefinition {
 public:
  /// The transport: "platform-http" (the default, the only one here).
  RestConfigurationDefinition& component(std::string name);
  /// The HTTP server's address and port (camel.server.host / camel.server.port).
  RestConfigurationDefinition& host(std::string host);
  RestConfigurationDefinition& port(int port);
  /// A path before every service's path ("/api").
  RestConfigurationDefinition& contextPath(std::string path);
  /// "off" (the default): bodies pass as they are. Camel's json/xml bindings to Java classes
  /// do not exist here.
  RestConfigurationDefinition& bindingMode(std::string mode);

  /// What was configured, read when the REST routes are added.
  struct Settings {
    std::string component = "platform-http";
    std::string host;
    std::optional<int> port;
    std::string contextPath;
    std::string bindingMode = "off";
  };
  const Settings& settings() const noexcept { return settings_; }

 private:
  Settings settings_;
};

/// One rest("/path") and its verbs.
class RestDefinition {
 public:
  explicit RestDefinition(RouteBuilder& builder, std::string path)
      : builder_(builder), path_(std::move(path)) {}

  RestDefinition& get(std::string path = {}) { return verb("GET", std::move(path)); }
  RestDefinition& post(std::string path = {}) { return verb("POST", std::move(path)); }
  RestDefinition& put(std::string path = {}) { return verb("PUT", std::move(path)); }
  RestDefinition& patch(std::string path = {}) { return verb("PATCH", std::move(path)); }
  /// Camel's delete() (a C++ keyword).
  RestDefinition& delete_(std::string path = {}) { return verb("DELETE", std::move(path)); }
  RestDefinition& head(std::string path = {}) { return verb("HEAD", std::move(path)); }
  /// A verb by its HTTP method ("GET", "post" ...), under this rest's path.
  RestDefinition& verb(std::string method, std::string path = {});

  /// The endpoint the current verb routes to.
  RestDefinition& to(std::string uri);
  /// The id of the current verb's route (Camel's id/routeId on a verb).
  RestDefinition& id(std::string id);
  RestDefinition& routeId(std::string id) { return this->id(std::move(id)); }
  /// Content types accepted (415 otherwise) and produced (406 when Accept excludes them):
  /// for the current verb, or for every verb when given before the first.
  RestDefinition& consumes(std::string types);
  RestDefinition& produces(std::string types);
  /// Documentation only (Camel uses it for OpenAPI).
  RestDefinition& description(std::string text);
  /// Another rest on the same builder.
  RestDefinition& rest(std::string path = {});

  struct Verb {
    std::string method;
    std::string path;
    std::string to;
    std::string id;
    std::string consumes;
    std::string produces;
  };
  const std::string& path() const noexcept { return path_; }
  const std::vector<Verb>& verbs() const noexcept { return verbs_; }
  const std::string& consumes() const noexcept { return consumes_; }
  const std::string& produces() const noexcept { return produces_; }
  /// The first misuse (an option before any verb that needs one), for the engine to report.
  const std::string& misuse() const noexcept { return misuse_; }

 private:
  Verb* current(const char* option);

  RouteBuilder& builder_;
  std::string path_;
  std::string consumes_;
  std::string produces_;
  std::vector<Verb> verbs_;
  std::string misuse_;
};

/// "/api" + "/users" + "/{id}" as one path: one slash between parts, none doubled or trailing.
std::string joinRestPath(std::string_view contextPath, std::string_view restPath,
                         std::string_view verbPath);

}  // namespace dromedary
