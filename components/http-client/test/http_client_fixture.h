// SPDX-License-Identifier: Apache-2.0
#pragma once

// Two contexts over real sockets on 127.0.0.1: `server` serves an HTTP API with platform-http
// routes (a free port), `client` calls it with http: endpoints.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

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

/// A socket listening on a free port of 127.0.0.1 whose connections nobody answers (they wait
/// in its backlog) unless a test accepts them. Once closed, connecting to `port` is refused.
struct LoopbackListener {
  LoopbackListener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(fd, 16), 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~LoopbackListener() { close(); }
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;
  /// Wakes a thread blocked in accept() and closes the socket.
  void close() {
    if (fd < 0) return;
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
    fd = -1;
  }
  int fd = -1;
  uint16_t port = 0;
};

/// Reads from a raw connection until a request's head has arrived (or the peer stops).
inline std::string readRequestHead(int fd) {
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    request.append(buf, static_cast<size_t>(n));
  }
  return request;
}

/// A port of 127.0.0.1 that nothing listens on: connecting is refused.
inline uint16_t refusedPort() { return LoopbackListener().port; }

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
