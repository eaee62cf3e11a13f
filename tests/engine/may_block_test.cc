// SPDX-License-Identifier: Apache-2.0
// Processor::mayBlock of a route's entry: false only when nothing in the route can wait, the
// condition for a consumer to run the route on its I/O thread (amqp).
#include <gtest/gtest.h>

#include <dromedary/dromedary.h>

#include "support/probe_component.h"

namespace dromedary {
namespace {

// A processor that says it returns promptly.
class Prompt final : public Processor {
 public:
  Status process(Exchange&) override { return Status::Continue; }
  bool mayBlock() const noexcept override { return false; }
};

// Whether the route configured from probe:in may block, as its consumer sees it.
bool routeMayBlock(const std::function<void(RouteBuilder&)>& configure) {
  setLogLevel(LoggingLevel::Warn);
  Context context;
  registerBuiltinComponents(context);
  auto probe = std::make_unique<testing::ProbeComponent>();
  testing::ProbeComponent& component = *probe;
  context.addComponent(std::move(probe));
  auto added = context.addRoutes(configure);
  EXPECT_TRUE(added) << added.error().toString();
  auto started = context.start();
  EXPECT_TRUE(started) << started.error().toString();
  Processor* entry = component.entry();
  EXPECT_NE(entry, nullptr);
  bool answer = entry ? entry->mayBlock() : true;
  context.stop();
  return answer;
}

TEST(MayBlockTest, InMemoryStepsCannotBlock) {
  EXPECT_FALSE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .setHeader("seen", constant(true))
        .setBody(simple("Hello ${body}"))
        .filter(simple("${header.type} == 'order'"))
          .log("an order: ${body}")
        .end()
        .choice()
          .when(header("amount") > 100).to("log:big")
          .otherwise().removeHeaders("Camel*")
        .end()
        .transform(simple("${body} done"))
        .process(std::make_shared<Prompt>());
  }));
}

TEST(MayBlockTest, AUserProcessorMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in").setHeader("a", constant(1)).process([](Exchange&) {});
  }));
}

TEST(MayBlockTest, AUserFunctionInAPredicateMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .filter(!predicate([](const Exchange&) { return true; }))
          .to("log:x")
        .end();
  }));
}

TEST(MayBlockTest, AUserFunctionInANestedBlockMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .choice()
          .when(header("a") == 1).setBody(expression([](const Exchange&) { return Value(2); }))
        .end();
  }));
}

TEST(MayBlockTest, CallingAnotherRouteMayBlock) {
  // Whatever the called route is now: it can be replaced by one that blocks.
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in").to("direct:next");
    b.from("direct:next").setBody(constant("x"));
  }));
}

TEST(MayBlockTest, AnOnRedeliveryProcessorMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .errorHandler(defaultErrorHandler().maximumRedeliveries(2).onRedelivery(
            processorOf([](Exchange&) {})))
        .setBody(constant("x"));
  }));
}

TEST(MayBlockTest, AnOnExceptionOfBuiltInStepsCannotBlock) {
  EXPECT_FALSE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .onException().onWhen(header("retry") == true).handled(true)
          .transform(simple("Sorry: ${exception.message}"))
        .end()
        .setBody(constant("x"));
  }));
}

TEST(MayBlockTest, AUserFunctionInAnOnExceptionsOnWhenMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .onException().onWhen(predicate([](const Exchange&) { return true; })).handled(true)
          .transform(constant("handled"))
        .end()
        .setBody(constant("x"));
  }));
}

TEST(MayBlockTest, AUserFunctionInADoCatchsOnWhenMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in")
        .doTry()
          .setBody(constant("x"))
        .doCatch().onWhen(predicate([](const Exchange&) { return true; }))
          .setBody(constant("caught"))
        .end();
  }));
}

TEST(MayBlockTest, AnOnCompletionMayBlock) {
  EXPECT_TRUE(routeMayBlock([](RouteBuilder& b) {
    b.from("probe:in").onCompletion().to("log:done").end().setBody(constant("x"));
  }));
}

}  // namespace
}  // namespace dromedary
