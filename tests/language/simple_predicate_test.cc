// SPDX-License-Identifier: Apache-2.0
// Simple predicates: every operator of Camel's documentation, its coercion rules, && and ||.
#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "support/route_harness.h"
#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimplePredicateTest = SimpleTest;

TEST_F(SimplePredicateTest, EqualsOnText) {
  message().setHeader("foo", Value("foo"));
  EXPECT_TRUE(matches("${header.foo} == 'foo'"));
  EXPECT_FALSE(matches("${header.foo} == 'FOO'"));
  EXPECT_TRUE(matches("${header.foo} == \"foo\"")) << "double quotes work too";
  EXPECT_TRUE(matches("${header.foo} == foo")) << "an unquoted right side is text";
}

TEST_F(SimplePredicateTest, EqualsIgnoreCase) {
  message().setHeader("foo", Value("FOO"));
  EXPECT_TRUE(matches("${header.foo} =~ 'foo'"));
  EXPECT_FALSE(matches("${header.foo} !=~ 'foo'"));
  EXPECT_TRUE(matches("${header.foo} !=~ 'bar'"));
}

TEST_F(SimplePredicateTest, NotEquals) {
  message().setHeader("foo", Value("a"));
  EXPECT_TRUE(matches("${header.foo} != 'b'"));
  EXPECT_FALSE(matches("${header.foo} != 'a'"));
}

TEST_F(SimplePredicateTest, NumberHeaderComparesWithQuotedOrUnquotedNumber) {
  message().setHeader("bar", Value(100));
  EXPECT_TRUE(matches("${header.bar} == '100'"));
  EXPECT_TRUE(matches("${header.bar} == 100"));
  EXPECT_TRUE(matches("${header.bar} > 99"));
  EXPECT_TRUE(matches("${header.bar} >= 100"));
  EXPECT_TRUE(matches("${header.bar} < 101"));
  EXPECT_TRUE(matches("${header.bar} <= 100"));
  EXPECT_FALSE(matches("${header.bar} > 100"));
}

TEST_F(SimplePredicateTest, TextHeaderComparesNumericallyWithANumber) {
  message().setHeader("bar", Value("150"));
  EXPECT_TRUE(matches("${header.bar} > 100"));
  EXPECT_TRUE(matches("100 < ${header.bar}"));
}

TEST_F(SimplePredicateTest, DigitOnlyTextsCompareAsNumbers) {
  message().setHeader("Account1", Value("0001"));
  message().setHeader("Account2", Value("001"));
  EXPECT_TRUE(matches("${header.Account1} == ${header.Account2}"));
  EXPECT_FALSE(matches("${header.Account1} equals ${header.Account2}"));
  EXPECT_TRUE(matches("${header.Account1} !equals ${header.Account2}"));
}

TEST_F(SimplePredicateTest, TextsCompareAlphabetically) {
  message().setHeader("a", Value("abc"));
  EXPECT_TRUE(matches("${header.a} < 'abd'"));
}

TEST_F(SimplePredicateTest, NullTests) {
  EXPECT_TRUE(matches("${header.baz} == null"));
  EXPECT_FALSE(matches("${header.baz} != null"));
  message().setHeader("baz", Value("x"));
  EXPECT_TRUE(matches("${header.baz} != null"));
  EXPECT_FALSE(matches("${header.baz} == null"));
}

TEST_F(SimplePredicateTest, NothingIsOrderedAgainstNull) {
  message().setHeader("n", Value(1));
  EXPECT_FALSE(matches("${header.n} > null"));
  EXPECT_FALSE(matches("${header.missing} < 5"));
}

TEST_F(SimplePredicateTest, BooleanHeaderEqualsTrueText) {
  message().setHeader("flag", Value(true));
  EXPECT_TRUE(matches("${header.flag} == true"));
  EXPECT_TRUE(matches("${header.flag} == 'true'"));
}

TEST_F(SimplePredicateTest, Contains) {
  message().setHeader("title", Value("Riding the Camel"));
  EXPECT_TRUE(matches("${header.title} contains 'Camel'"));
  EXPECT_FALSE(matches("${header.title} contains 'camel'"));
  EXPECT_TRUE(matches("${header.title} !contains 'Horse'"));
  EXPECT_TRUE(matches("${header.title} ~~ 'camel'"));
  EXPECT_FALSE(matches("${header.title} !~~ 'CAMEL'"));
}

TEST_F(SimplePredicateTest, ContainsOnAList) {
  message().setBody(Value(ValueList{Value("a"), Value("b")}));
  EXPECT_TRUE(matches("${body} contains 'b'"));
  EXPECT_FALSE(matches("${body} contains 'c'"));
}

TEST_F(SimplePredicateTest, Regex) {
  message().setHeader("number", Value("1234"));
  EXPECT_TRUE(matches("${header.number} regex '\\d{4}'"));
  EXPECT_FALSE(matches("${header.number} regex '\\d{3}'")) << "the whole text must match";
  EXPECT_TRUE(matches("${header.number} !regex '[a-z]+'"));
}

