// SPDX-License-Identifier: Apache-2.0
// Camel's tracers on routes from files: the trace log's lines per route and step (a choice
// and a split), the backlog tracer's events with its size, pattern and filter, the route's own
// `trace`, standby, and the properties that configure them.
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "support/log_capture.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kChoiceAndSplit = R"(
- route:
    id: orders
    from:
      uri: direct:orders
      steps:
        - choice:
            id: route-by-kind
            when:
              - simple: "${header.kind} == 'batch'"
                steps:
                  - split:
                      id: each
                      tokenize: ","
                      steps:
                        - to: {id: item, uri: direct:item}
            otherwise:
              steps:
                - to: {id: single, uri: mock:single}
- route:
    id: items
    from:
      uri: direct:item
      steps:
        - to: {id: out, uri: mock:items}
)";

class TracingRoutesTest : public RouteFileTest {
 protected:
  void SetUp() override { setLogLevel(LoggingLevel::Info); }
  void TearDown() override { setLogLevel(LoggingLevel::Warn); }

  // The trace log's lines, without the exchange part: "*--> [orders      ] [from[...]]".
  std::vector<std::string> traceLines() const {
    std::vector<std::string> out;
    for (const LoggedLine& l : capture.all()) {
      if (l.category != "org.apache.camel.Tracing") continue;
      out.push_back(l.text.substr(0, l.text.find("] Exchange[") + 1));
    }
    return out;
  }

  std::vector<std::string> nodeIds(const std::vector<TraceEvent>& events) const {
    std::vector<std::string> out;
    for (const TraceEvent& e : events) out.push_back(e.nodeId);
    return out;
  }

  LogCapture capture;
};

TEST_F(TracingRoutesTest, TheTraceLogShowsEachRouteAndStepInCamelsShape) {
  h.context.properties().set("camel.main.tracing", "true");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(kChoiceAndSplit);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "a,b", "kind", "batch"));
  EXPECT_THAT(traceLines(), ElementsAre("*--> [orders      ] [from[direct:orders]              ]",
                                        "     [orders      ] [choice                           ]",
                                        "     [orders      ] [split[tokenize(,)]               ]",
                                        "     [orders      ] [to[direct:item]                  ]",
                                        "---> [items       ] [from[direct:item]                ]",
                                        "     [items       ] [to[mock:items]                   ]",
                                        "<--- [items       ] [from[direct:item]                ]",
                                        "     [orders      ] [to[direct:item]                  ]",
                                        "---> [items       ] [from[direct:item]                ]",
                                        "     [items       ] [to[mock:items]                   ]",
                                        "<--- [items       ] [from[direct:item]                ]",
                                        "*<-- [orders      ] [from[direct:orders]              ]"));
  const std::vector<LoggedLine> lines = capture.all();
  auto first = std::find_if(lines.begin(), lines.end(), [](const LoggedLine& l) {
    return l.category == "org.apache.camel.Tracing";
  });
  ASSERT_NE(first, lines.end());
  EXPECT_THAT(first->text, HasSubstr("Exchange[Id: "));
  EXPECT_THAT(first->text, HasSubstr(", Headers: {kind=batch}, BodyType: String, Body: a,b]"));
}

TEST_F(TracingRoutesTest, ThePatternChoosesRoutesAndNodes) {
  h.context.properties().set("camel.main.tracing", "true");
  h.context.properties().set("camel.main.tracingPattern", "item*,single");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(kChoiceAndSplit);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "x", "kind", "one"));
  ASSERT_TRUE(h.producer.sendBody("direct:item", "y"));
  EXPECT_THAT(traceLines(), ElementsAre("     [orders      ] [to[mock:single]                  ]",
                                        "*--> [items       ] [from[direct:item]                ]",
                                        "     [items       ] [to[mock:items]                   ]",
                                        "*<-- [items       ] [from[direct:item]                ]"));
}

TEST_F(TracingRoutesTest, ARoutesOwnTraceWinsOverTheContexts) {
  loadYaml(R"(
- route:
    id: traced
    trace: true
    from: {uri: direct:a, steps: [{to: mock:a}]}
- route:
    id: quiet
    trace: false
    from: {uri: direct:b, steps: [{to: mock:b}]}
- route:
    id: plain
    from: {uri: direct:c, steps: [{to: mock:c}]}
)");
  for (const char* uri : {"direct:a", "direct:b", "direct:c"}) {
    ASSERT_TRUE(h.producer.sendBody(uri, "x"));
  }
  EXPECT_EQ(traceLines().size(), 3u);
  for (const std::string& line : traceLines()) EXPECT_THAT(line, HasSubstr("[traced      ]"));
}

