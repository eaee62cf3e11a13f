// SPDX-License-Identifier: Apache-2.0
#pragma once

// The routes of the reference scenarios (shared/reference/000), defined once: the
// benchmarks time them and tests/engine/zero_allocation_test.cc asserts that they allocate
// nothing per exchange, so both speak of the same routes.

#include <memory>

#include <dromedary/dromedary.h>

namespace dromedary::bench {

class NoOp final : public Processor {
 public:
  Status process(Exchange&) override { return Status::Continue; }
};

/// direct_1: direct:one -> 1 no-op processor.
inline void direct1Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  b.from("direct:one").process(noop);
}

/// direct_10: direct:ten -> 10 no-op processors.
inline void direct10Route(RouteBuilder& b, const std::shared_ptr<Processor>& noop) {
  RouteDefinition& r = b.from("direct:ten");
  for (int i = 0; i < 10; ++i) r.process(noop);
}

/// typical: a filter on a header predicate, a choice with two whens and otherwise,
/// setHeader, then on to `direct:next` (which the caller defines).
inline void typicalRoute(RouteBuilder& b) {
  b.from("direct:typical")
      .filter(header("type") == "order")
        .choice()
          .when(header("amount") > 1000).setHeader("priority", constant("high"))
          .when(header("region") == "EU").setHeader("priority", constant("eu"))
          .otherwise().setHeader("priority", constant("normal"))
        .end()
        .setHeader("routedBy", constant("dromedary"))
        .to("direct:next")
      .end();
}

}  // namespace dromedary::bench
