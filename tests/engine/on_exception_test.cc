// SPDX-License-Identifier: Apache-2.0
// onException: closest-type selection, onWhen, handled / continued / not handled, per-clause
// redelivery, route-scoped before builder-scoped, and type names resolved at start.
#include <gtest/gtest.h>

#include <stdexcept>

#include <dromedary/core/exception_fields.h>
#include <dromedary/engine/exception_types.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

struct PaymentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct CardDeclined : PaymentError {
  using PaymentError::PaymentError;
};

// A failure that says which registered type it is, whatever its C++ class (as a component's
// connection failures are java.net.ConnectException, an IOException).
struct NamedFailure : std::runtime_error, NamedTypeException {
  using std::runtime_error::runtime_error;
  std::string_view exceptionType() const noexcept override { return "com.acme.QuotaExceeded"; }
};

// A failure whose fields expressions read: ${exception.limit}.
struct QuotaExceeded : std::runtime_error, ExceptionWithFields {
  QuotaExceeded() : std::runtime_error("over quota") {}
  const Value* field(std::string_view name) const noexcept override {
    return name == "limit" ? &limit : nullptr;
  }
  std::string_view fieldNames() const noexcept override { return "limit"; }
  Value limit{int64_t{100}};
};

template <class E>
std::function<void(Exchange&)> thrower(const char* what) {
  return [what](Exchange&) { throw E(what); };
}

class OnExceptionTest : public ::testing::Test {
 protected:
  OnExceptionTest() {
    EXPECT_TRUE(h.context.registerExceptionType<PaymentError>("com.acme.PaymentError",
                                                              "std::runtime_error"));
    EXPECT_TRUE(h.context.registerExceptionType<CardDeclined>("com.acme.CardDeclined",
                                                              "com.acme.PaymentError"));
  }
  RouteHarness h;
};

TEST_F(OnExceptionTest, HandledEndsTheExchangeWithTheClauseReply) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in").routeId("r")
        .onException({"std::runtime_error"}).handled(true)
            .transform(simple("Sorry: ${exception.message}"))
        .end()
        .process(thrower<std::runtime_error>("out of stock"))
        .to("mock:after");
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(*reply, Value("Sorry: out of stock"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
  EXPECT_EQ(h.context.failureCounts("r").handled, 1u);
}

TEST_F(OnExceptionTest, HandledInACalledRouteEndsTheCallerToo) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in").to("direct:sub").to("mock:after");
    b.from("direct:sub")
        .onException().handled(true).transform(constant("handled")).end()
        .process(thrower<std::runtime_error>("x"));
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, Value("handled"));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 0u);
}

TEST_F(OnExceptionTest, ContinuedGoesOnAfterTheFailingStep) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"std::exception"}).continued(true).setHeader("noted", constant(true)).end()
        .process(thrower<std::logic_error>("ignored"))
        .to("mock:after");
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_TRUE(reply);
  auto after = h.mock("mock:after").receivedExchanges();
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(*after[0]->message().getHeader("noted"), Value(true));
  EXPECT_NE(after[0]->getProperty("CamelExceptionCaught"), nullptr);
}

TEST_F(OnExceptionTest, NotHandledRunsTheStepsThenTheCallerSeesTheFailure) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"std::runtime_error"}).to("mock:error").end()
        .process(thrower<std::runtime_error>("broken"));
  });
  auto reply = h.producer.requestBody("direct:in", "order");
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("broken"), std::string::npos);
  EXPECT_EQ(h.mock("mock:error").receivedCount(), 1u);
}

TEST_F(OnExceptionTest, TheClosestTypeInTheHierarchyWins) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"java.lang.Exception"}).handled(true).setBody(constant("any")).end()
        .onException({"std::runtime_error"}).handled(true).setBody(constant("runtime")).end()
        .onException({"com.acme.PaymentError"}).handled(true).setBody(constant("payment")).end()
        .choice()
          .when(simple("${body} == 'declined'")).process(thrower<CardDeclined>("no"))
          .when(simple("${body} == 'payment'")).process(thrower<PaymentError>("no"))
          .when(simple("${body} == 'runtime'")).process(thrower<std::overflow_error>("no"))
          .when(simple("${body} == 'logic'")).process(thrower<std::logic_error>("no"))
          .when(simple("${body} == 'int'")).process([](Exchange&) { throw 42; })
          .otherwise().to("direct:nobody?block=false")
        .end();
  });
  auto reply = [&](const char* body) { return h.producer.requestBody("direct:in", body).value(); };
  EXPECT_EQ(reply("declined"), Value("payment")) << "CardDeclined is a PaymentError";
  EXPECT_EQ(reply("payment"), Value("payment"));
  EXPECT_EQ(reply("runtime"), Value("runtime")) << "overflow_error is a runtime_error";
  EXPECT_EQ(reply("logic"), Value("any"));
  EXPECT_EQ(reply("int"), Value("any")) << "not even a std::exception";
  EXPECT_EQ(reply("other"), Value("any")) << "an engine error (no consumer on direct:nobody)";
}

