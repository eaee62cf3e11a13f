// SPDX-License-Identifier: Apache-2.0
// Simple expressions (templates and functions), from Camel's Simple documentation.
#include <cstdlib>

#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimpleExpressionTest = SimpleTest;

TEST_F(SimpleExpressionTest, TextWithoutFunctionsIsConstant) {
  EXPECT_EQ(eval("Hello World"), Value("Hello World"));
}

TEST_F(SimpleExpressionTest, EmptyTextIsEmptyString) { EXPECT_EQ(eval(""), Value("")); }

TEST_F(SimpleExpressionTest, BodyReturnsTheBodyAsIs) {
  message().setBody(Value(int64_t{42}));
  EXPECT_EQ(eval("${body}"), Value(int64_t{42}));
}

TEST_F(SimpleExpressionTest, TemplateConcatenatesFunctionsAndText) {
  message().setBody("Camel");
  message().setHeader("name", Value("Claus"));
  EXPECT_EQ(eval("Hello ${body} from ${header.name}"), Value("Hello Camel from Claus"));
}

TEST_F(SimpleExpressionTest, AlternativeSyntaxDollarSimple) {
  message().setBody("World");
  EXPECT_EQ(eval("Hello $simple{body}"), Value("Hello World"));
}

// As Camel's header expression: a header that is absent falls back on the exchange property.
TEST_F(SimpleExpressionTest, AnAbsentHeaderFallsBackOnTheExchangeProperty) {
  exchange->setProperty("region", Value("emea"));
  EXPECT_EQ(eval("${header.region}"), Value("emea"));
  message().setHeader("region", Value("apac"));
  EXPECT_EQ(eval("${header.region}"), Value("apac"));  // the header first
}

TEST_F(SimpleExpressionTest, NullFunctionInTemplateAddsNothing) {
  EXPECT_EQ(eval("a${header.missing}b"), Value("ab"));
}

TEST_F(SimpleExpressionTest, EscapedNewlineAndTabInText) {
  message().setBody("x");
  EXPECT_EQ(eval("a\\nb\\t${body}"), Value("a\nb\tx"));
}

TEST_F(SimpleExpressionTest, EscapedDollarIsLiteral) {
  EXPECT_EQ(eval("cost \\${body}"), Value("cost ${body}"));
}

TEST_F(SimpleExpressionTest, OperatorsOutsideBracesAreText) {
  message().setHeader("n", Value(5));
  EXPECT_EQ(eval("${header.n} > 3"), Value("5 > 3"));
}

TEST_F(SimpleExpressionTest, HeaderForms) {
  message().setHeader("foo", Value("bar"));
  EXPECT_EQ(eval("${header.foo}"), Value("bar"));
  EXPECT_EQ(eval("${headers.foo}"), Value("bar"));
  EXPECT_EQ(eval("${header[foo]}"), Value("bar"));
  EXPECT_EQ(eval("${headers[foo]}"), Value("bar"));
  EXPECT_EQ(eval("${header:foo}"), Value("bar"));
  EXPECT_EQ(eval("${in.header.foo}"), Value("bar"));
  EXPECT_EQ(eval("${header.FOO}"), Value("bar")) << "header names ignore case";
}

TEST_F(SimpleExpressionTest, HeaderWithDotsInBrackets) {
  message().setHeader("a.b", Value("dotted"));
  EXPECT_EQ(eval("${header[a.b]}"), Value("dotted"));
  EXPECT_EQ(eval("${header['a.b']}"), Value("dotted"));
}

TEST_F(SimpleExpressionTest, MissingHeaderIsNull) { EXPECT_TRUE(eval("${header.nope}").isNull()); }

TEST_F(SimpleExpressionTest, HeadersIsAMapAndHeadersSizeCounts) {
  message().setHeader("a", Value(1));
  message().setHeader("b", Value(2));
  Value headers = eval("${headers}");
  ASSERT_TRUE(headers.isMap());
  EXPECT_EQ(headers.getMap().size(), 2u);
  EXPECT_EQ(eval("${headers.size}"), Value(2));
}

TEST_F(SimpleExpressionTest, HeaderAsConverts) {
  message().setHeader("num", Value("42"));
  EXPECT_EQ(eval("${headerAs(num,Integer)}"), Value(42));
}

