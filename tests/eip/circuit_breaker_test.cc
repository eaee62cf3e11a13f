// SPDX-License-Identifier: Apache-2.0
// circuitBreaker / onFallback in the C++ DSL: Camel's results and exchange properties, the
// breaker opening, refusing, trying again half open and closing, timeouts on a virtual clock,
// the bulkhead, recorded and ignored exception types, and the state in the statistics.
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/virtual_time_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

bool flag(const Exchange& ex, std::string_view name) {
  const Value* v = ex.getProperty(name);
  return v && v->as<bool>();
}

std::string text(const Exchange& ex, std::string_view name) {
  const Value* v = ex.getProperty(name);
  return v ? v->as<std::string>() : std::string("(none)");
}

// The breaker's state and counts, as the route's statistics show them.
std::map<std::string, std::string> detailsOf(Context& context, std::string_view route,
                                             std::string_view node) {
  auto stats = context.routeStatistics(route);
  if (!stats) return {};
  for (const ProcessorStats& p : stats->processors) {
    if (p.id == node) return {p.details.begin(), p.details.end()};
  }
  return {};
}

// A breaker that opens after 4 calls of which half failed.
CircuitBreakerConfig smallWindow() {
  CircuitBreakerConfig c;
  c.slidingWindowSize = 4;
  c.minimumNumberOfCalls = 4;
  c.waitDurationInOpenState = 10s;
  c.permittedNumberOfCallsInHalfOpenState = 2;
  return c;
}

TEST(CircuitBreakerTest, ASuccessfulCallGivesTheExchangeItsResult) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .circuitBreaker()
        .setBody(simple("${body}-called"))
        .setProperty("inside", constant("yes"))
        .onFallback()
        .setBody(constant("fallback"))
        .end()
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "x-called");
  EXPECT_EQ(text(ex, "inside"), "yes");
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseSuccessfulExecution"));
  EXPECT_FALSE(flag(ex, "CamelCircuitBreakerResponseFromFallback"));
  EXPECT_EQ(text(ex, "CamelCircuitBreakerState"), "CLOSED");
}

TEST(CircuitBreakerTest, AFailedCallRunsTheFallbackOnTheMessageAsItCameIn) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .circuitBreaker()
        .setBody(constant("changed inside"))
        .throwException("java.io.IOException", "service down")
        .onFallback()
        .setBody(simple("${body} / ${exception.message}"))
        .end()
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "original"));
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "original / service down");
  EXPECT_FALSE(flag(ex, "CamelCircuitBreakerResponseSuccessfulExecution"));
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseFromFallback"));
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseShortCircuited"));
  EXPECT_NE(text(ex, "CamelExceptionCaught").find("service down"), std::string::npos);
}

TEST(CircuitBreakerTest, WithoutAFallbackTheFailureGoesToTheRoutesErrorHandler) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"java.io.IOException"})
        .handled(true)
        .to("mock:handled")
        .end()
        .circuitBreaker()
        .throwException("java.io.IOException", "service down")
        .end()
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  ASSERT_EQ(h.mock("mock:handled").receivedCount(), 1u);
  const Exchange& ex = *h.mock("mock:handled").receivedExchanges()[0];
  EXPECT_FALSE(flag(ex, "CamelCircuitBreakerResponseSuccessfulExecution"));
  EXPECT_FALSE(flag(ex, "CamelCircuitBreakerResponseFromFallback"));
}

TEST(CircuitBreakerTest, TheBreakerOpensAndThenRefusesWithoutRunningTheSteps) {
  RouteHarness h;
  int calls = 0;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .circuitBreaker(smallWindow())
        .process([&](Exchange&) {
          ++calls;
          throw std::runtime_error("down");
        })
        .end()
        .id("cb")
        .to("mock:out");
  });
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(detailsOf(h.context, "route1", "cb")["circuitBreakerState"], "OPEN");
  // Open, no fallback, no throwExceptionWhenHalfOpenOrOpenState: the exchange goes on.
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(calls, 4);
  const Exchange& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseShortCircuited"));
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseRejected"));
  EXPECT_EQ(text(ex, "CamelCircuitBreakerState"), "OPEN");
  EXPECT_EQ(detailsOf(h.context, "route1", "cb")["notPermittedCalls"], "1");
}

