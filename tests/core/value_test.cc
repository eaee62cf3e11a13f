// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/value.h>

#include <gtest/gtest.h>

#include <new>
#include <string>

#include "alloc_counter.h"

namespace dromedary {
namespace {

TEST(ValueTest, HoldsEachBuiltinType) {
  EXPECT_TRUE(Value().isNull());
  EXPECT_TRUE(Value(true).isBool());
  EXPECT_TRUE(Value(42).isInt());
  EXPECT_TRUE(Value(1.5).isDouble());
  EXPECT_TRUE(Value("text").isString());
  EXPECT_TRUE(Value(Bytes("raw")).isBytes());
  EXPECT_TRUE(Value(ValueList{1, 2}).isList());
  EXPECT_TRUE(Value(ValueMap{{"a", 1}}).isMap());
}

TEST(ValueTest, ConvertsStringToNumbersAndBool) {
  EXPECT_EQ(Value("42").as<int64_t>(), 42);
  EXPECT_EQ(Value(" -7 ").as<int32_t>(), -7);
  EXPECT_DOUBLE_EQ(Value("2.5").as<double>(), 2.5);
  EXPECT_TRUE(Value("TRUE").as<bool>());
  EXPECT_FALSE(Value("false").as<bool>());
}

TEST(ValueTest, ConvertsNumbersAndBoolToString) {
  EXPECT_EQ(Value(42).as<std::string>(), "42");
  EXPECT_EQ(Value(1.0).as<std::string>(), "1.0");
  EXPECT_EQ(Value(2.5).as<std::string>(), "2.5");
  EXPECT_EQ(Value(true).as<std::string>(), "true");
}

TEST(ValueTest, ConvertsBytesAndStringBothWays) {
  EXPECT_EQ(Value(Bytes("abc")).as<std::string>(), "abc");
  EXPECT_EQ(Value("abc").template as<Bytes>().view(), "abc");
}

TEST(ValueTest, RendersListsAndMapsAsJson) {
  Value v(ValueMap{{"name", "x"}, {"n", 1}, {"tags", ValueList{"a", true}}});
  EXPECT_EQ(v.as<std::string>(), R"({"name":"x","n":1,"tags":["a",true]})");
}

TEST(ValueTest, TryAsReturnsNulloptWhenConversionIsImpossible) {
  EXPECT_FALSE(Value("abc").tryAs<int64_t>());
  EXPECT_FALSE(Value("12x").tryAs<int64_t>());
  EXPECT_FALSE(Value("yes").tryAs<bool>());
  EXPECT_FALSE(Value().tryAs<std::string>());
}

TEST(ValueTest, AsThrowsWithTheTypesAndValueInTheMessage) {
  try {
    (void)Value("abc").as<int64_t>();
    FAIL() << "expected a throw";
  } catch (const TypeConversionError& e) {
    EXPECT_STREQ(e.what(), "no type conversion from String to Long for value 'abc'");
  }
}

TEST(ValueTest, CopiesOfBytesShareTheBuffer) {
  Value a(Bytes(std::string(1000, 'x')));
  Value b = a;
  EXPECT_EQ(a.getBytes().data(), b.getBytes().data());
}

TEST(ValueTest, MutatingACopiedListCopiesOnWrite) {
  Value a(ValueList{1, 2});
  Value b = a;
  b.mutableList().push_back(3);
  EXPECT_EQ(a.getList().size(), 2u);
  EXPECT_EQ(b.getList().size(), 3u);
}

TEST(ValueTest, SetStringReusesCapacity) {
  Value v(std::string(100, 'x'));
  const char* before = v.getString().data();
  v.setString("short");
  EXPECT_EQ(v.getString(), "short");
  EXPECT_EQ(v.getString().data(), before);
}

TEST(ValueTest, EqualityComparesIntsAndDoublesNumerically) {
  EXPECT_EQ(Value(1), Value(1.0));
  EXPECT_NE(Value(1), Value("1"));
}

struct Point {
  int x;
  int y;
};

TEST(ValueTest, HoldsUserObjects) {
  Value v = Value::makeObject<Point>(Point{1, 2});
  ASSERT_NE(v.getIf<Point>(), nullptr);
  EXPECT_EQ(v.getIf<Point>()->y, 2);
  EXPECT_EQ(v.as<Point>().x, 1);
}

// A new text body over a null value is built in place (Value::setString); over other
// values, and over text, it is an ordinary assignment.
TEST(ValueTest, SetStringOverEveryKindOfValue) {
  for (Value v : {Value(), Value(true), Value(7), Value(1.5), Value("old"),
                  Value(std::string(100, 'o')), Value(Bytes("raw")), Value(ValueList{1, 2})}) {
    v.setString("new");
    EXPECT_EQ(v, Value("new"));
    v.setString(std::string(64, 'n'));
    EXPECT_EQ(v, Value(std::string(64, 'n')));
  }
}

// The path where building the text fails: the value stays a valid null, and takes text
// again afterwards.
TEST(ValueTest, ANullValueWhoseNewTextCannotBeAllocatedStaysNull) {
  const std::string text(100, 't');  // beyond the short-string buffer: it must allocate
  Value v;
  bool threw = false;
  {
    testing::FailingAllocations failing;
    try {
      v.setString(text);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
  }
  EXPECT_TRUE(threw);
  EXPECT_TRUE(v.isNull());
  v.setString(text);
  EXPECT_EQ(v, Value(text));
}

}  // namespace
}  // namespace dromedary
