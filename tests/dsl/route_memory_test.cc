// SPDX-License-Identifier: Apache-2.0
// What a loaded and compiled route keeps in memory (#34): what runs, not the file's source nor
// the route model it was built from. Heap bytes in use are counted by glibc (mallinfo2): exact
// for a given build, asserted with a margin so that small changes elsewhere do not trip them.

#include <malloc.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <dromedary/dsl/route_loader.h>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

// Routes of the shape bench/load_routes.sh generates: a header set from a template, a filter
// on a Simple predicate, a log and a send, each on its own direct: endpoint.
std::string yamlRoutes(int count) {
  std::string out;
  for (int n = 0; n < count; ++n) {
    out += fmt::format(R"(- route:
    id: r{0}
    from:
      uri: direct:in{0}
      steps:
        - setHeader:
            name: kind
            simple: "${{header.type}}-{0}"
        - filter:
            simple: "${{header.kind}} != 'skip'"
            steps:
              - log: "route {0}: ${{body}}"
              - to: mock:out{0}
)",
                       n);
  }
  return out;
}

size_t heapInUse() { return mallinfo2().uordblks; }

// Heap bytes a route of yamlRoutes() holds once loaded, and compiled when `compile` (0 after a
// failed assertion).
size_t heapPerRoute(bool compile) {
  constexpr int kRoutes = 2000;
  RouteHarness h;
  const std::string text = yamlRoutes(kRoutes);
  const size_t before = heapInUse();
  {
    auto loaded = loadYamlRoutes(h.context, text, "routes.yaml");
    EXPECT_TRUE(loaded) << loaded.error().toString();
    if (!loaded) return 0;
  }
  if (compile) {
    auto compiled = h.context.compileRoutes();
    EXPECT_TRUE(compiled) << compiled.error().toString();
  }
  return (heapInUse() - before) / kRoutes;
}

TEST(RouteMemoryTest, ACompiledRouteKeepsWhatRunsNotItsSourceOrModel) {
  const size_t per_route = heapPerRoute(true);
  // 2,355 bytes a route (3,207 before session 40: a mock's state made on first use, a log
  // step's logger named by its route's id, a route's sends not kept by their text, the
  // context's endpoints in a table of 8-byte slots, a template's parts and text in one
  // allocation; 2,712 before session 41: a step's id kept in its route's labels, header
  // names interned, a header read of a template or comparison kept as its key alone, a
  // direct channel that is its consumer only, an endpoint's rare option lists held by a
  // pointer, a route's onCompletions among its rare parts), the allocator's own words
  // included (two endpoints, four steps, three Simple expressions, statistics); its model
  // kept was about 1,600 more.
  EXPECT_LT(per_route, 2600u) << per_route << " bytes of heap per route";
  RecordProperty("heap_bytes_per_route", static_cast<int>(per_route));
}

// Before they compile, a big file's routes are all held as models at once: the other peak of
// a load. A model keeps what most routes leave unset apart (RouteModel::Extras) and its steps'
// positions without a snippet.
TEST(RouteMemoryTest, LoadedRoutesWaitingToCompileKeepSmallModels) {
  const size_t per_route = heapPerRoute(false);
  // 1,678 bytes a route (its Route and its model, the allocator's words included; a RouteModel
  // was 448 bytes and is 120, a StepModel 88 and is 56).
  EXPECT_LT(per_route, 1900u) << per_route << " bytes of heap per route";
  RecordProperty("heap_bytes_per_loaded_route", static_cast<int>(per_route));
}

// The model is let go, but what reads it after it compiled still has its words: a step's
// label and place, and a choice's branch labels.
TEST(RouteMemoryTest, StatisticsStillDescribeStepsOnceTheModelIsGone) {
  RouteHarness h;
  auto loaded = loadYamlRoutes(h.context, R"(- route:
    id: described
    from:
      uri: direct:in
      steps:
        - choice:
            when:
              - simple: "${header.kind} == 'gold'"
                steps:
                  - setHeader:
                      name: tier
                      constant: premium
            otherwise:
              steps:
                - to: mock:other
)",
                               "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(h.context.compileRoutes());
  auto stats = h.context.routeStatistics("described");
  ASSERT_TRUE(stats);
  ASSERT_EQ(stats->processors.size(), 3u);
  EXPECT_EQ(stats->processors[0].description, "choice");
  EXPECT_EQ(stats->processors[1].branchLabel, "when[simple{${header.kind} == 'gold'}]");
  EXPECT_EQ(stats->processors[1].description, "setHeader[tier=constant{premium}]");
  EXPECT_EQ(stats->processors[2].branchLabel, "otherwise");
  EXPECT_EQ(stats->processors[2].description, "to[mock:other]");
}

}  // namespace
}  // namespace dromedary::testing
