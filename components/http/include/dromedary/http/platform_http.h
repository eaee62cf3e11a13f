// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The platform-http component: routes that serve HTTP, as Camel's platform-http (what Camel
/// JBang and Camel's REST DSL use). `from("platform-http:/hello/{name}?httpMethodRestrict=GET")`
/// serves GET /hello/bob: the request becomes an InOut exchange (headers, query and path
/// parameters as headers, the body as text) and the route's result is the response.
/// docs/http.md has the options and the header mapping.
///
/// One embedded HTTP/1.1 server (dromedary/support/http_server.h) per context serves every
/// platform-http route: it listens from the first route's start to the context's end, on the
/// host and port of Camel's `camel.server.*` properties, read when the first endpoint is
/// created:
///   camel.server.host=0.0.0.0        (default, as Camel's: every interface; 127.0.0.1 keeps
///                                     the server to this machine)
///   camel.server.port=8080           (0: any free port; see platformHttpPort)
///   camel.server.maxBodySize=10485760  (bytes; a larger request gets 413)
/// and the bounds Dromedary adds (support::HttpServerLimits has their defaults):
///   dromedary.server.maxHeaderSize=8192           (request line, headers, trailers; 431)
///   dromedary.server.maxConnections=512           (one more gets 503 and is closed)
///   dromedary.server.maxInflightBodySize=67108864 (every request's body together; 503)
/// or in C++, before routes are added:
///   PlatformHttpConfig config;
///   config.port = 0;
///   registerPlatformHttpComponent(context, config);

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <dromedary/support/http_server.h>

namespace dromedary {

class Context;

struct PlatformHttpConfig {
  std::string host = "0.0.0.0";
  uint16_t port = 8080;
  support::HttpServerLimits limits;
  /// The server's I/O threads (dromedary.server.ioThreads); see HttpServerOptions::ioThreads.
  unsigned ioThreads = 1;
  /// Static files (camel.server.staticEnabled, staticSourceDir, staticContextPath): GET and
  /// HEAD of a path no route serves are answered from this folder (the working directory
  /// when empty), which the paths cannot leave. Files up to limits.maxBodyBytes.
  bool staticEnabled = false;
  std::string staticSourceDir;
  std::string staticContextPath = "/";
};

/// Registers the platform-http component. Without `config`, the settings come from the
/// context's `camel.server.*` properties (defaults above).
void registerPlatformHttpComponent(Context& context,
                                   std::optional<PlatformHttpConfig> config = std::nullopt);

/// The port the context's HTTP server listens on: 0 until a platform-http route started.
uint16_t platformHttpPort(Context& context);

/// What the context's HTTP server has served and refused (connections accepted, open ...):
/// all zero until a platform-http route started.
support::HttpServerCounters platformHttpCounters(Context& context);

}  // namespace dromedary
