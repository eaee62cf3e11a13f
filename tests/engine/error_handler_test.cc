// SPDX-License-Identifier: Apache-2.0
// Error handlers: the default one, the dead letter channel, noErrorHandler, and redelivery.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "support/log_capture.h"
#include "support/route_harness.h"
#include "support/virtual_time_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::LogCapture;
using testing::RouteHarness;

// Throws the first `failures` times it runs, after changing the message (which a
// redelivery must undo); records the body and headers it saw each time.
struct Flaky {
  explicit Flaky(int failures) : failuresLeft(failures) {}
  std::function<void(Exchange&)> processor() {
    return [this](Exchange& ex) {
      seenBodies.push_back(ex.message().body().as<std::string>());
      seenMarks.push_back(ex.message().getHeader("mark") != nullptr);
      ex.message().setBody("changed by the failing step");
      ex.message().setHeader("mark", true);
      ++runs;
      if (failuresLeft-- > 0) throw std::runtime_error("flaky failure");
      ex.message().setBody("done");
      ex.message().removeHeader("mark");
    };
  }
  int failuresLeft;
  int runs = 0;
  std::vector<std::string> seenBodies;
  std::vector<bool> seenMarks;
};

TEST(ErrorHandlerTest, DefaultHandlerLogsTheFailureWithHistoryAndTheCallerSeesIt) {
  LogCapture logs;
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("orders").setHeader("a", constant(1))
        .process([](Exchange&) { throw std::runtime_error("no stock"); }).id("reserve")
        .to("mock:out");
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("no stock"), std::string::npos);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 0u);
  auto lines = logs.find(LoggingLevel::Error, "Exhausted after delivery attempt: 1 caught:");
  ASSERT_EQ(lines.size(), 1u);
  const std::string& text = lines[0].text;
  EXPECT_NE(text.find("no stock"), std::string::npos) << text;
  EXPECT_NE(text.find("Message History"), std::string::npos) << text;
  EXPECT_NE(text.find("orders/reserve"), std::string::npos) << text;
  EXPECT_NE(text.find("from[direct:in]"), std::string::npos) << text;
  EXPECT_EQ(h.context.failureCounts("orders").failed, 1u);
}

TEST(ErrorHandlerTest, MessageHistoryListsEveryStepWhenKept) {
  LogCapture logs;
  RouteHarness h;
  h.context.setMessageHistory(true);
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").setHeader("a", constant(1)).id("first")
        .to("direct:sub").id("call");
    b.from("direct:sub").routeId("sub")
        .process([](Exchange&) { throw std::runtime_error("deep"); }).id("boom");
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  auto lines = logs.find(LoggingLevel::Error, "Message History\n");
  ASSERT_FALSE(lines.empty());
  const std::string& text = lines[0].text;
  EXPECT_NE(text.find("r/first"), std::string::npos) << text;
  EXPECT_NE(text.find("r/call"), std::string::npos) << text;
  EXPECT_NE(text.find("sub/boom"), std::string::npos) << text;
}

TEST(ErrorHandlerTest, RedeliveryRestoresTheMessageAsItWasBeforeTheFailingStep) {
  RouteHarness h;
  Flaky flaky(2);
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(0ms));
    b.from("direct:in").setBody(constant("original")).process(flaky.processor()).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(flaky.runs, 3);
  EXPECT_EQ(flaky.seenBodies, (std::vector<std::string>{"original", "original", "original"}));
  EXPECT_EQ(flaky.seenMarks, (std::vector<bool>{false, false, false}));
  auto received = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(received.size(), 1u);
  const Message& m = received[0]->message();
  EXPECT_EQ(m.body(), Value("done"));
  EXPECT_EQ(*m.getHeader("CamelRedelivered"), Value(true));
  EXPECT_EQ(*m.getHeader("CamelRedeliveryCounter"), Value(2));
  EXPECT_EQ(*m.getHeader("CamelRedeliveryMaxCounter"), Value(3));
}

TEST(ErrorHandlerTest, ExhaustedRedeliveriesFailTheCaller) {
  RouteHarness h;
  Flaky flaky(100);
  h.start([&](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .process(flaky.processor());
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("flaky failure"), std::string::npos);
  EXPECT_EQ(flaky.runs, 3);
  auto counts = h.context.failureCounts("r");
  EXPECT_EQ(counts.redeliveries, 2u);
  EXPECT_EQ(counts.failed, 1u);
}

TEST(ErrorHandlerTest, RedeliveryInsideABlockRerunsOnlyTheFailingStep) {
  RouteHarness h;
  Flaky flaky(1);
  std::atomic<int> before{0};
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler().maximumRedeliveries(1).redeliveryDelay(0ms));
    b.from("direct:in")
        .filter(constant(true))
        .process([&](Exchange&) { ++before; })
        .process(flaky.processor())
        .end()
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(before.load(), 1);
  EXPECT_EQ(flaky.runs, 2);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

TEST(ErrorHandlerTest, RetryWhileDecidesInsteadOfTheMaximum) {
  RouteHarness h;
  Flaky flaky(100);
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler()
                       .maximumRedeliveries(10)
                       .redeliveryDelay(0ms)
                       .retryWhile(simple("${header.CamelRedeliveryCounter} < 3")));
    b.from("direct:in").process(flaky.processor());
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(flaky.runs, 3);  // the third failure has counter 3: no more
}