TEST(CircuitBreakerTest, ARefusedCallFailsWhenAskedToThrow) {
  RouteHarness h;
  CircuitBreakerConfig c = smallWindow();
  c.throwExceptionWhenHalfOpenOrOpenState = true;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"io.github.resilience4j.circuitbreaker.CallNotPermittedException"})
        .handled(true)
        .to("mock:refused")
        .end()
        .circuitBreaker(c)
        .throwException("java.io.IOException", "down")
        .end();
  });
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(h.producer.sendBody("direct:in", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  ASSERT_EQ(h.mock("mock:refused").receivedCount(), 1u);
  EXPECT_NE(text(*h.mock("mock:refused").receivedExchanges()[0], "CamelExceptionCaught")
                .find("is OPEN and does not permit further calls"),
            std::string::npos);
}

TEST(CircuitBreakerTest, HalfOpenTrialCallsCloseTheBreakerAgain) {
  VirtualTimeHarness harness;
  RouteHarness& h = harness.routes;
  bool down = true;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .circuitBreaker(smallWindow())
        .process([&](Exchange&) {
          if (down) throw std::runtime_error("down");
        })
        .onFallback()
        .setBody(constant("fallback"))
        .end()
        .id("cb")
        .to("mock:out");
  });
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(detailsOf(h.context, "route1", "cb")["circuitBreakerState"], "OPEN");
  down = false;
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));  // still open: refused, to the fallback
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().back()->message().body().as<std::string>(),
            "fallback");
  harness.clock->advance(10s);
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));  // the first trial call
  EXPECT_EQ(detailsOf(h.context, "route1", "cb")["circuitBreakerState"], "HALF_OPEN");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));  // the second: both succeeded
  EXPECT_EQ(detailsOf(h.context, "route1", "cb")["circuitBreakerState"], "CLOSED");
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().back()->message().body().as<std::string>(), "x");
}

TEST(CircuitBreakerTest, ACallOverItsTimeoutGoesToTheFallbackAndItsLateResultIsDropped) {
  VirtualTimeHarness harness;
  RouteHarness& h = harness.routes;
  CircuitBreakerConfig c;
  c.timeoutEnabled = true;
  c.timeoutDuration = 100ms;
  h.start([&](RouteBuilder& b) {
    b.from("timer:once?delay=0&repeatCount=1")
        .setBody(constant("original"))
        .circuitBreaker(c)
        .delay(5000ms)
        .setBody(constant("late"))
        .to("mock:late")
        .onFallback()
        .setBody(simple("fallback: ${exception.message}"))
        .end()
        .to("mock:out");
  });
  harness.clock->advance(99ms);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  harness.clock->advance(2ms);
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  const Exchange& ex = *h.mock("mock:out").receivedExchanges()[0];
  EXPECT_EQ(ex.message().body().as<std::string>(),
            "fallback: TimeLimiter 'circuitBreaker1' recorded a timeout exception after 100 ms");
  EXPECT_TRUE(flag(ex, "CamelCircuitBreakerResponseFromFallback"));
  harness.clock->advance(5s);  // the late call ends and is let go
  EXPECT_EQ(h.mock("mock:late").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

TEST(CircuitBreakerTest, ATimeoutWithoutFallbackFailsWithJavasTimeoutException) {
  VirtualTimeHarness harness;
  RouteHarness& h = harness.routes;
  CircuitBreakerConfig c;
  c.timeoutEnabled = true;
  c.timeoutDuration = 100ms;
  h.start([&](RouteBuilder& b) {
    b.from("timer:once?delay=0&repeatCount=1")
        .onException({"java.util.concurrent.TimeoutException"})
        .handled(true)
        .to("mock:timeout")
        .end()
        .circuitBreaker(c)
        .delay(5000ms)
        .end()
        .to("mock:out");
  });
  harness.clock->advance(1s);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  ASSERT_EQ(h.mock("mock:timeout").receivedCount(), 1u);
  EXPECT_TRUE(
      flag(*h.mock("mock:timeout").receivedExchanges()[0], "CamelCircuitBreakerResponseTimedOut"));
}

TEST(CircuitBreakerTest, ACallWithinItsTimeoutKeepsItsResult) {
  VirtualTimeHarness harness;
  RouteHarness& h = harness.routes;
  CircuitBreakerConfig c;
  c.timeoutEnabled = true;
  c.timeoutDuration = 1000ms;
  h.start([&](RouteBuilder& b) {
    b.from("timer:once?delay=0&repeatCount=1")
        .circuitBreaker(c)
        .delay(500ms)
        .setBody(constant("in time"))
        .onFallback()
        .setBody(constant("fallback"))
        .end()
        .to("mock:out");
  });
  harness.clock->advance(5s);
  ASSERT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->message().body().as<std::string>(),
            "in time");
}

TEST(CircuitBreakerTest, TheBulkheadRefusesCallsOverItsLimit) {
  VirtualTimeHarness harness;
  RouteHarness& h = harness.routes;
  CircuitBreakerConfig c;
  c.bulkheadEnabled = true;
  c.bulkheadMaxConcurrentCalls = 1;
  h.start([&](RouteBuilder& b) {
    for (const char* t : {"timer:a?delay=0&repeatCount=1", "timer:b?delay=0&repeatCount=1"}) {
      b.from(t).to("direct:guarded");
    }
    b.from("direct:guarded")
        .onException({"io.github.resilience4j.bulkhead.BulkheadFullException"})
        .handled(true)
        .to("mock:full")
        .end()
        .circuitBreaker(c)
        .delay(1000ms)
        .end()
        .to("mock:out");
  });
  harness.clock->advance(5s);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:full").receivedCount(), 1u);
}

TEST(CircuitBreakerTest, IgnoredAndUnrecordedExceptionTypesAreNotFailures) {
  RouteHarness h;
  CircuitBreakerConfig c = smallWindow();
  c.ignoreExceptions = {"java.lang.IllegalArgumentException"};
  CircuitBreakerConfig r = smallWindow();
  r.recordExceptions = {"java.io.IOException"};
  h.start([&](RouteBuilder& b) {
    b.from("direct:ignored")
        .circuitBreaker(c)
        .setBody(constant("changed"))
        .throwException("java.lang.IllegalArgumentException", "bad input")
        .end()
        .id("ignoring")
        .to("mock:ignored");
    b.from("direct:unrecorded")
        .circuitBreaker(r)
        .throwException("java.lang.IllegalArgumentException", "bad input")
        .end()
        .id("recording")
        .to("mock:unrecorded");
  });
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(h.producer.sendBody("direct:ignored", "x"));
    ASSERT_TRUE(h.producer.sendBody("direct:unrecorded", "x"));
  }
  const Exchange& ignored = *h.mock("mock:ignored").receivedExchanges().at(0);
  EXPECT_EQ(ignored.message().body().as<std::string>(), "x") << "the call's result is not kept";
  EXPECT_TRUE(flag(ignored, "CamelCircuitBreakerResponseIgnored"));
  auto ig = detailsOf(h.context, "route1", "ignoring");
  EXPECT_EQ(ig["circuitBreakerState"], "CLOSED");
  EXPECT_EQ(ig["bufferedCalls"], "0");
  auto rec = detailsOf(h.context, "route2", "recording");
  EXPECT_EQ(rec["circuitBreakerState"], "CLOSED");
  EXPECT_EQ(rec["successfulCalls"], "4") << "the window holds the last four";
  EXPECT_TRUE(flag(*h.mock("mock:unrecorded").receivedExchanges().at(0),
                   "CamelCircuitBreakerResponseSuccessfulExecution"));
}

