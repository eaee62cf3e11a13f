// SPDX-License-Identifier: Apache-2.0
// The management HTTP server: the embedded HTTP server (dromedary/support/http_server.h) with
// one request per connection, a 10 s deadline and small bounds; each request goes to
// handleManagementRequest, one at a time, on the server's I/O thread.
#include <fmt/format.h>

#include <mutex>

#include <dromedary/management/management_server.h>
#include <dromedary/support/http_server.h>

#include "management/management_json.h"
#include "management/route_control.h"

namespace dromedary {

namespace bhttp = boost::beast::http;

namespace {

support::HttpResponse jsonError(unsigned status, unsigned version, std::string_view text) {
  support::HttpResponse r{static_cast<bhttp::status>(status), version};
  r.set(bhttp::field::content_type, "application/json");
  r.body() = managementErrorBody(static_cast<int>(status), text);
  return r;
}

class ManagementHandler final : public support::HttpRequestHandler {
 public:
  ManagementHandler(Context& context, const ManagementOptions& options)
      : context_(context), options_(options), background_(context) {}

  void handle(support::HttpServerCall& call) noexcept override {
    const support::HttpRequest& req = call.request();
    ManagementResponse response;
    try {
      ManagementRequest request{std::string(support::sv(req.method_string())),
                                std::string(support::sv(req.target())),
                                std::string(support::sv(req[bhttp::field::authorization]))};
      // Route control and reads of the route list, one request at a time.
      std::lock_guard lock(control_);
      response = handleManagementRequest(context_, options_, request, &background_);
    } catch (...) {
      return call.respond(jsonError(500, req.version(), "out of memory"));
    }
    support::HttpResponse r{static_cast<bhttp::status>(response.status), req.version()};
    r.set(bhttp::field::content_type, support::bsv(response.contentType));
    r.body() = std::move(response.body);
    call.respond(std::move(r));
  }

  void joinBackground() { background_.join(); }

 private:
  Context& context_;
  const ManagementOptions& options_;
  std::mutex control_;
  RouteControl background_;  // stops and suspends that outlast their request
};

support::HttpServerOptions serverOptions(const ManagementOptions& options) {
  support::HttpServerOptions o;
  o.name = "management";
  o.host = options.host;
  o.port = options.port;
  o.limits.maxHeaderBytes = kManagementHeaderLimit;
  o.limits.maxBodyBytes = options.maxRequestBytes;
  o.limits.maxInflightBodyBytes = options.maxConnections * options.maxRequestBytes;
  o.limits.maxConnections = options.maxConnections;
  o.limits.idleTimeout = std::chrono::seconds(10);
  o.limits.writeTimeout = std::chrono::seconds(10);
  o.limits.keepAlive = false;
  o.errorResponse = &jsonError;
  return o;
}

}  // namespace

struct ManagementServer::Impl {
  Impl(Context& c, ManagementOptions o)
      : options(std::move(o)), handler(c, options), server(serverOptions(options), handler) {}

  ManagementOptions options;
  ManagementHandler handler;
  support::EmbeddedHttpServer server;
};

ManagementServer::ManagementServer(Context& context, ManagementOptions options)
    : impl_(std::make_unique<Impl>(context, std::move(options))) {}

ManagementServer::~ManagementServer() { stop(); }

Result<void> ManagementServer::start() { return impl_->server.start(); }

uint16_t ManagementServer::port() const noexcept { return impl_->server.port(); }

void ManagementServer::stop() noexcept {
  impl_->server.stop();
  impl_->handler.joinBackground();
}

}  // namespace dromedary
