// SPDX-License-Identifier: Apache-2.0
#pragma once

// The platform-http component's side of the context's one embedded HTTP server
// (dromedary/support/http_server.h): the bindings of the started routes, and the routing of
// each request to the binding serving its path and method (404 and 405 answered here).

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/engine/context.h>
#include <dromedary/http/platform_http.h>
#include <dromedary/support/http_server.h>

#include "path_template.h"
#include "static_files.h"

namespace dromedary::component::http {

using Request = support::HttpRequest;
using Response = support::HttpResponse;
using support::bsv;
using support::sv;
using support::textResponse;
using PathParameters = std::vector<std::pair<std::string, std::string>>;

/// What serves the requests of one binding (a platform-http consumer).
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  /// On the server's I/O thread: must not block. `call` stays valid until its respond();
  /// `params` are the path's parameters, for the duration of the call to handle().
  virtual void handle(support::HttpServerCall& call, const PathParameters& params) noexcept = 0;
};

/// A path and methods served by a handler.
struct HttpBinding {
  PathTemplate path;
  bool prefix = false;               ///< matchOnUriPrefix
  std::vector<std::string> methods;  ///< upper case; empty: every method
  std::string owner;                 ///< the endpoint URI, for messages
  std::shared_ptr<HttpHandler> handler;

  bool allows(std::string_view method) const noexcept;
};

class HttpRouter final : public support::HttpRequestHandler {
 public:
  /// `context` runs the reads of static files (on its workers, never the I/O thread).
  HttpRouter(PlatformHttpConfig config, StaticFiles static_files, Context& context);
  ~HttpRouter() override;

  /// Binds `binding`, starting the server on the first call. Fails when the port cannot be
  /// bound, or another binding already serves the same path for one of the same methods.
  Result<void> add(std::shared_ptr<HttpBinding> binding);
  /// Unbinds it: its requests get 404 from now on; calls already handed to it complete.
  void remove(const HttpBinding* binding) noexcept;
  /// The port listened on; 0 before the first add.
  uint16_t port() const noexcept;
  support::HttpServerCounters counters() const noexcept;

  // support::HttpRequestHandler
  void handle(support::HttpServerCall& call) noexcept override;

 private:
  // The binding serving `method` on `path`, best match first: fewer parameters, then exact
  // before prefix. `allow` gets the methods bound to the path when none serves `method`.
  std::shared_ptr<HttpBinding> find(std::string_view method, std::string_view path,
                                    PathParameters& params, std::string& allow);

  // A static file for `call` (GET or HEAD of a path no route serves), read on a worker.
  void serveStatic(support::HttpServerCall& call, std::string path) noexcept;

  PlatformHttpConfig config_;
  StaticFiles static_;
  Context& context_;
  mutable std::mutex mutex_;  // bindings_ and server_; taken per request, briefly
  std::vector<std::shared_ptr<HttpBinding>> bindings_;
  // Created on the first add; it refers to this router, which it never outlives.
  std::unique_ptr<support::EmbeddedHttpServer> server_;
};

}  // namespace dromedary::component::http