TEST_F(OnExceptionTest, EngineErrorsHaveCamelNames) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"org.apache.camel.component.direct.DirectConsumerNotAvailableException"})
            .handled(true).setBody(constant("no consumer"))
        .end()
        .to("direct:nobody?block=false");
  });
  EXPECT_EQ(h.producer.requestBody("direct:in", "x").value(), Value("no consumer"));
}

TEST_F(OnExceptionTest, OnWhenChoosesBetweenClausesOfTheSameType) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException({"std::runtime_error"}).onWhen(header("vip") == true)
            .handled(true).setBody(constant("vip"))
        .end()
        .onException({"std::runtime_error"}).handled(true).setBody(constant("normal")).end()
        .process(thrower<std::runtime_error>("x"));
  });
  EXPECT_EQ(h.producer.requestBodyAndHeader("direct:in", "a", "vip", true).value(), Value("vip"));
  EXPECT_EQ(h.producer.requestBodyAndHeader("direct:in", "a", "vip", false).value(),
            Value("normal"));
}

TEST_F(OnExceptionTest, TheClauseRedeliveryPolicyOverridesTheHandlers) {
  int runs = 0;
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler().redeliveryDelay(0ms));  // no redelivery by default
    b.from("direct:in")
        .onException({"com.acme.PaymentError"}).maximumRedeliveries(2).handled(true)
            .setBody(simple("after ${header.CamelRedeliveryCounter}"))
        .end()
        .process([&](Exchange&) {
          ++runs;
          throw PaymentError("x");
        });
  });
  auto reply = h.producer.requestBody("direct:in", "a");
  EXPECT_EQ(runs, 3);
  // Handled: the redelivery headers are removed before the clause's steps run.
  EXPECT_EQ(reply.value(), Value("after "));
}

TEST_F(OnExceptionTest, RouteScopedClausesComeBeforeTheBuildersAtTheSameDistance) {
  h.start([](RouteBuilder& b) {
    b.onException({"std::runtime_error"}).handled(true).setBody(constant("builder")).end();
    b.from("direct:a")
        .onException({"std::runtime_error"}).handled(true).setBody(constant("route")).end()
        .process(thrower<std::runtime_error>("x"));
    b.from("direct:b").process(thrower<std::runtime_error>("x"));
  });
  EXPECT_EQ(h.producer.requestBody("direct:a", "x").value(), Value("route"));
  EXPECT_EQ(h.producer.requestBody("direct:b", "x").value(), Value("builder"));
}

TEST_F(OnExceptionTest, UseOriginalMessageInAClause) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException().useOriginalMessage().handled(true).to("mock:error").end()
        .transform(constant("changed"))
        .process(thrower<std::runtime_error>("x"));
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "original"));
  EXPECT_EQ(h.mock("mock:error").receivedBodies(), (std::vector<Value>{Value("original")}));
}

TEST_F(OnExceptionTest, AFailureInsideTheClauseFailsTheExchangeWithTheNewError) {
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .onException().handled(true).process(thrower<std::logic_error>("while handling")).end()
        .process(thrower<std::runtime_error>("first"));
  });
  auto sent = h.producer.sendBody("direct:in", "x");
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().message.find("while handling"), std::string::npos);
}

TEST_F(OnExceptionTest, UnknownTypeFailsAtStartWithASuggestion) {
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").onException({"std::runtime_eror"}).handled(true).end()
        .to("mock:out");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "unknown exception type 'std::runtime_eror' in onException; did you mean "
            "'std::runtime_error'?; register application exceptions with "
            "Context::registerExceptionType (in route 'r')");
}

