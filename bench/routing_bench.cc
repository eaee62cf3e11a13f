// SPDX-License-Identifier: Apache-2.0
// The per-exchange scenarios of shared/reference/000 (CAMEL-25132), on this engine.
// Each sends with a ProducerTemplate and a String URI, as Camel's harness did.
#include <dromedary/core/type_converter.h>
#include <dromedary/dromedary.h>

#include "reference_routes.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

// A context with the built-in components, quiet logs, and the routes of `configure`.
// Statistics are off, as in Camel's baseline figures (measured without camel-management);
// the *_stats scenarios measure them at the default level.
class RoutingRun : public ScenarioRun {
 protected:
  explicit RoutingRun(const std::function<void(RouteBuilder&)>& configure,
                      const std::function<void(Context&)>& before_start = {}) {
    setLogLevel(LoggingLevel::Warn);
    context_.setStatisticsLevel(StatisticsLevel::Off);
    registerBuiltinComponents(context_);
    if (before_start) before_start(context_);
    check(context_.addRoutes(configure).has_value(), "addRoutes");
    check(context_.start().has_value(), "start");
  }
  ~RoutingRun() override { context_.stop(); }

  Context context_;
  ProducerTemplate producer_{context_};
  std::shared_ptr<NoOp> noop_ = std::make_shared<NoOp>();
};

// direct_1: sendBody with a String URI to direct: -> 1 no-op processor.
class Direct1 final : public RoutingRun {
 public:
  Direct1() : RoutingRun([this](RouteBuilder& b) { direct1Route(b, noop_); }) {}
  void once() override { check(producer_.sendBody("direct:one", "order-1").has_value(), "send"); }
};
DROMEDARY_SCENARIO("direct_1", Direct1);

// direct_10: the same with 10 no-op processors (node_cost = (direct_10 - direct_1) / 9),
// statistics off; direct_10_stats: at the default level (per processor), the cost of
// statistics (target: <= 15% over direct_10).
class Direct10 final : public RoutingRun {
 public:
  explicit Direct10(StatisticsLevel level = StatisticsLevel::Off)
      : RoutingRun([this](RouteBuilder& b) { direct10Route(b, noop_); }) {
    context_.setStatisticsLevel(level);
  }
  // At the default statistics level with another flight recorder size, timing sample or
  // tracing (all set before the routes compile).
  Direct10(uint32_t recorded, uint32_t timing_sample, bool backlog_trace = false)
      : RoutingRun([this](RouteBuilder& b) { direct10Route(b, noop_); },
                   [=](Context& c) {
                     c.setStatisticsLevel(StatisticsLevel::Default);
                     c.setStatisticsTimingSample(timing_sample);
                     c.setFlightRecorderSize(recorded);
                     if (backlog_trace) {
                       TracingOptions tracing;
                       tracing.backlog = true;
                       check(c.setTracing(tracing).has_value(), "setTracing");
                     }
                   }) {}
  void once() override { check(producer_.sendBody("direct:ten", "order-1").has_value(), "send"); }
};
DROMEDARY_SCENARIO("direct_10", Direct10);
ScenarioRegistrar direct_10_stats_registrar("direct_10_stats", [] {
  return std::unique_ptr<ScenarioRun>(new Direct10(StatisticsLevel::Default));
});
// The flight recorder's cost (#31): off (size 0) against on (10), at the default timing sample
// and with every exchange timed (so every one recorded: its cost per record); and the backlog
// tracer on (reported, not bounded).
ScenarioRegistrar direct_10_stats_no_recorder_registrar("direct_10_stats_no_recorder", [] {
  return std::unique_ptr<ScenarioRun>(new Direct10(0, 0));
});
ScenarioRegistrar direct_10_every_registrar("direct_10_stats_every", [] {
  return std::unique_ptr<ScenarioRun>(new Direct10(10, 1));
});
ScenarioRegistrar direct_10_every_no_recorder_registrar("direct_10_stats_every_no_recorder", [] {
  return std::unique_ptr<ScenarioRun>(new Direct10(0, 1));
});
ScenarioRegistrar direct_10_backlog_trace_registrar("direct_10_backlog_trace", [] {
  return std::unique_ptr<ScenarioRun>(new Direct10(10, 0, true));
});

// redelivery_10: direct_10 with maximumRedeliveries(3), success path (target: <= 1.1x
// direct_10, 0 allocations).
class Redelivery10 final : public RoutingRun {
 public:
  Redelivery10() : RoutingRun([this](RouteBuilder& b) { redelivery10Route(b, noop_); }) {}
  void once() override {
    check(producer_.sendBody("direct:redelivery", "order-1").has_value(), "send");
  }
};
DROMEDARY_SCENARIO("redelivery_10", Redelivery10);