TEST_F(SimplePredicateTest, RegexFromAFunction) {
  message().setHeader("number", Value("1234"));
  message().setHeader("pattern", Value("\\d+"));
  EXPECT_TRUE(matches("${header.number} regex ${header.pattern}"));
}

TEST_F(SimplePredicateTest, InAndNotIn) {
  message().setHeader("type", Value("gold"));
  EXPECT_TRUE(matches("${header.type} in 'gold,silver'"));
  EXPECT_FALSE(matches("${header.type} !in 'gold,silver'"));
  message().setHeader("type", Value("bronze"));
  EXPECT_FALSE(matches("${header.type} in 'gold,silver'"));
}

TEST_F(SimplePredicateTest, InWithAnEmptyValue) {
  message().setHeader("medal", Value(""));
  EXPECT_TRUE(matches("${header.medal} in ',,bronze,silver,gold'"));
  EXPECT_FALSE(matches("${header.medal} in 'bronze,silver,gold'"));
}

TEST_F(SimplePredicateTest, InConvertsElementsToTheLeftType) {
  message().setHeader("n", Value(2));
  EXPECT_TRUE(matches("${header.n} in '1,2,3'"));
}

TEST_F(SimplePredicateTest, Range) {
  message().setHeader("number", Value(150));
  EXPECT_TRUE(matches("${header.number} range 100..199"));
  EXPECT_TRUE(matches("${header.number} range '100..199'"));
  EXPECT_FALSE(matches("${header.number} !range 100..199"));
  message().setHeader("number", Value(200));
  EXPECT_FALSE(matches("${header.number} range 100..199"));
  message().setHeader("number", Value(199));
  EXPECT_TRUE(matches("${header.number} range 100..199")) << "both ends are inclusive";
}

TEST_F(SimplePredicateTest, IsTestsTheValueType) {
  message().setHeader("type", Value("x"));
  EXPECT_TRUE(matches("${header.type} is 'java.lang.String'"));
  EXPECT_TRUE(matches("${header.type} is 'String'"));
  EXPECT_TRUE(matches("${header.type} !is 'Integer'"));
  message().setHeader("type", Value(1));
  EXPECT_TRUE(matches("${header.type} is 'Number'"));
}

TEST_F(SimplePredicateTest, StartsWithAndEndsWith) {
  message().setHeader("s", Value("Hello World"));
  EXPECT_TRUE(matches("${header.s} startsWith 'Hello'"));
  EXPECT_TRUE(matches("${header.s} starts with 'Hello'"));
  EXPECT_TRUE(matches("${header.s} !startsWith 'World'"));
  EXPECT_TRUE(matches("${header.s} endsWith 'World'"));
  EXPECT_TRUE(matches("${header.s} ends with 'World'"));
  EXPECT_TRUE(matches("${header.s} !endsWith 'Hello'"));
}

TEST_F(SimplePredicateTest, AndOr) {
  message().setHeader("foo", Value("bar"));
  message().setHeader("n", Value(5));
  EXPECT_TRUE(matches("${header.foo} == 'bar' && ${header.n} > 3"));
  EXPECT_FALSE(matches("${header.foo} == 'bar' && ${header.n} > 6"));
  EXPECT_TRUE(matches("${header.foo} == 'x' || ${header.n} > 3"));
  EXPECT_FALSE(matches("${header.foo} == 'x' || ${header.n} > 6"));
}

TEST_F(SimplePredicateTest, LogicalOperatorsGroupLeftToRight) {
  // Camel has no precedence between && and ||: (true || false) && false is false.
  EXPECT_FALSE(matches("${header.x} == null || ${header.x} != null && ${header.x} == 'y'"));
}

TEST_F(SimplePredicateTest, AndStopsAtTheFirstFalse) {
  message().setBody("abc");
  // The right side would fail the exchange (the body is not a number).
  EXPECT_FALSE(matches("${header.missing} != null && ${bodyAs(Integer)} > 1"));
  EXPECT_FALSE(exchange->failed());
}

TEST_F(SimplePredicateTest, RightSideCanBeAFunction) {
  message().setHeader("a", Value("x"));
  message().setHeader("b", Value("x"));
  EXPECT_TRUE(matches("${header.a} == ${header.b}"));
}

TEST_F(SimplePredicateTest, QuotedRightSideCanHoldFunctions) {
  message().setHeader("a", Value("id-7"));
  message().setHeader("n", Value(7));
  EXPECT_TRUE(matches("${header.a} == 'id-${header.n}'"));
}

TEST_F(SimplePredicateTest, PredicateInsideBraces) {
  message().setBody("x");
  message().setHeader("foo", Value("bar"));
  EXPECT_TRUE(matches("${body != null && body.size() > 0}"));
  EXPECT_TRUE(matches("${!body.isEmpty() && header.foo == 'bar'}"));
}

TEST_F(SimplePredicateTest, OperatorNeedsWhitespace) {
  message().setHeader("Content-Length", Value(5));
  EXPECT_EQ(eval("${header.Content-Length}"), Value(5));
}

