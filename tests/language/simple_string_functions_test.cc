// SPDX-License-Identifier: Apache-2.0
// Camel 4's Simple string functions: substringBefore/After/Between (null when the text is not
// found), concat (with its null rules) and join (lists, comma-separated text, prefix).
#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimpleStringFunctionsTest = SimpleTest;

TEST_F(SimpleStringFunctionsTest, SubstringBeforeAndAfterCutAtTheFirstOccurrence) {
  message().setBody("Hello big world");
  EXPECT_EQ(eval("${substringBefore(' ')}"), Value("Hello"));
  EXPECT_EQ(eval("${substringAfter(' ')}"), Value("big world"));
  message().setHeader("path", "orders/2024/17.json");
  EXPECT_EQ(eval("${substringBefore(${header.path},'/')}"), Value("orders"));
  EXPECT_EQ(eval("${substringAfter(${header.path},/)}"), Value("2024/17.json"));
  EXPECT_EQ(eval("id-${substringAfter(${header.path},'2024/')}"), Value("id-17.json"));
}

TEST_F(SimpleStringFunctionsTest, SubstringsAreNullWhenTheTextIsNotFound) {
  message().setBody("Hello");
  EXPECT_TRUE(eval("${substringBefore('x')}").isNull());
  EXPECT_TRUE(eval("${substringAfter('x')}").isNull());
  EXPECT_TRUE(eval("${substringBetween('H','x')}").isNull());
  EXPECT_TRUE(eval("${substringBefore(${header.none},'x')}").isNull());
  EXPECT_EQ(eval("${substringBefore('H')}"), Value(""));
}

TEST_F(SimpleStringFunctionsTest, SubstringBetweenTakesWhatLiesBetweenTwoTexts) {
  message().setBody("<a>first</a><a>second</a>");
  EXPECT_EQ(eval("${substringBetween('<a>','</a>')}"), Value("first"));
  message().setHeader("h", "key=[value] rest");
  EXPECT_EQ(eval("${substringBetween(${header.h},'[',']')}"), Value("value"));
}

TEST_F(SimpleStringFunctionsTest, ConcatJoinsTwoValuesWithAnOptionalSeparator) {
  message().setBody("Hello");
  message().setHeader("name", "World");
  EXPECT_EQ(eval("${concat(' there')}"), Value("Hello there"));
  EXPECT_EQ(eval("${concat(${body},${header.name},' ')}"), Value("Hello World"));
  EXPECT_EQ(eval("${concat(${header.none},${header.name},'-')}"), Value("World"));
  EXPECT_EQ(eval("${concat(${body},${header.none},'-')}"), Value("Hello"));
  EXPECT_TRUE(eval("${concat(${header.none},${header.none})}").isNull());
}

TEST_F(SimpleStringFunctionsTest, JoinJoinsAListOrCommaSeparatedText) {
  message().setBody(Value(ValueList{Value("a"), Value(), Value(int64_t{3})}));
  EXPECT_EQ(eval("${join}"), Value("a,3"));
  EXPECT_EQ(eval("${join(';')}"), Value("a;3"));
  EXPECT_EQ(eval("${join('&','id=')}"), Value("id=a&id=3"));
  message().setHeader("ids", "1,2,3");
  EXPECT_EQ(eval("${join('&','id=',${header.ids})}"), Value("id=1&id=2&id=3"));
}

TEST_F(SimpleStringFunctionsTest, WrongArgumentCountsFailAtCompile) {
  EXPECT_NE(expressionError("${substringBefore()}").find("'substringBefore' takes 1 to 2"),
            std::string::npos);
  EXPECT_NE(expressionError("${substringBetween('a')}").find("takes 2 to 3"), std::string::npos);
  EXPECT_NE(expressionError("${concat(a,b,c,d)}").find("takes 1 to 3"), std::string::npos);
  EXPECT_NE(expressionError("${substringBefore}").find("needs its arguments"), std::string::npos)
      << expressionError("${substringBefore}");
}

}  // namespace
}  // namespace dromedary::testing
