// SPDX-License-Identifier: Apache-2.0
#pragma once

// RouteHarness: a context with the built-in components, a producer template and access to
// mock endpoints; routes are added with a function. Stops the context at the end.

#include <gtest/gtest.h>

#include <dromedary/component/mock/mock_endpoint.h>
#include <dromedary/dromedary.h>

namespace dromedary::testing {

class RouteHarness {
 public:
  RouteHarness() {
    setLogLevel(LoggingLevel::Warn);
    registerBuiltinComponents(context);
    context.setShutdownTimeout(std::chrono::seconds(5));
  }
  ~RouteHarness() { context.stop(); }

  /// Adds routes and starts the context; fails the test on an error.
  void start(const std::function<void(RouteBuilder&)>& configure) {
    auto added = context.addRoutes(configure);
    ASSERT_TRUE(added) << added.error().toString();
    auto started = context.start();
    ASSERT_TRUE(started) << started.error().toString();
  }

  component::mock::MockEndpoint& mock(std::string_view uri) {
    return context.getEndpoint<component::mock::MockEndpoint>(uri);
  }

  Context context;
  ProducerTemplate producer{context};
};

}  // namespace dromedary::testing
