// SPDX-License-Identifier: Apache-2.0
// intercept (#25): direct_10 with an intercept before each of its 10 steps (its onWhen does
// not hold), and a toD whose URI an interceptSendToEndpoint matches and whose send it skips.
// Against direct_10 (dromedary_bench_routing): an interceptor's cost per step, and the
// dynamic send's pattern check. In a program of its own so that adding it leaves the other
// scenarios' code (and instruction counts) as they were.
#include <dromedary/dromedary.h>

#include "reference_routes.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

class InterceptRun final : public ScenarioRun {
 public:
  InterceptRun() {
    setLogLevel(LoggingLevel::Warn);
    context_.setStatisticsLevel(StatisticsLevel::Off);
    registerBuiltinComponents(context_);
    auto added = context_.addRoutes([this](RouteBuilder& b) {
      b.intercept().onWhen(header("trace").isNotNull()).to("mock:traced").end();
      b.interceptSendToEndpoint("mock:audit*").skipSendToOriginalEndpoint().end();
      direct10Route(b, noop_);
      b.from("direct:audited").toD(simple("mock:audit-${header.kind}"));
    });
    check(added.has_value(), "addRoutes");
    check(context_.start().has_value(), "start");
  }
  ~InterceptRun() override { context_.stop(); }

  void once() override {
    check(producer_.sendBody("direct:ten", "order-1").has_value(), "send");
    check(producer_.sendBodyAndHeader("direct:audited", "order-1", "kind", "a").has_value(),
          "send");
  }

 private:
  Context context_;
  ProducerTemplate producer_{context_};
  std::shared_ptr<NoOp> noop_ = std::make_shared<NoOp>();
};
DROMEDARY_SCENARIO("intercept", InterceptRun);

}  // namespace
}  // namespace dromedary::bench