TEST(ErrorHandlerTest, OnRedeliveryRunsBeforeEachRedelivery) {
  RouteHarness h;
  Flaky flaky(2);
  std::vector<int64_t> counters;
  auto on_redelivery = processorOf([&](Exchange& ex) {
    counters.push_back(ex.message().getHeader("CamelRedeliveryCounter")->as<int64_t>());
  });
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler()
                       .maximumRedeliveries(5)
                       .redeliveryDelay(0ms)
                       .onRedelivery(on_redelivery));
    b.from("direct:in").process(flaky.processor());
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(counters, (std::vector<int64_t>{1, 2}));
}

TEST(ErrorHandlerTest, DelayedRedeliveryWaitsOnTheContextClockHoldingNoThread) {
  testing::VirtualTimeHarness vt;
  RouteHarness& h = vt.routes;
  Flaky flaky(2);
  h.start([&](RouteBuilder& b) {
    b.errorHandler(deadLetterChannel("mock:dead")
                       .maximumRedeliveries(3)
                       .redeliveryDelay(1000ms)
                       .useExponentialBackOff());
    b.from("timer:t?period=1h&delay=0&repeatCount=1")
        .setBody(constant("tick"))
        .process(flaky.processor())
        .to("mock:out");
  });
  vt.clock->advance(1ms);  // the timer fires at 0 and the step fails at once
  EXPECT_EQ(flaky.runs, 1);
  vt.clock->advance(998ms);
  EXPECT_EQ(flaky.runs, 1) << "the first redelivery waits 1000 ms";
  vt.clock->advance(1ms);
  EXPECT_EQ(flaky.runs, 2);
  vt.clock->advance(1999ms);
  EXPECT_EQ(flaky.runs, 2) << "the second waits 2000 ms (exponential back-off)";
  vt.clock->advance(1ms);
  EXPECT_EQ(flaky.runs, 3);
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:dead").receivedCount(), 0u);
}

TEST(ErrorHandlerTest, DeadLetterChannelReceivesTheFailedExchangeAndTheCallerSeesSuccess) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.errorHandler(deadLetterChannel("mock:dead"));
    b.from("direct:in").routeId("orders").to("mock:before")
        .process([](Exchange& ex) {
          ex.message().setBody("half done");
          throw std::invalid_argument("bad order");
        });
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("half done"));
  auto dead = h.mock("mock:dead").receivedExchanges();
  ASSERT_EQ(dead.size(), 1u);
  const Exchange& d = *dead[0];
  EXPECT_EQ(d.message().body(), Value("half done"));
  ASSERT_NE(d.getProperty("CamelExceptionCaught"), nullptr);
  EXPECT_NE(d.getProperty("CamelExceptionCaught")->as<std::string>().find("bad order"),
            std::string::npos);
  ASSERT_NE(d.getProperty("CamelFailureRouteId"), nullptr);
  EXPECT_EQ(*d.getProperty("CamelFailureRouteId"), Value("orders"));
  ASSERT_NE(d.getProperty("CamelFailureEndpoint"), nullptr);
  EXPECT_EQ(*d.getProperty("CamelFailureEndpoint"), Value("mock:before"));
  EXPECT_EQ(h.context.failureCounts("orders").handled, 1u);
  EXPECT_EQ(h.context.failureCounts("orders").failed, 0u);
}

TEST(ErrorHandlerTest, DeadLetterUseOriginalMessageSendsTheMessageAsItEnteredTheRoute) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.errorHandler(deadLetterChannel("mock:dead").useOriginalMessage());
    b.from("direct:in").setHeader("added", constant(1)).transform(constant("transformed"))
        .to("direct:sub");
    b.from("direct:sub").process([](Exchange&) { throw std::runtime_error("x"); });
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "original", "h", Value(7)));
  auto dead = h.mock("mock:dead").receivedExchanges();
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0]->message().body(), Value("original"));
  EXPECT_EQ(*dead[0]->message().getHeader("h"), Value(7));
  EXPECT_EQ(dead[0]->message().getHeader("added"), nullptr);
}