TEST_F(TracingRoutesTest, TheBacklogKeepsTheLastEventsThatPassItsFilter) {
  h.context.properties().set("camel.trace.enabled", "true");
  h.context.properties().set("camel.trace.backlogSize", "4");
  h.context.properties().set("camel.trace.traceFilter", "${header.kind} == 'one'");
  h.context.properties().set("camel.trace.bodyMaxChars", "3");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(kChoiceAndSplit);
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "a,b", "kind", "batch"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "first", "kind", "one"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:orders", "second", "kind", "one"));
  EXPECT_TRUE(traceLines().empty());  // the trace log is off
  std::vector<TraceEvent> events = h.context.traceEvents({});
  // The last exchange's four events: the batch was filtered out, the first pushed out.
  ASSERT_EQ(events.size(), 4u);
  EXPECT_THAT(nodeIds(events), ElementsAre("orders", "route-by-kind", "single", "orders"));
  EXPECT_EQ(events[0].kind, TraceEvent::Kind::RouteIn);
  EXPECT_EQ(events[3].kind, TraceEvent::Kind::RouteOut);
  EXPECT_TRUE(events[0].first);
  EXPECT_EQ(events[0].body, "sec... [Body clipped after 3 chars]");
  EXPECT_EQ(events[0].bodyType, "String");
  EXPECT_THAT(events[0].headers, ElementsAre(std::pair<std::string, std::string>("kind", "one")));
  EXPECT_EQ(events[0].location, "routes.yaml:5");
  EXPECT_EQ(events[2].label, "to[mock:single]");
  EXPECT_EQ(events[2].location, "routes.yaml:19");
  EXPECT_LT(events[0].uid, events[3].uid);
  // removeOnDump (Camel's default): read once.
  EXPECT_TRUE(h.context.traceEvents({}).empty());
}

TEST_F(TracingRoutesTest, AFailedExchangeIsTracedWithItsError) {
  h.context.properties().set("camel.trace.enabled", "true");
  h.context.properties().set("camel.trace.removeOnDump", "false");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(R"(
- route:
    id: failing
    from:
      uri: direct:f
      steps:
        - throwException: {id: boom, exceptionType: java.lang.IllegalStateException, message: no}
)");
  EXPECT_FALSE(h.producer.sendBody("direct:f", "x"));
  std::vector<TraceEvent> events = h.context.traceEvents({.routeId = "failing"});
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].nodeId, "boom");
  EXPECT_FALSE(events[1].failed);
  EXPECT_EQ(events[2].kind, TraceEvent::Kind::RouteOut);
  EXPECT_TRUE(events[2].failed);
  EXPECT_THAT(events[2].exception, HasSubstr("no"));
  // Newer than a uid, at most a number: what `dromedary trace --follow` asks.
  EXPECT_EQ(h.context.traceEvents({.routeId = "", .afterUid = events[0].uid}).size(), 2u);
  EXPECT_EQ(h.context.traceEvents({.routeId = "", .afterUid = 0, .limit = 1}).back().uid,
            events[2].uid);
}

TEST_F(TracingRoutesTest, StandbyTracesOnlyOnceTurnedOn) {
  h.context.properties().set("camel.main.tracingStandby", "true");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml("- from: {uri: direct:s, steps: [{to: mock:s}]}\n");
  ASSERT_TRUE(h.producer.sendBody("direct:s", "1"));
  EXPECT_TRUE(traceLines().empty());
  h.context.setTracingEnabled(true, false);
  ASSERT_TRUE(h.producer.sendBody("direct:s", "2"));
  EXPECT_EQ(traceLines().size(), 3u);
  EXPECT_EQ(h.context.tracingEnabled(), std::make_pair(true, false));
  // Never replaced under running routes.
  auto again = h.context.setTracing({});
  ASSERT_FALSE(again);
  EXPECT_THAT(again.error().message, HasSubstr("before the routes start"));
}

// camel.main.messageHistory from the properties: the exhausted log line lists every step.
TEST_F(TracingRoutesTest, MessageHistoryFromTheProperties) {
  h.context.properties().set("camel.main.messageHistory", "true");
  ASSERT_TRUE(h.context.applyMainProperties());
  loadYaml(R"(
- route:
    id: failing
    from:
      uri: direct:f
      steps:
        - setHeader: {id: first, name: a, constant: "1"}
        - throwException: {id: boom, exceptionType: java.lang.IllegalStateException, message: no}
)");
  EXPECT_FALSE(h.producer.sendBody("direct:f", "x"));
  auto lines = capture.find(LoggingLevel::Error, "Message History\n");
  ASSERT_FALSE(lines.empty());
  EXPECT_THAT(lines[0].text, HasSubstr("failing/first"));
  EXPECT_THAT(lines[0].text, HasSubstr("failing/boom"));
}

TEST_F(TracingRoutesTest, BadTracingPropertiesNameThemselves) {
  auto error = [&](const char* key, const char* value) {
    Context context("bad");
    registerBuiltinComponents(context);
    context.properties().set(key, value);
    auto applied = context.applyMainProperties();
    return applied ? std::string() : applied.error().toString();
  };
  EXPECT_THAT(error("camel.main.tracing", "yes"),
              HasSubstr("camel.main.tracing must be true or false, not 'yes'"));
  EXPECT_THAT(error("camel.trace.backlogSize", "5000"),
              HasSubstr("camel.trace.backlogSize must be 1 to 1000, not 5000"));
  EXPECT_THAT(error("camel.trace.bodyMaxChars", "lots"),
              HasSubstr("camel.trace.bodyMaxChars must be a whole number, not 'lots'"));
  EXPECT_THAT(error("camel.trace.traceFilter", "${header.x"),
              StartsWith("camel.trace.traceFilter '${header.x': "));
  EXPECT_THAT(error("camel.main.messageHistory", "on"),
              HasSubstr("camel.main.messageHistory must be true or false, not 'on'"));
  EXPECT_THAT(error("camel.main.tracingLoggingFormat", "%s"), HasSubstr("not supported"));
  EXPECT_THAT(error("camel.main.shutdownTimeout", "-3"),
              HasSubstr("camel.main.shutdownTimeout must be whole seconds (0 to 86400), not "
                        "'-3'"));
}

}  // namespace
}  // namespace dromedary::testing