// failure_redelivered: one node fails twice, then succeeds on the second redelivery.
class FailureRedelivered final : public RoutingRun {
 public:
  FailureRedelivered()
      : RoutingRun([this](RouteBuilder& b) { failureRedeliveredRoute(b, noop_); }) {}
  void once() override { check(producer_.sendBody("direct:flaky", "order-1").has_value(), "send"); }
};
DROMEDARY_SCENARIO("failure_redelivered", FailureRedelivered);

// mt_10: the direct_10 route from 1 and 2 threads at once (the scaling figure), statistics
// off and at the default level (target: >= 1.8x from 1 to 2 threads with statistics on).
ScenarioRegistrar mt_10_registrar(
    "mt_10", [] { return std::unique_ptr<ScenarioRun>(new Direct10()); }, 2);
ScenarioRegistrar mt_10_stats_registrar(
    "mt_10_stats",
    [] { return std::unique_ptr<ScenarioRun>(new Direct10(StatisticsLevel::Default)); }, 2);

// typical: filter on a header predicate, a choice with two whens and otherwise, setHeader,
// then to another direct route.
class Typical final : public RoutingRun {
 public:
  Typical()
      : RoutingRun([this](RouteBuilder& b) {
          typicalRoute(b);
          b.from("direct:next").process(noop_);
        }) {}
  // At the default statistics level with `recorded` kept per route, at timing sample `sample`.
  Typical(uint32_t recorded, uint32_t sample)
      : RoutingRun(
            [this](RouteBuilder& b) {
              typicalRoute(b);
              b.from("direct:next").process(noop_);
            },
            [=](Context& c) {
              c.setStatisticsLevel(StatisticsLevel::Default);
              c.setStatisticsTimingSample(sample);
              c.setFlightRecorderSize(recorded);
            }) {}
  void once() override {
    check(producer_.sendBodyAndHeaders("direct:typical", "order-1", headers_).has_value(), "send");
  }

 private:
  Headers headers_{{"type", "order"}, {"amount", 500}, {"region", "EU"}};
};
DROMEDARY_SCENARIO("typical", Typical);

// circuit_breaker: direct_1 with its processor inside a closed circuitBreaker (#25): the copy
// the call runs on, the breaker's lock and window, the properties Camel sets. Against
// direct_1, the breaker's own cost per exchange.
class CircuitBreakerRun final : public RoutingRun {
 public:
  CircuitBreakerRun()
      : RoutingRun([this](RouteBuilder& b) {
          b.from("direct:guarded").circuitBreaker().process(noop_).onFallback().stop().end();
        }) {}
  void once() override {
    check(producer_.sendBody("direct:guarded", "order-1").has_value(), "send");
  }
};
DROMEDARY_SCENARIO("circuit_breaker", CircuitBreakerRun);

// variables: direct_1 with a setVariable and a Simple template reading it (#25).
class VariablesRun final : public RoutingRun {
 public:
  VariablesRun()
      : RoutingRun([](RouteBuilder& b) {
          b.from("direct:vars")
              .setVariable("order", body())
              .setHeader("seen", simple("${variable.order}"));
        }) {}
  void once() override { check(producer_.sendBody("direct:vars", "order-1").has_value(), "send"); }
};
DROMEDARY_SCENARIO("variables", VariablesRun);

ScenarioRegistrar typical_stats_registrar("typical_stats", [] {
  return std::unique_ptr<ScenarioRun>(new Typical(10, 0));
});
ScenarioRegistrar typical_stats_no_recorder_registrar("typical_stats_no_recorder", [] {
  return std::unique_ptr<ScenarioRun>(new Typical(0, 0));
});
ScenarioRegistrar typical_every_registrar("typical_stats_every", [] {
  return std::unique_ptr<ScenarioRun>(new Typical(10, 1));
});
ScenarioRegistrar typical_every_no_recorder_registrar("typical_stats_every_no_recorder", [] {
  return std::unique_ptr<ScenarioRun>(new Typical(0, 1));
});

// camel_e: Camel's harness scenario e (reference_routes.h), sent as Camel's harness sent it.
class CamelE final : public RoutingRun {
 public:
  CamelE()
      : RoutingRun([this](RouteBuilder& b) {
          camelERoute(b);
          b.from("direct:sink").process(noop_);
        }) {}
  void once() override {
    check(producer_.sendBodyAndHeaders("direct:camel-e", "order-1", headers_).has_value(), "send");
  }

 private:
  Headers headers_{{"foo", "bar"}, {"kind", "gold"}};
};
DROMEDARY_SCENARIO("camel_e", CamelE);

