// SPDX-License-Identifier: Apache-2.0
// Navigation on map and list values (Camel's OGNL style) and the fixed set of methods.
#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimpleOgnlTest = SimpleTest;

Value order() {
  return Value(ValueMap{
      {"name", Value("Camel")},
      {"address", Value(ValueMap{{"street", Value("Main St")}, {"zip", Value(1000)}})},
      {"lines", Value(ValueList{Value("a"), Value("b"), Value("c")})},
      {"a key", Value("spaced")},
  });
}

TEST_F(SimpleOgnlTest, MapKeyByDot) {
  message().setBody(order());
  EXPECT_EQ(eval("${body.name}"), Value("Camel"));
  EXPECT_EQ(eval("${body.address.street}"), Value("Main St"));
}

TEST_F(SimpleOgnlTest, MapKeyByBrackets) {
  message().setBody(order());
  EXPECT_EQ(eval("${body[name]}"), Value("Camel"));
  EXPECT_EQ(eval("${body['a key']}"), Value("spaced"));
  EXPECT_EQ(eval("${body[address][zip]}"), Value(1000));
}

TEST_F(SimpleOgnlTest, MissingKeyIsNull) {
  message().setBody(order());
  EXPECT_TRUE(eval("${body.nope}").isNull());
}

TEST_F(SimpleOgnlTest, ListIndex) {
  message().setBody(order());
  EXPECT_EQ(eval("${body.lines[0]}"), Value("a"));
  EXPECT_EQ(eval("${body.lines[last]}"), Value("c"));
  EXPECT_EQ(eval("${body.lines[last-1]}"), Value("b"));
}

TEST_F(SimpleOgnlTest, ListIndexOutOfBoundsFailsTheExchange) {
  message().setBody(order());
  EXPECT_EQ(eval("${body.lines[5]}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${body.lines[5]}: at '[5]': index 5 is out of bounds for "
            "a list of size 3");
}

TEST_F(SimpleOgnlTest, NavigatingNullFailsUnlessNullSafe) {
  EXPECT_TRUE(eval("${body?.address?.street}").isNull());
  EXPECT_FALSE(exchange->failed());
  EXPECT_EQ(eval("${body.address}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${body.address}: at '.address': cannot navigate on null "
            "(use ?. to allow null)");
}

TEST_F(SimpleOgnlTest, NavigationOnHeadersAndProperties) {
  message().setHeader("order", order());
  exchange->setProperty("order", order());
  EXPECT_EQ(eval("${header.order.name}"), Value("Camel"));
  EXPECT_EQ(eval("${header[order][name]}"), Value("Camel"));
  EXPECT_EQ(eval("${exchangeProperty.order.address.zip}"), Value(1000));
}

TEST_F(SimpleOgnlTest, StringMethods) {
  message().setHeader("x", Value("  Hello World "));
  message().setBody("Hello World");
  EXPECT_EQ(eval("${header.x.length()}"), Value(14));
  EXPECT_EQ(eval("${header.x.trim()}"), Value("Hello World"));
  EXPECT_EQ(eval("${body.toUpperCase()}"), Value("HELLO WORLD"));
  EXPECT_EQ(eval("${body.toLowerCase()}"), Value("hello world"));
  EXPECT_EQ(eval("${body.substring(6)}"), Value("World"));
  EXPECT_EQ(eval("${body.substring(0,5)}"), Value("Hello"));
  EXPECT_EQ(eval("${body.replace('World', 'Camel')}"), Value("Hello Camel"));
  EXPECT_EQ(eval("${body.startsWith('Hello')}"), Value(true));
  EXPECT_EQ(eval("${body.endsWith('x')}"), Value(false));
  EXPECT_EQ(eval("${body.contains('lo W')}"), Value(true));
  EXPECT_EQ(eval("${body.indexOf('World')}"), Value(6));
  EXPECT_EQ(eval("${body.isEmpty()}"), Value(false));
  EXPECT_EQ(eval("${body.equalsIgnoreCase('hello world')}"), Value(true));
}

TEST_F(SimpleOgnlTest, MethodsChain) {
  message().setBody("  abc  ");
  EXPECT_EQ(eval("${body.trim().toUpperCase().substring(1)}"), Value("BC"));
}

TEST_F(SimpleOgnlTest, SizeOfListAndMap) {
  message().setBody(order());
  EXPECT_EQ(eval("${body.size()}"), Value(4));
  EXPECT_EQ(eval("${body.lines.size()}"), Value(3));
  EXPECT_EQ(eval("${body.get('name')}"), Value("Camel"));
  EXPECT_EQ(eval("${body.lines.get(1)}"), Value("b"));
}

TEST_F(SimpleOgnlTest, GetterStyleReadsTheMapKey) {
  message().setBody(order());
  EXPECT_EQ(eval("${body.getName()}"), Value("Camel"));
}

TEST_F(SimpleOgnlTest, NavigationAfterConversion) {
  message().setBody(Value(12345));
  EXPECT_EQ(eval("${bodyAs(String).length()}"), Value(5));
}

TEST_F(SimpleOgnlTest, SubstringOutOfRangeFailsTheExchange) {
  message().setBody("abc");
  EXPECT_EQ(eval("${body.substring(2,9)}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().code, ErrorCode::EvaluationFailed);
}

TEST_F(SimpleOgnlTest, PropertyOfTextFailsTheExchange) {
  message().setBody("abc");
  EXPECT_EQ(eval("${body.name}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${body.name}: at '.name': a String has no properties");
}

// Java's String.split: a one-character separator splits literally, anything else is a regex;
// trailing empty strings are left out; the result is a list that [index] and size() read.
TEST_F(SimpleOgnlTest, SplitAsJavaSplits) {
  message().setBody("a,b,,c,,");
  EXPECT_EQ(text("${body.split(\",\")}"), "[\"a\",\"b\",\"\",\"c\"]");
  EXPECT_EQ(eval("${body.split(\",\")[3]}"), Value("c"));
  EXPECT_EQ(eval("${body.split(\",\").size()}"), Value(4));
  message().setBody("x  y   z");
  EXPECT_EQ(eval("${body.split(\" +\")[2]}"), Value("z"));
  message().setBody("a.b");
  EXPECT_EQ(eval("${body.split(\"\\.\")[1]}"), Value("b"));  // \. is a literal dot
  EXPECT_EQ(eval("${body.split(\"(\")}"), Value("<failed>"));
}

TEST_F(SimpleOgnlTest, ReplaceAllAndReplaceFirstTakeJavasRegexAndGroups) {
  message().setBody("id 12-34 and 56-78");
  EXPECT_EQ(eval("${body.replaceAll(\"(\\d+)-(\\d+)\",\"$2-$1\")}"),
            Value("id 34-12 and 78-56"));
  EXPECT_EQ(eval("${body.replaceFirst(\"[0-9]+\",\"#\")}"), Value("id #-34 and 56-78"));
  EXPECT_EQ(eval("${body.lastIndexOf(\"and\")}"), Value(9));
}

}  // namespace
}  // namespace dromedary::testing
