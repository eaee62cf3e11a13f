// SPDX-License-Identifier: Apache-2.0
// Processor::mayBlock of a route's entry: false only when nothing in the route can wait, the
// condition for a consumer to run the route on its I/O thread (amqp).
#include <gtest/gtest.h>

#include <dromedary/dromedary.h>

namespace dromedary {
namespace {

// probe:NAME — a consumer that keeps the route entry it was created with, and does nothing.
class ProbeEndpoint final : public Endpoint {
 public:
  ProbeEndpoint(Component& component, Uri uri, EndpointOptions options, Processor** entry)
      : Endpoint(component, std::move(uri), std::move(options)), entry_(entry) {}
  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidUri, "probe: endpoints only consume");
  }
  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    *entry_ = &processor;
    struct Idle final : Consumer {
      Result<void> start() override { return {}; }
      void stop() noexcept override {}
    };
    return std::unique_ptr<Consumer>(new Idle);
  }

 private:
  Processor** entry_;
};

class ProbeComponent final : public Component {
 public:
  explicit ProbeComponent(Processor** entry) : entry_(entry) {}
  std::string_view scheme() const override { return "probe"; }
  std::span<const OptionSpec> endpointOptions() const override { return {}; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    return std::unique_ptr<Endpoint>(new ProbeEndpoint(*this, uri, std::move(options), entry_));
  }

 private:
  Processor** entry_;
};

// A processor that says it returns promptly.
class Prompt final : public Processor {
 public:
  Status process(Exchange&) override { return Status::Continue; }
  bool mayBlock() const noexcept override { return false; }
};

// Whether the route configured from probe:in may block, as its consumer sees it.
bool routeMayBlock(const std::function<void(RouteBuilder&)>& configure) {
  setLogLevel(LoggingLevel::Warn);
  Processor* entry = nullptr;
  Context context;
  registerBuiltinComponents(context);
  context.addComponent(std::make_unique<ProbeComponent>(&entry));
  auto added = context.addRoutes(configure);
  EXPECT_TRUE(added) << added.error().toString();
  auto started = context.start();
  EXPECT_TRUE(started) << started.error().toString();
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