TEST(CircuitBreakerTest, InheritErrorHandlerRedeliversInsideTheCall) {
  RouteHarness h;
  int inherited = 0, plain = 0;
  auto flaky = [](int& attempts) {
    return [&attempts](Exchange&) {
      if (++attempts < 3) throw std::runtime_error("flaky");
    };
  };
  h.start([&](RouteBuilder& b) {
    b.from("direct:inherit")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .circuitBreaker(smallWindow())
        .inheritErrorHandler()
        .process(flaky(inherited))
        .end()
        .id("inheriting");
    b.from("direct:plain")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .circuitBreaker(smallWindow())
        .process(flaky(plain))
        .end()
        .id("plain");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:inherit", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:plain", "x"));
  EXPECT_EQ(inherited, 3);
  EXPECT_EQ(plain, 3);
  // Inside, the redeliveries are part of one call; outside, each is a call of its own.
  auto in = detailsOf(h.context, "route1", "inheriting");
  EXPECT_EQ(in["bufferedCalls"], "1");
  EXPECT_EQ(in["failedCalls"], "0");
  auto out = detailsOf(h.context, "route2", "plain");
  EXPECT_EQ(out["bufferedCalls"], "3");
  EXPECT_EQ(out["failedCalls"], "2");
}

TEST(CircuitBreakerTest, BadOptionsFailTheRouteNamingThem) {
  RouteHarness h;
  CircuitBreakerConfig c;
  c.failureRateThreshold = 0;
  auto added = h.context.addRoutes(
      [&](RouteBuilder& b) { b.from("direct:in").circuitBreaker(c).to("mock:out").end(); });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("failureRateThreshold must be more than 0 and at most "
                                         "100, not 0"),
            std::string::npos)
      << started.error().message;
}

TEST(CircuitBreakerTest, DslMisuseIsReported) {
  RouteHarness h;
  auto added =
      h.context.addRoutes([](RouteBuilder& b) { b.from("direct:in").onFallback().to("mock:out"); });
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("onFallback() without an open circuitBreaker()"),
            std::string::npos)
      << added.error().message;
}

}  // namespace
}  // namespace dromedary::testing
