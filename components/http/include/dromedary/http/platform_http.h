// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The platform-http component: routes that serve HTTP, as Camel's platform-http (what Camel
/// JBang and Camel's REST DSL use). `from("platform-http:/hello/{name}?httpMethodRestrict=GET")`
/// serves GET /hello/bob: the request becomes an InOut exchange (headers, query and path
/// parameters as headers, the body as text) and the route's result is the response.
/// docs/http.md has the options and the header mapping.
///
/// One embedded HTTP/1.1 server (Boost.Beast) per context serves every platform-http route:
/// it listens from the first route's start to the context's end, on the host and port of
/// Camel's `camel.server.*` properties, read when the first endpoint is created:
///   camel.server.host=0.0.0.0        (default, as Camel's)
///   camel.server.port=8080           (0: any free port; see platformHttpPort)
///   camel.server.maxBodySize=10485760  (bytes; a larger request gets 413)
/// or in C++, before routes are added:
///   PlatformHttpConfig config;
///   config.port = 0;
///   registerPlatformHttpComponent(context, config);

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dromedary {

class Context;

struct PlatformHttpConfig {
  std::string host = "0.0.0.0";
  uint16_t port = 8080;
  size_t maxBodySize = 10 * 1024 * 1024;
};

/// Registers the platform-http component. Without `config`, the settings come from the
/// context's `camel.server.*` properties (defaults above).
void registerPlatformHttpComponent(Context& context,
                                   std::optional<PlatformHttpConfig> config = std::nullopt);

/// The port the context's HTTP server listens on: 0 until a platform-http route started.
uint16_t platformHttpPort(Context& context);

}  // namespace dromedary