// split_100: a 100-item list into one no-op processor, sequential (Camel: 34 us, 104 KB).
class Split100 final : public RoutingRun {
 public:
  Split100() : RoutingRun([this](RouteBuilder& b) { split100Route(b, noop_); }) {}
  void once() override { check(producer_.sendBody("direct:split", items_).has_value(), "send"); }

 private:
  Value items_ = hundredItems();
};
DROMEDARY_SCENARIO("split_100", Split100);

// split_100_streaming_tokenize: a 100-line text, tokenized and streamed.
class Split100Tokenize final : public RoutingRun {
 public:
  Split100Tokenize() : RoutingRun([this](RouteBuilder& b) { splitTokenizeRoute(b, noop_); }) {}
  void once() override { check(producer_.sendBody("direct:lines", lines_).has_value(), "send"); }

 private:
  Value lines_ = hundredLines();
};
DROMEDARY_SCENARIO("split_100_streaming_tokenize", Split100Tokenize);

// multicast_3: three no-op branches, a copy of a small message each (Camel: 6,704 B).
class Multicast3 final : public RoutingRun {
 public:
  Multicast3() : RoutingRun([this](RouteBuilder& b) { multicast3Route(b, noop_); }) {}
  void once() override {
    check(producer_.sendBodyAndHeaders("direct:multicast", "order-1", headers_).has_value(),
          "send");
  }

 private:
  Headers headers_{{"type", "order"}, {"amount", 500}};
};
DROMEDARY_SCENARIO("multicast_3", Multicast3);

// aggregate_10: one message into 10-message groups (a tenth of them complete a group).
class Aggregate10 final : public RoutingRun {
 public:
  Aggregate10() : RoutingRun([this](RouteBuilder& b) { aggregate10Route(b, noop_); }) {}
  void once() override {
    headers_.set("group", static_cast<int64_t>(n_++ / 10));
    check(producer_.sendBodyAndHeaders("direct:aggregate", "order-1", headers_).has_value(),
          "send");
  }

 private:
  Headers headers_;
  int64_t n_ = 0;
};
DROMEDARY_SCENARIO("aggregate_10", Aggregate10);

// remove_headers_pattern: 12 headers, removeHeaders("Camel*"); includes setting the 12.
class RemoveHeadersPattern final : public RoutingRun {
 public:
  RemoveHeadersPattern()
      : RoutingRun([this](RouteBuilder& b) {
          b.from("direct:strip").removeHeaders("Camel*").process(noop_);
        }) {
    for (int i = 0; i < 6; ++i) {
      headers_.set("CamelHeader" + std::to_string(i), i);
      headers_.set("app-header-" + std::to_string(i), i);
    }
  }
  void once() override {
    check(producer_.sendBodyAndHeaders("direct:strip", "order-1", headers_).has_value(), "send");
  }

 private:
  Headers headers_;
};
DROMEDARY_SCENARIO("remove_headers_pattern", RemoveHeadersPattern);

// to_dynamic: toD with a URI from a header, to a direct route (Camel re-normalises the URI
// of toD/recipientList per exchange: 49 ns and 216 B for mock:x).
class ToDynamic final : public RoutingRun {
 public:
  ToDynamic()
      : RoutingRun([this](RouteBuilder& b) {
          b.from("direct:dyn").toD(header("target"));
          b.from("direct:target").process(noop_);
        }) {}
  void once() override {
    check(producer_.sendBodyAndHeaders("direct:dyn", "order-1", headers_).has_value(), "send");
  }

 private:
  Headers headers_{{"target", "direct:target"}};
};
DROMEDARY_SCENARIO("to_dynamic", ToDynamic);

// convert_user_type: a string converted to a user type through the registry (Camel's
// String -> enum conversion scans its registry on every call: 895 ns and 1,480 B).
enum class Level { Info, Warn };
class ConvertUserType final : public ScenarioRun {
 public:
  ConvertUserType() {
    TypeConverterRegistry::global().add<std::string, Level>(
        [](const std::string& s) -> std::optional<Level> {
          if (s == "INFO") return Level::Info;
          if (s == "WARN") return Level::Warn;
          return std::nullopt;
        });
  }
  void once() override {
    auto level = value_.tryAs<Level>();
    check(level.has_value(), "convert");
  }

 private:
  Value value_{"INFO"};
};
DROMEDARY_SCENARIO("convert_user_type", ConvertUserType);

// convert_string_to_long: the built-in conversion, for comparison.
class ConvertStringToLong final : public ScenarioRun {
 public:
  void once() override { check(value_.tryAs<int64_t>().has_value(), "convert"); }

 private:
  Value value_{"12345"};
};
DROMEDARY_SCENARIO("convert_string_to_long", ConvertStringToLong);

}  // namespace
}  // namespace dromedary::bench
