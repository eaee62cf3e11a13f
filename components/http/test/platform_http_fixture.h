// SPDX-License-Identifier: Apache-2.0
#pragma once

// A context whose platform-http server listens on 127.0.0.1 on a free port, for the tests
// that talk to it over real sockets.

#include <functional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include <dromedary/http/platform_http.h>

#include "support/http_client.h"
#include "support/route_harness.h"

namespace dromedary::testing {

class PlatformHttpFixture : public ::testing::Test {
 protected:
  PlatformHttpFixture() {
    h.context.properties().set("camel.server.host", "127.0.0.1");
    h.context.properties().set("camel.server.port", "0");
  }
  void start(const std::function<void(RouteBuilder&)>& routes) {
    h.start(routes);
    port = platformHttpPort(h.context);
    ASSERT_NE(port, 0);
  }
  HttpReply get(const std::string& target, const HttpHeaders& headers = {}) {
    return httpRequest(port, "GET", target, headers);
  }
  // Why routes fail to be added or started in a context of their own, with `property` set.
  static std::string startError(const std::function<void(RouteBuilder&)>& routes,
                                std::pair<const char*, const char*> property = {"", ""}) {
    Context other;
    registerBuiltinComponents(other);
    if (*property.first) other.properties().set(property.first, property.second);
    auto started = other.addRoutes(routes);
    if (started) started = other.start();
    return started ? std::string() : started.error().message;
  }

  RouteHarness h;
  uint16_t port = 0;
};

}  // namespace dromedary::testing
