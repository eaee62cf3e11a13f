// SPDX-License-Identifier: Apache-2.0
// Parse errors: what, the column, the expression and a caret. Tested word for word.
#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimpleErrorTest = SimpleTest;

TEST_F(SimpleErrorTest, UnknownFunctionShowsColumnAndCaret) {
  EXPECT_EQ(predicateError("${bodyy} == 'x'"),
            "unknown function 'bodyy' at column 3 in simple expression\n"
            "  ${bodyy} == 'x'\n"
            "    ^\n"
            "did you mean 'body'?");
}

// 24,000 nested '!' and 25,000 nested ternaries overflowed the parser's stack (SIGSEGV).
TEST_F(SimpleErrorTest, NestingPastTheLimitIsAnErrorNotACrash) {
  std::string bangs = "${" + std::string(24000, '!') + "header.x}";
  EXPECT_EQ(expressionError(bangs).substr(0, 54),
            "nested deeper than 200 levels at column 202 in simple ");
  std::string ternaries;
  for (int i = 0; i < 25000; ++i) ternaries += "${header.a == 1 ? ";
  ternaries += "x";
  for (int i = 0; i < 25000; ++i) ternaries += " : 'y'}";
  EXPECT_NE(expressionError(ternaries).find("nested deeper than 200 levels"), std::string::npos);
  std::string fine = "${" + std::string(100, '!') + "header.x}";
  EXPECT_EQ(expressionError(fine), "");
}

TEST_F(SimpleErrorTest, AnExceptionFieldThatIsNotANameFailsAtParse) {
  std::string e = expressionError("${exception.status-code}");
  EXPECT_NE(e.find("unsupported 'status-code' on an exception"), std::string::npos) << e;
  EXPECT_EQ(expressionError("${exception.statusCode}"), "");
  EXPECT_EQ(expressionError("${exception.getStatusCode()}"), "");
}

TEST_F(SimpleErrorTest, UnknownFunctionWithoutSuggestion) {
  EXPECT_EQ(expressionError("Hi ${qqqqqqqq}"),
            "unknown function 'qqqqqqqq' at column 6 in simple expression\n"
            "  Hi ${qqqqqqqq}\n"
            "       ^");
}

TEST_F(SimpleErrorTest, UnclosedFunction) {
  EXPECT_EQ(expressionError("Hello ${body"),
            "function is not closed: missing '}' at column 7 in simple expression\n"
            "  Hello ${body\n"
            "        ^");
}

TEST_F(SimpleErrorTest, EmptyFunction) {
  EXPECT_EQ(expressionError("${}"),
            "empty function: expected a name such as body or header.foo at column 3 in simple "
            "expression\n"
            "  ${}\n"
            "    ^");
}

TEST_F(SimpleErrorTest, OperatorWithoutRightValue) {
  EXPECT_EQ(predicateError("${header.a} =="),
            "operator '==' needs a value on its right at column 13 in simple expression\n"
            "  ${header.a} ==\n"
            "              ^");
}

TEST_F(SimpleErrorTest, OperatorWithoutLeftValue) {
  EXPECT_EQ(predicateError("== ${header.a}"),
            "operator '==' needs a value on its left at column 1 in simple expression\n"
            "  == ${header.a}\n"
            "  ^");
}

TEST_F(SimpleErrorTest, UnclosedQuote) {
  EXPECT_EQ(predicateError("${header.a} == 'abc"),
            "quoted text is not closed at column 16 in simple expression\n"
            "  ${header.a} == 'abc\n"
            "                 ^");
}

TEST_F(SimpleErrorTest, InvalidRegex) {
  EXPECT_EQ(predicateError("${header.a} regex '[a-'"),
            "invalid regex '[a-': missing ]: [a- at column 19 in simple expression\n"
            "  ${header.a} regex '[a-'\n"
            "                    ^");
}

TEST_F(SimpleErrorTest, InvalidRange) {
  EXPECT_EQ(predicateError("${header.a} range 1-5"),
            "range must be two numbers as 'from..to', was '1-5' at column 19 in simple "
            "expression\n"
            "  ${header.a} range 1-5\n"
            "                    ^");
}

TEST_F(SimpleErrorTest, UnknownTypeForIs) {
  EXPECT_EQ(predicateError("${header.a} is 'Strng'"),
            "unknown type 'Strng' at column 16 in simple expression\n"
            "  ${header.a} is 'Strng'\n"
            "                 ^\n"
            "did you mean 'String'?");
}