TEST_F(SimplePredicateTest, FunctionAloneIsTestedForTruth) {
  EXPECT_FALSE(matches("${header.flag}")) << "null is false";
  message().setHeader("flag", Value(true));
  EXPECT_TRUE(matches("${header.flag}"));
  message().setHeader("flag", Value("false"));
  EXPECT_FALSE(matches("${header.flag}"));
  message().setHeader("flag", Value("yes"));
  EXPECT_TRUE(matches("${header.flag}")) << "any value other than false is true";
  EXPECT_TRUE(matches("true"));
  EXPECT_FALSE(matches("false"));
}

TEST_F(SimplePredicateTest, NotOperatorNegatesAFunction) {
  EXPECT_TRUE(matches("!${header.missing}"));
  message().setBody("x");
  EXPECT_FALSE(matches("!${body}"));
  EXPECT_TRUE(matches("!${body.isEmpty()}"));
  EXPECT_TRUE(matches("!${body.isEmpty()} && ${body} == 'x'"));
}

TEST_F(SimplePredicateTest, ExclamationInATemplateIsText) {
  message().setBody("World");
  EXPECT_EQ(eval("Hello ${body}!"), Value("Hello World!"));
}

TEST_F(SimplePredicateTest, DateComparison) {
  message().setHeader("date", Value("19700102"));
  exchange->setProperty("t", Value(int64_t{86400000}));
  EXPECT_TRUE(matches("${header.date} == ${date-with-timezone:exchangeProperty.t:UTC:yyyyMMdd}"));
}

TEST_F(SimplePredicateTest, IncrementInPredicate) {
  message().setHeader("myNumber", Value(10));
  EXPECT_TRUE(matches("${header.myNumber}++ > 10"));
  EXPECT_TRUE(matches("${header.myNumber}-- < 10"));
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

TEST(SimpleInRouteTest, PlaceholdersAreResolvedBeforeParsing) {
  RouteHarness h;
  h.context.properties().set("threshold", "1000");
  h.start([](RouteBuilder& b) {
    b.from("direct:in").filter(simple("${header.amount} >= {{threshold}}")).to("mock:big");
  });
  h.mock("mock:big").expectedBodiesReceived({Value("b")});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "amount", 999));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "amount", 1000));
  EXPECT_TRUE(h.mock("mock:big").assertIsSatisfied());
}

TEST(SimpleInRouteTest, ChoiceWithSimplePredicatesAndTemplates) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in")
        .choice()
          .when(simple("${header.type} in 'gold,silver'"))
            .setBody(simple("${header.type.toUpperCase()}: ${body}"))
            .to("mock:premium")
          .otherwise()
            .to("mock:other")
        .end();
  });
  h.mock("mock:premium").expectedBodiesReceived({Value("GOLD: a")});
  h.mock("mock:other").expectedBodiesReceived({Value("b")});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "type", "gold"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "type", "lead"));
  EXPECT_TRUE(h.mock("mock:premium").assertIsSatisfied());
  EXPECT_TRUE(h.mock("mock:other").assertIsSatisfied());
}

TEST(SimpleInRouteTest, EvaluationFailureFailsTheExchangeNotTheProcess) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").setHeader("n", simple("${bodyAs(Integer)}")).to("mock:out");
  });
  auto sent = h.producer.sendBody("direct:in", "abc");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, ErrorCode::EvaluationFailed);
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 0u);
}

// A comparison against a literal is compiled to a predicate that compares at once in the
// usual cases; its answers must be those of the general comparison (the same comparison
// against a header holding the literal) for every kind of value on the left.
TEST_F(SimplePredicateTest, ComparisonsWithALiteralAnswerAsTheGeneralComparisonDoes) {
  const std::vector<Value> lefts = {
      Value("500"), Value("0500"), Value("abc"), Value(""), Value(" 500 "), Value(500),
      Value(1000), Value(-3), Value(500.0), Value(499.5), Value(true), Value(),
      Value(std::numeric_limits<int64_t>::max()), Value(std::numeric_limits<int64_t>::min()),
      Value(999), Value(1001), Value(0),
      Value(Bytes(std::string_view("500"))), Value(ValueList{Value(1)})};
  struct Literal {
    std::string text;  // as written in the expression
    Value value;       // the same, as a header
  };
  const std::vector<Literal> literals = {{"'500'", Value("500")}, {"'abc'", Value("abc")},
                                         {"500", Value(500)},     {"1000", Value(1000)},
                                         {"'0500'", Value("0500")}, {"-3", Value(-3)},
                                         {"9223372036854775807", Value(INT64_MAX)},
                                         {"-9223372036854775808", Value(INT64_MIN)}};
  for (const char* op : {"==", "!=", ">", ">=", "<", "<="}) {
    for (const Literal& literal : literals) {
      message().setHeader("lit", literal.value);
      for (const Value& left : lefts) {
        message().setHeader("x", left);
        bool fast = matches(fmt::format("${{header.x}} {} {}", op, literal.text));
        bool general = matches(fmt::format("${{header.x}} {} ${{header.lit}}", op));
        EXPECT_EQ(fast, general) << left.toString() << " " << op << " " << literal.text;
      }
    }
  }
}

}  // namespace
}  // namespace dromedary::testing