TEST(ErrorHandlerTest, DeadLetterUseOriginalBodyKeepsTheCurrentHeaders) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.errorHandler(deadLetterChannel("mock:dead").useOriginalBody());
    b.from("direct:in").setHeader("added", constant(1)).transform(constant("transformed"))
        .process([](Exchange&) { throw std::runtime_error("x"); });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "original"));
  auto dead = h.mock("mock:dead").receivedExchanges();
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0]->message().body(), Value("original"));
  EXPECT_EQ(*dead[0]->message().getHeader("added"), Value(1));
}

TEST(ErrorHandlerTest, FailingDeadLetterEndpointIsLoggedAndCounted) {
  LogCapture logs;
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("main").errorHandler(deadLetterChannel("direct:dead"))
        .process([](Exchange&) { throw std::runtime_error("first failure"); });
    b.from("direct:dead").routeId("dead").errorHandler(noErrorHandler())
        .process([](Exchange&) { throw std::runtime_error("dead letter broken"); });
  });
  EXPECT_TRUE(h.producer.sendBody("direct:in", "x")) << "deadLetterHandleNewException=true";
  auto lines = logs.find(LoggingLevel::Warn, "New exception occurred during processing by the "
                                             "DeadLetterChannel[direct:dead]");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].text.find("dead letter broken"), std::string::npos) << lines[0].text;
  EXPECT_NE(lines[0].text.find("first failure"), std::string::npos) << lines[0].text;
  EXPECT_EQ(h.context.failureCounts("main").deadLetterFailures, 1u);
}

TEST(ErrorHandlerTest, FailingDeadLetterEndpointFailsTheCallerWhenNewExceptionsAreNotHandled) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("main")
        .errorHandler(deadLetterChannel("direct:dead").deadLetterHandleNewException(false))
        .process([](Exchange&) { throw std::runtime_error("first failure"); });
    b.from("direct:dead").errorHandler(noErrorHandler())
        .process([](Exchange&) { throw std::runtime_error("dead letter broken"); });
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("dead letter broken"), std::string::npos);
  EXPECT_EQ(h.context.failureCounts("main").deadLetterFailures, 1u);
}

TEST(ErrorHandlerTest, NoErrorHandlerLetsTheCallingRouteRedeliverItsStep) {
  RouteHarness h;
  Flaky flaky(1);
  std::vector<bool> saw_header;
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .to("direct:sub")
        .to("mock:out");
    b.from("direct:sub").errorHandler(noErrorHandler())
        .process([&](Exchange& ex) { saw_header.push_back(ex.message().getHeader("sub") != nullptr); })
        .setHeader("sub", constant(true))
        .process(flaky.processor());
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "original"));
  EXPECT_EQ(flaky.runs, 2);
  EXPECT_EQ(saw_header, (std::vector<bool>{false, false})) << "the sub route ran again from a "
                                                               "restored message";
  EXPECT_EQ(flaky.seenBodies, (std::vector<std::string>{"original", "original"}));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
}

TEST(ErrorHandlerTest, ARouteWithItsOwnHandlerOwnsItsFailures) {
  RouteHarness h;
  Flaky flaky(1);
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).redeliveryDelay(0ms))
        .to("direct:sub");
    b.from("direct:sub").process(flaky.processor());  // the default handler: no redelivery
  });
  ASSERT_FALSE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(flaky.runs, 1) << "the caller does not redeliver what the sub route gave up on";
}

TEST(ErrorHandlerTest, ContextErrorHandlerAppliesToRoutesThatSetNone) {
  RouteHarness h;
  h.context.setErrorHandler(deadLetterChannel("mock:dead"));
  h.start([](RouteBuilder& b) {
    b.from("direct:in").process([](Exchange&) { throw std::runtime_error("x"); });
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(h.mock("mock:dead").receivedCount(), 1u);
}

TEST(ErrorHandlerTest, BadPolicyFailsAtStartNamingTheRoute) {
  RouteHarness h;
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .errorHandler(defaultErrorHandler().delayPattern("1:100;x"))
        .to("mock:out");
  });
  ASSERT_TRUE(added);
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "invalid delayPattern '1:100;x' at 'x': expected groups 'attempt:delayMillis' "
            "separated by ';' with increasing attempts, e.g. '1:1000;5:5000' (in route 'r')");
}

TEST(ErrorHandlerTest, UnknownDeadLetterEndpointFailsAtStart) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").errorHandler(deadLetterChannel("nosuch:dead")).to("mock:out");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("the deadLetterChannel's endpoint"), std::string::npos)
      << started.error().message;
  EXPECT_NE(started.error().message.find("(in route 'r')"), std::string::npos);
}

}  // namespace
}  // namespace dromedary
