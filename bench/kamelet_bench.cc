// SPDX-License-Identifier: Apache-2.0
// What a Kamelet costs per message: the same three steps (set the body, set a header, remove
// a header) written in a route, and called as three shipped action Kamelets. Each use is a
// route of its own reached through a direct channel, so the difference is three calls.
#include <dromedary/dromedary.h>
#include <dromedary/dsl/route_loader.h>

#include "scenario.h"

namespace dromedary::bench {
namespace {

class KameletRun : public ScenarioRun {
 protected:
  explicit KameletRun(const char* yaml) {
    setLogLevel(LoggingLevel::Warn);
    context_.setStatisticsLevel(StatisticsLevel::Off);
    registerBuiltinComponents(context_);
    check(loadYamlRoutes(context_, yaml, "bench.yaml").has_value(), "load");
    check(context_.start().has_value(), "start");
  }
  ~KameletRun() override { context_.stop(); }

 public:
  void once() override { check(producer_.sendBody("direct:in", "order-1").has_value(), "send"); }

 private:
  Context context_;
  ProducerTemplate producer_{context_};
};

// kamelet_plain_3: the three steps in the route.
class Plain3 final : public KameletRun {
 public:
  Plain3()
      : KameletRun(R"(
- from:
    uri: direct:in
    steps:
      - setBody: {simple: "order ${body}"}
      - setHeader: {name: seen, simple: "yes"}
      - removeHeader: {name: seen}
)") {}
};
DROMEDARY_SCENARIO("kamelet_plain_3", Plain3);

// kamelet_uses_3: the same steps as set-body-action, insert-header-action, drop-header-action.
class Uses3 final : public KameletRun {
 public:
  Uses3()
      : KameletRun(R"(
- from:
    uri: direct:in
    steps:
      - to: "kamelet:set-body-action?value=order ${body}"
      - to: "kamelet:insert-header-action?name=seen&value=yes"
      - to: "kamelet:drop-header-action?name=seen"
)") {}
};
DROMEDARY_SCENARIO("kamelet_uses_3", Uses3);

}  // namespace
}  // namespace dromedary::bench