TEST_F(SimpleErrorTest, UnknownTypeForBodyAs) {
  EXPECT_EQ(expressionError("${bodyAs(Integr)}"),
            "unknown type 'Integr' at column 10 in simple expression\n"
            "  ${bodyAs(Integr)}\n"
            "           ^\n"
            "did you mean 'Integer'?");
}

TEST_F(SimpleErrorTest, UnknownMethod) {
  EXPECT_EQ(expressionError("${body.toUpper()}"),
            "unknown method 'toUpper()' at column 8 in simple expression\n"
            "  ${body.toUpper()}\n"
            "         ^\n"
            "did you mean 'toUpperCase()'?");
}

TEST_F(SimpleErrorTest, MethodWithWrongArgumentCount) {
  EXPECT_EQ(expressionError("${body.replace('a')}"),
            "method 'replace()' takes 2 arguments, not 1 at column 8 in simple expression\n"
            "  ${body.replace('a')}\n"
            "         ^");
}

TEST_F(SimpleErrorTest, UndefinedPropertyWithoutDefault) {
  EXPECT_EQ(expressionError("${properties:nope}"),
            "property 'nope' is not defined at column 14 in simple expression\n"
            "  ${properties:nope}\n"
            "               ^\n"
            "define it, or give a default: ${properties:nope:default}");
}

TEST_F(SimpleErrorTest, UnsupportedFunctionSaysWhy) {
  EXPECT_EQ(expressionError("${bean:orderService?method=getOrderType}"),
            "function 'bean' is not supported at column 3 in simple expression\n"
            "  ${bean:orderService?method=getOrderType}\n"
            "    ^\n"
            "calls a Java bean; Dromedary has no bean registry (use process() with a C++ "
            "processor)");
}

TEST_F(SimpleErrorTest, IllegalDatePatternLetter) {
  EXPECT_EQ(expressionError("${date:now:yyyy-qq}"),
            "illegal pattern character 'q' in date pattern at column 12 in simple expression\n"
            "  ${date:now:yyyy-qq}\n"
            "             ^");
}

TEST_F(SimpleErrorTest, UnknownDateCommand) {
  EXPECT_EQ(expressionError("${date:today:yyyy}"),
            "unknown date command 'today' at column 8 in simple expression\n"
            "  ${date:today:yyyy}\n"
            "         ^\n"
            "expected now, millis, exchangeCreated, file, header.NAME or exchangeProperty.NAME, "
            "optionally with offsets such as now-24h or now+1h30m");
}

TEST_F(SimpleErrorTest, NegatedComparisonIsRefused) {
  EXPECT_EQ(predicateError("!${body} == 'x'"),
            "'!' negates a function, not a comparison at column 1 in simple expression\n"
            "  !${body} == 'x'\n"
            "  ^\n"
            "negate the operator instead, e.g. != or !contains");
}

TEST_F(SimpleErrorTest, TernaryWithoutColon) {
  EXPECT_EQ(expressionError("${header.a > 1 ? 'x'}"),
            "ternary operator needs ' : ' after its first value at column 16 in simple "
            "expression\n"
            "  ${header.a > 1 ? 'x'}\n"
            "                 ^");
}

TEST_F(SimpleErrorTest, UnexpectedTokenAfterComparison) {
  EXPECT_EQ(predicateError("${header.a} == 1 2"),
            "unexpected '2' at column 18 in simple expression\n"
            "  ${header.a} == 1 2\n"
            "                   ^");
}

TEST_F(SimpleErrorTest, ErrorOnSecondLineNamesTheLine) {
  EXPECT_EQ(expressionError("first line\nsecond ${qqqq}"),
            "unknown function 'qqqq' at line 2, column 10 in simple expression\n"
            "  second ${qqqq}\n"
            "           ^");
}

TEST_F(SimpleErrorTest, ErrorsSurfaceAtRouteStart) {
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([](RouteBuilder& b) {
    b.from("direct:a").routeId("r").filter(simple("${bodyy} == 'x'")).to("mock:out");
  }));
  auto started = context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().code, ErrorCode::InvalidExpression);
  EXPECT_NE(started.error().message.find("unknown function 'bodyy' at column 3"), std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary::testing
