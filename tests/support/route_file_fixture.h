// SPDX-License-Identifier: Apache-2.0
#pragma once

// RouteFileTest: a RouteHarness that loads route text (YAML or XML) and starts the context,
// or returns the load/start error as text. Shared by the route-file tests.

#include <string>
#include <vector>

#include <dromedary/dsl/route_loader.h>

#include "support/route_harness.h"

namespace dromedary::testing {

class RouteFileTest : public ::testing::Test {
 protected:
  /// Loads and starts; a failure of either fails the test.
  LoadReport loadYaml(const char* yaml) { return started(loadYamlRoutes(h.context, yaml, "routes.yaml")); }
  LoadReport loadXml(const char* xml) { return started(loadXmlRoutes(h.context, xml, "routes.xml")); }
  /// The load error, else the start error, else empty.
  std::string yamlError(const char* yaml) { return error(loadYamlRoutes(h.context, yaml, "routes.yaml")); }
  std::string xmlError(const char* xml) { return error(loadXmlRoutes(h.context, xml, "routes.xml")); }

  /// The bodies a mock endpoint received, as text.
  std::vector<std::string> bodies(std::string_view uri) {
    std::vector<std::string> out;
    for (const auto& ex : h.mock(uri).receivedExchanges()) {
      out.push_back(ex->message().body().as<std::string>());
    }
    return out;
  }

  RouteHarness h;

 private:
  LoadReport started(const Result<LoadReport>& loaded) {
    EXPECT_TRUE(loaded) << loaded.error().toString();
    auto s = h.context.start();
    EXPECT_TRUE(s) << s.error().toString();
    return loaded ? *loaded : LoadReport{};
  }
  std::string error(const Result<LoadReport>& loaded) {
    if (!loaded) return loaded.error().toString();
    auto s = h.context.start();
    return s ? std::string() : s.error().toString();
  }
};

}  // namespace dromedary::testing