TEST_F(OnExceptionTest, AnExceptionThatNamesItsTypeIsMatchedAsThatTypeAndItsParents) {
  ASSERT_TRUE(h.context.registerExceptionType("com.acme.QuotaExceeded", "java.io.IOException",
                                              nullptr));
  h.start([](RouteBuilder& b) {
    b.from("direct:io")
        .onException({"java.io.IOException"}).handled(true).setBody(constant("io")).end()
        .process(thrower<NamedFailure>("quota"));
    b.from("direct:exact")
        .onException({"std::runtime_error"}).handled(true).setBody(constant("runtime")).end()
        .onException({"com.acme.QuotaExceeded"}).handled(true).setBody(constant("quota")).end()
        .process(thrower<NamedFailure>("quota"));
  });
  EXPECT_EQ(*h.producer.requestBody("direct:io", "x"), Value("io"));
  EXPECT_EQ(*h.producer.requestBody("direct:exact", "x"), Value("quota"));
}

TEST_F(OnExceptionTest, SimpleReadsTheFieldsOfTheExceptionBeingHandled) {
  h.start([](RouteBuilder& b) {
    b.from("direct:field")
        .onException().handled(true)
            .setBody(simple("limit ${exception.limit} ${exception.getLimit()}"))
        .end()
        .process([](Exchange&) { throw QuotaExceeded(); });
    b.from("direct:typo")
        .onException().handled(true).setBody(simple("${exception.limmit}")).end()
        .process([](Exchange&) { throw QuotaExceeded(); });
    b.from("direct:plain")
        .onException().handled(true).setBody(simple("[${exception.limit}]")).end()
        .process(thrower<std::runtime_error>("no fields"));
  });
  EXPECT_EQ(*h.producer.requestBody("direct:field", "x"), Value("limit 100 100"));
  auto typo = h.producer.requestBody("direct:typo", "x");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("the exception has no field 'limmit' (it has: limit)"),
            std::string::npos)
      << typo.error().message;
  EXPECT_EQ(*h.producer.requestBody("direct:plain", "x"), Value("[]"));
}

TEST_F(OnExceptionTest, RegisteringUnderAnUnknownParentFails) {
  auto r = h.context.registerExceptionType<PaymentError>("com.acme.Other", "com.acme.Nope");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "cannot register exception type 'com.acme.Other': its parent 'com.acme.Nope' is not "
            "a registered exception type");
}

TEST_F(OnExceptionTest, MisplacedClausesAreReportedByAddRoutes) {
  auto first_error = [&](const std::function<void(RouteBuilder&)>& configure) {
    Context c;
    auto added = c.addRoutes(configure);
    return added ? std::string() : added.error().message;
  };
  EXPECT_EQ(first_error([](RouteBuilder& b) {
              b.from("direct:a").routeId("r").filter(constant(true)).onException().end().end();
            }),
            "onException() must be given at the top of a route, not inside a block (in route 'r' "
            "from 'direct:a')");
  EXPECT_EQ(first_error([](RouteBuilder& b) {
              b.from("direct:a").routeId("r").onCompleteOnly();
            }),
            "onCompleteOnly() outside onCompletion() (in route 'r' from 'direct:a')");
  EXPECT_EQ(first_error([](RouteBuilder& b) {
              b.from("direct:a").routeId("r").doTry().to("mock:a").doFinally().to("mock:b")
                  .doFinally().end();
            }),
            "doFinally() given twice in one doTry() (in route 'r' from 'direct:a')");
  EXPECT_EQ(first_error([](RouteBuilder& b) {
              b.from("direct:a").routeId("r").onWhen(constant(true));
            }),
            "onWhen() outside onException(), doCatch(), onCompletion() or intercept() (in "
            "route 'r' from 'direct:a')");
}

TEST_F(OnExceptionTest, HandledAndContinuedTogetherFailAtStart) {
  ASSERT_TRUE(h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").onException().handled(true).continued(true).end()
        .to("mock:out");
  }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message, "onException cannot be both handled and continued (in route 'r')");
}

TEST_F(OnExceptionTest, MisplacedOptionsAreReportedByAddRoutes) {
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("direct:in").routeId("r").handled(true).to("mock:out");
  });
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().message,
            "handled() outside an onException() clause (in route 'r' from 'direct:in')");
}

}  // namespace
}  // namespace dromedary
