// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The management server: statistics and route control over HTTP (docs/management.md).
///
///   GET  /metrics                    Prometheus text exposition
///   GET  /api/context                the context: name, version, uptime, totals
///   GET  /api/routes                 every route with its statistics
///   GET  /api/routes/{id}            one route with its processor tree
///   GET  /api/endpoints              the endpoints in use
///   GET  /api/health                 200 UP when every auto-started route runs, else 503
///   POST /api/routes/{id}/start|stop|suspend|resume|reset-stats
///
/// Control (POST) is refused unless a token is configured and sent as
/// `Authorization: Bearer <token>`, or the server listens on loopback and
/// `allowLoopbackControl` is on. It binds to 127.0.0.1 unless told otherwise.
///
/// Example:
///   ManagementServer server(context, {.port = 8080});
///   server.start().value();   // serves on its own thread until stop() or destruction

#include <cstdint>
#include <memory>
#include <string>

#include <dromedary/core/result.h>

namespace dromedary {

class Context;

struct ManagementOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  ///< 0: any free port (see ManagementServer::port())
  std::string token;  ///< required as a Bearer token for POST when not empty
  bool allowLoopbackControl = false;  ///< POST without a token when bound to loopback
  size_t maxRequestBytes = 16 * 1024;  ///< a request's body; more gets 413
  /// Open connections; one more is answered 503 and closed. With the header limit (8 KiB)
  /// and maxRequestBytes, this bounds what clients can make the server hold.
  size_t maxConnections = 64;
};

/// One request, as the server hands it to the API (and tests can, without a socket).
struct ManagementRequest {
  std::string method;  ///< GET, POST ...
  std::string target;  ///< path and query
  std::string authorization;  ///< the Authorization header, or empty
};

struct ManagementResponse {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
};

/// Answers one request (what the server runs per request).
ManagementResponse handleManagementRequest(Context& context, const ManagementOptions& options,
                                           const ManagementRequest& request);

/// The Prometheus text exposition of the context's statistics.
std::string prometheusMetrics(Context& context);

class ManagementServer {
 public:
  ManagementServer(Context& context, ManagementOptions options);
  ~ManagementServer();
  ManagementServer(const ManagementServer&) = delete;
  ManagementServer& operator=(const ManagementServer&) = delete;

  /// Binds and starts serving on a thread of its own; fails naming the address.
  Result<void> start();
  /// The port it listens on (after start()).
  uint16_t port() const noexcept;
  void stop() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dromedary