TEST_F(SimpleExpressionTest, ExchangePropertyForms) {
  exchange->setProperty("color", Value("red"));
  EXPECT_EQ(eval("${exchangeProperty.color}"), Value("red"));
  EXPECT_EQ(eval("${exchangeProperty[color]}"), Value("red"));
  EXPECT_EQ(eval("${exchangeProperty:color}"), Value("red"));
}

TEST_F(SimpleExpressionTest, BodyAsConvertsToTheType) {
  message().setBody(Value(int64_t{42}));
  EXPECT_EQ(eval("${bodyAs(String)}"), Value("42"));
  message().setBody("7");
  EXPECT_EQ(eval("${bodyAs(Integer)}"), Value(7));
  EXPECT_EQ(eval("${bodyAs(java.lang.Integer)}"), Value(7));
}

// Java's Byte, Short and Integer are narrower than the 64-bit whole numbers held here: a value
// outside their range fails, as Java's conversion does.
TEST_F(SimpleExpressionTest, BodyAsANarrowWholeNumberChecksItsRange) {
  message().setBody("-32768");
  EXPECT_EQ(eval("${bodyAs(Short)}"), Value(-32768));
  message().setBody("99999");
  EXPECT_EQ(eval("${bodyAs(Short)}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${bodyAs(Short)}: cannot convert String '99999' to Short: "
            "out of range (-32768 to 32767)");
  exchange->clearError();
  message().setBody(Value(int64_t{1} << 40));
  EXPECT_EQ(eval("${bodyAs(java.lang.Integer)}"), Value("<failed>"));
  exchange->clearError();
  EXPECT_EQ(eval("${bodyAs(Long)}"), Value(int64_t{1} << 40));
  message().setBody("200");
  EXPECT_EQ(eval("${bodyAs(byte)}"), Value("<failed>"));
}

TEST_F(SimpleExpressionTest, BodyAsOnNullIsNull) { EXPECT_TRUE(eval("${bodyAs(String)}").isNull()); }

TEST_F(SimpleExpressionTest, BodyAsThatCannotConvertFailsTheExchange) {
  message().setBody("abc");
  EXPECT_EQ(eval("${bodyAs(int)}"), Value("<failed>"));
  ASSERT_TRUE(exchange->failed());
  EXPECT_EQ(exchange->error().code, ErrorCode::EvaluationFailed);
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${bodyAs(int)}: cannot convert String 'abc' to int");
}

TEST_F(SimpleExpressionTest, MandatoryBodyAsOnNullFailsTheExchange) {
  EXPECT_EQ(eval("${mandatoryBodyAs(String)}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${mandatoryBodyAs(String)}: no body available of type "
            "String");
}

TEST_F(SimpleExpressionTest, ConvertToConvertsBodyOrAValue) {
  message().setBody("12");
  EXPECT_EQ(eval("${convertTo(Long)}"), Value(12));
  message().setHeader("d", Value("1.5"));
  EXPECT_EQ(eval("${convertTo(${header.d},Double)}"), Value(1.5));
}

TEST_F(SimpleExpressionTest, BodyOneLineRemovesLineBreaks) {
  message().setBody("a\nb\r\nc");
  EXPECT_EQ(eval("${bodyOneLine}"), Value("abc"));
}

TEST_F(SimpleExpressionTest, BodyTypeNamesTheValueType) {
  message().setBody("x");
  EXPECT_EQ(eval("${bodyType}"), Value("String"));
}

TEST_F(SimpleExpressionTest, ExchangeIdIdAndMessageIdAreTheExchangeId) {
  std::string id = exchange->exchangeId();
  EXPECT_EQ(eval("${exchangeId}"), Value(id));
  EXPECT_EQ(eval("${id}"), Value(id));
  EXPECT_EQ(eval("${messageId}"), Value(id));
  EXPECT_EQ(eval("${exchange}"), Value("Exchange[" + id + "]"));
}

TEST_F(SimpleExpressionTest, CamelIdIsTheContextName) { EXPECT_EQ(eval("${camelId}"), Value("camel-1")); }

TEST_F(SimpleExpressionTest, RouteIdOutsideARouteIsNull) { EXPECT_TRUE(eval("${routeId}").isNull()); }

TEST_F(SimpleExpressionTest, ExceptionIsNullWithoutAFailure) {
  EXPECT_TRUE(eval("${exception}").isNull());
  EXPECT_TRUE(eval("${exception.message}").isNull());
}

TEST_F(SimpleExpressionTest, ExceptionMessageIsWhatTheExceptionSaysAndExceptionTheWholeFailure) {
  exchange->setException(std::make_exception_ptr(std::runtime_error("boom")));
  EXPECT_EQ(eval("Failed: ${exception.message}"), Value("Failed: boom"));
  EXPECT_EQ(eval("Failed: ${exception}"), Value("Failed: Exception thrown by processor: boom"));
}

TEST_F(SimpleExpressionTest, ExceptionCaughtPropertyIsTheException) {
  exchange->setProperty("CamelExceptionCaught", Value("boom"));
  EXPECT_EQ(eval("${exception.message}"), Value("boom"));
}

TEST_F(SimpleExpressionTest, RandomIsWithinBounds) {
  for (int i = 0; i < 200; ++i) {
    int64_t n = eval("${random(1,10)}").as<int64_t>();
    EXPECT_GE(n, 1);
    EXPECT_LT(n, 10);
    int64_t m = eval("${random(3)}").as<int64_t>();
    EXPECT_GE(m, 0);
    EXPECT_LT(m, 3);
  }
}

TEST_F(SimpleExpressionTest, UuidIsARandomVersion4Uuid) {
  std::string a = text("${uuid}");
  std::string b = text("${uuid}");
  ASSERT_EQ(a.size(), 36u);
  EXPECT_EQ(a[8], '-');
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(a, b);
}

TEST_F(SimpleExpressionTest, EnvironmentVariables) {
  setenv("DROMEDARY_SIMPLE_TEST", "yes", 1);
  EXPECT_EQ(eval("${env.DROMEDARY_SIMPLE_TEST}"), Value("yes"));
  EXPECT_EQ(eval("${env:DROMEDARY_SIMPLE_TEST}"), Value("yes"));
  EXPECT_EQ(eval("${sysenv.DROMEDARY_SIMPLE_TEST}"), Value("yes"));
  EXPECT_TRUE(eval("${env.DROMEDARY_NOT_SET_ANYWHERE}").isNull());
}

TEST_F(SimpleExpressionTest, SystemProperties) {
  EXPECT_EQ(eval("${sys.file.separator}"), Value("/"));
  EXPECT_EQ(eval("${sys.os.name}"), Value("Linux"));
  EXPECT_TRUE(eval("${sys.no.such.property}").isNull());
}

TEST_F(SimpleExpressionTest, PropertiesWithAndWithoutDefault) {
  context.properties().set("greeting", "Hi");
  EXPECT_EQ(eval("${properties:greeting}"), Value("Hi"));
  EXPECT_EQ(eval("${properties:missing:Hello}"), Value("Hello"));
  EXPECT_EQ(eval("${propertiesExist:greeting}"), Value(true));
  EXPECT_EQ(eval("${propertiesExist:!greeting}"), Value(false));
  EXPECT_EQ(eval("${propertiesExist:missing}"), Value(false));
}

TEST_F(SimpleExpressionTest, NullAndEmpty) {
  EXPECT_TRUE(eval("${null}").isNull());
  EXPECT_EQ(eval("${empty(string)}"), Value(""));
  EXPECT_EQ(eval("${createEmpty(list)}"), Value(ValueList{}));
  EXPECT_EQ(eval("${empty(map)}"), Value(ValueMap{}));
}

TEST_F(SimpleExpressionTest, LengthSizeAndIsEmpty) {
  message().setBody("Hello World");
  EXPECT_EQ(eval("${length()}"), Value(11));
  EXPECT_EQ(eval("${length('abc')}"), Value(3));
  EXPECT_EQ(eval("${size()}"), Value(1)) << "a value that is not a collection counts as one";
  EXPECT_EQ(eval("${isEmpty}"), Value(false));
  message().setBody(Value(ValueList{Value(1), Value(2), Value(3)}));
  EXPECT_EQ(eval("${size()}"), Value(3));
  message().setBody(Value());
  EXPECT_EQ(eval("${size()}"), Value(0));
  EXPECT_EQ(eval("${isEmpty()}"), Value(true));
  EXPECT_EQ(eval("${isEmpty('  ')}"), Value(true));
}

TEST_F(SimpleExpressionTest, UppercaseLowercaseTrim) {
  message().setBody("  Hello ");
  EXPECT_EQ(eval("${uppercase()}"), Value("  HELLO "));
  EXPECT_EQ(eval("${lowercase('ABC')}"), Value("abc"));
  EXPECT_EQ(eval("${trim()}"), Value("Hello"));
}

TEST_F(SimpleExpressionTest, TypeConstantsOfExchange) {
  EXPECT_EQ(eval("${type:org.apache.camel.Exchange.FILE_NAME}"), Value("CamelFileName"));
}

TEST_F(SimpleExpressionTest, IncrementAndDecrementDoNotChangeTheHeader) {
  message().setHeader("n", Value(100));
  EXPECT_EQ(eval("${header.n}++"), Value(101));
  EXPECT_EQ(eval("${header.n}--"), Value(99));
  EXPECT_EQ(*message().getHeader("n"), Value(100));
}

TEST_F(SimpleExpressionTest, IncrementKeepsADoubleADouble) {
  message().setHeader("d", Value(1.5));
  EXPECT_EQ(eval("${header.d}++"), Value(2.5));
}

TEST_F(SimpleExpressionTest, MessageTimestampIsZeroWithoutASourceTimestamp) {
  EXPECT_EQ(eval("${messageTimestamp}"), Value(int64_t{0}));
}

TEST_F(SimpleExpressionTest, PredicateInsideBracesIsAValue) {
  message().setHeader("n", Value(5));
  EXPECT_EQ(eval("Over three: ${header.n > 3}"), Value("Over three: true"));
  EXPECT_EQ(eval("${header.n < 3}"), Value(false));
}

TEST_F(SimpleExpressionTest, TernaryOperator) {
  message().setHeader("foo", Value(5));
  EXPECT_EQ(eval("${header.foo > 0 ? 'positive' : 'negative'}"), Value("positive"));
  message().setHeader("foo", Value(-5));
  EXPECT_EQ(eval("${header.foo > 0 ? 'positive' : 'negative'}"), Value("negative"));
  EXPECT_EQ(eval("${header.foo > 0 ? 1 : 0}"), Value(0));
}

TEST_F(SimpleExpressionTest, NestedTernary) {
  const char* grade = "${header.score >= 90 ? 'A' : ${header.score >= 80 ? 'B' : 'C'}}";
  message().setHeader("score", Value(95));
  EXPECT_EQ(eval(grade), Value("A"));
  message().setHeader("score", Value(85));
  EXPECT_EQ(eval(grade), Value("B"));
  message().setHeader("score", Value(10));
  EXPECT_EQ(eval(grade), Value("C"));
}

TEST_F(SimpleExpressionTest, TernaryWithLogicalCondition) {
  message().setHeader("age", Value(20));
  message().setHeader("country", Value("DK"));
  EXPECT_EQ(eval("${header.age > 18 && header.country == 'DK' ? 'yes' : 'no'}"), Value("yes"));
}

TEST_F(SimpleExpressionTest, TernaryWithFunctionValues) {
  message().setHeader("foo", Value(3));
  EXPECT_EQ(eval("${header.foo > 0 ? ${header.foo} : null}"), Value(3));
}

TEST_F(SimpleExpressionTest, ElvisInsideBraces) {
  EXPECT_EQ(eval("${header.username ?: 'Guest'}"), Value("Guest"));
  message().setHeader("username", Value("claus"));
  EXPECT_EQ(eval("${header.username ?: 'Guest'}"), Value("claus"));
}

TEST_F(SimpleExpressionTest, IifFunction) {
  message().setHeader("foo", Value(1));
  EXPECT_EQ(eval("${iif(${header.foo} > 0,'positive','negative')}"), Value("positive"));
}

TEST_F(SimpleExpressionTest, NegationInsideBraces) {
  message().setBody("x");
  EXPECT_EQ(eval("${!body.isEmpty()}"), Value(true));
}

TEST_F(SimpleExpressionTest, ValReturnsItsArgument) { EXPECT_EQ(eval("${val(abc)}"), Value("abc")); }

}  // namespace
}  // namespace dromedary::testing
