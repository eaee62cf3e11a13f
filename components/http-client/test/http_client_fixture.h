// SPDX-License-Identifier: Apache-2.0
#pragma once

// Two contexts over real sockets on 127.0.0.1: `server` serves an HTTP API with platform-http
// routes (a free port), `client` calls it with http: endpoints.

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <dromedary/http/platform_http.h>

#include "support/route_harness.h"

namespace dromedary::testing {

class HttpClientFixture : public ::testing::Test {
 protected:
  HttpClientFixture() {
    server.context.properties().set("camel.server.host", "127.0.0.1");
    server.context.properties().set("camel.server.port", "0");
  }
  void serve(const std::function<void(RouteBuilder&)>& routes) {
    server.start(routes);
    port = platformHttpPort(server.context);
    ASSERT_NE(port, 0);
  }
  std::string url(std::string_view path) const {
    return fmt::format("http://127.0.0.1:{}{}", port, path);
  }
  /// Serves /slow: each request is held for `hold`, counted in `received`, and the most
  /// held at once is recorded in `peak`.
  void serveSlow(std::chrono::milliseconds hold) {
    serve([this, hold](RouteBuilder& b) {
      b.from("platform-http:/slow")
          .process([this](Exchange&) {
            ++received;
            int now = ++held;
            int seen = peak.load();
            while (now > seen && !peak.compare_exchange_weak(seen, now)) {
            }
          })
          .delay(hold)
          .process([this](Exchange&) { --held; })
          .setBody(constant("done"));
    });
  }
  /// Sends an InOut exchange to `uri` from the client context and returns it, completed
  /// (failed or not: the test looks).
  ExchangePtr call(const std::string& uri, Value body = Value(),
                   std::vector<std::pair<std::string, Value>> headers = {}) {
    ExchangePtr ex = acquireExchange(&client.context);
    ex->setPattern(Pattern::InOut);
    ex->message().setBody(std::move(body));
    for (auto& [name, value] : headers) ex->message().setHeader(name, std::move(value));
    (void)client.producer.send(uri, *ex);
    return ex;
  }
  std::string headerOf(const Exchange& ex, std::string_view name) {
    const Value* v = ex.message().getHeader(name);
    return v ? v->toString() : std::string("<none>");
  }

  RouteHarness server;
  RouteHarness client;
  uint16_t port = 0;
  std::atomic<int> received{0}, held{0}, peak{0};  // serveSlow's
};

}  // namespace dromedary::testing
