// SPDX-License-Identifier: Apache-2.0
// JSON text to Values and back: types, order, escapes, unicode, big numbers, nesting, errors,
// and Jackson's output shapes.
#include "json_text.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace dromedary::component::json {
namespace {

std::string write(const Value& v, JsonStyle style = {}) {
  std::string out;
  auto ok = writeJson(v, out, style);
  EXPECT_TRUE(ok) << ok.error().message;
  return out;
}

Value read(std::string_view text) {
  auto v = readJson(text);
  EXPECT_TRUE(v) << v.error().message;
  return v ? *v : Value();
}

// Found by the json_text fuzz target: "[]" then a NUL then more was read as [] and the rest
// dropped without a word.
TEST(JsonTextTest, ANulByteIsRefusedWhereItIsNotTakenAsTheEnd) {
  for (std::string_view text : {std::string_view("[1]\0{\"more\": 2}", 15),
                                std::string_view("[]\0", 3),
                                std::string_view("{\"a\": \"x\0y\"}", 12)}) {
    auto v = readJson(text);
    ASSERT_FALSE(v) << text.size();
    EXPECT_NE(v.error().message.find("a NUL byte"), std::string::npos) << v.error().message;
  }
  auto v = readJson(std::string_view("[1]\0", 4));
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "invalid JSON at line 1, column 4: a NUL byte, which JSON text "
                               "never holds");
}

TEST(JsonTextTest, ObjectsKeepTheirOrderAndTypes) {
  Value v = read(R"({"b": 1, "a": [true, null, 2.5, "x"], "c": {"d": -7}})");
  ASSERT_TRUE(v.isMap());
  const ValueMap& m = v.getMap();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].first, "b");
  EXPECT_EQ(m[0].second, Value(int64_t{1}));
  EXPECT_EQ(m[1].second.getList()[2], Value(2.5));
  EXPECT_TRUE(m[1].second.getList()[1].isNull());
  EXPECT_EQ(write(v), R"({"b":1,"a":[true,null,2.5,"x"],"c":{"d":-7}})");
}

TEST(JsonTextTest, UnicodeEscapesAndSurrogatePairsBecomeUtf8AndStayUtf8) {
  Value v = read(R"(["caf\u00e9", "\ud83d\udc2a", "tab\there", "quote\" back\\"])");
  EXPECT_EQ(v.getList()[0].getString(), "caf\xc3\xa9");
  EXPECT_EQ(v.getList()[1].getString(), "\xf0\x9f\x90\xaa");
  EXPECT_EQ(write(v), "[\"caf\xc3\xa9\",\"\xf0\x9f\x90\xaa\",\"tab\\there\",\"quote\\\" back\\\\\"]");
  EXPECT_EQ(write(Value(std::string("\x01"))), "\"\\u0001\"");
}

TEST(JsonTextTest, BigNumbersBeyondLongAreDoubles) {
  EXPECT_EQ(read("9223372036854775807"), Value(int64_t{9223372036854775807}));
  EXPECT_EQ(read("-9223372036854775808").getInt(), std::numeric_limits<int64_t>::min());
  Value big = read("18446744073709551615");
  ASSERT_TRUE(big.isDouble());
  EXPECT_DOUBLE_EQ(big.getDouble(), 18446744073709551615.0);
  auto overflow = readJson("1e400");
  ASSERT_FALSE(overflow);
  EXPECT_EQ(overflow.error().message, "invalid JSON at line 1, column 5: number overflow parsing '1e400'");
}

TEST(JsonTextTest, DoublesAreWrittenAsJacksonWritesThem) {
  EXPECT_EQ(write(Value(2.0)), "2.0");
  EXPECT_EQ(write(Value(0.1)), "0.1");
  EXPECT_EQ(write(Value(std::nan(""))), "\"NaN\"");
  EXPECT_EQ(write(Value(Bytes("hi!"))), "\"aGkh\"");
}

TEST(JsonTextTest, PrettyPrintIsJacksonsDefaultPrinter) {
  Value v = read(R"({"a": [1, 2], "b": {"c": {}}, "d": [], "e": [{"f": 1}]})");
  EXPECT_EQ(write(v, {.pretty = true}),
            "{\n"
            "  \"a\" : [ 1, 2 ],\n"
            "  \"b\" : {\n"
            "    \"c\" : { }\n"
            "  },\n"
            "  \"d\" : [ ],\n"
            "  \"e\" : [ {\n"
            "    \"f\" : 1\n"
            "  } ]\n"
            "}");
}

TEST(JsonTextTest, NonNullLeavesOutNullEntries) {
  EXPECT_EQ(write(read(R"({"a": null, "b": [null]})"), {.skipNulls = true}), R"({"b":[null]})");
}

TEST(JsonTextTest, InvalidTextNamesTheLineAndColumn) {
  auto bad = readJson("{\n  \"a\": tru\n}");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("invalid JSON at line 2, column 10: syntax error"), std::string::npos)
      << bad.error().message;
  EXPECT_FALSE(readJson(""));
  EXPECT_FALSE(readJson("{} {}"));
}

TEST(JsonTextTest, NestingPastTheLimitIsRefusedWithoutACrash) {
  std::string deep(kMaxJsonDepth, '[');
  deep += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(readJson(deep));
  std::string one_more(kMaxJsonDepth + 1, '[');
  one_more += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_FALSE(readJson(one_more));
  std::string deeper(100000, '[');
  deeper += std::string(100000, ']');
  auto bad = readJson(deeper);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("nested deeper than 1000 levels"), std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace dromedary::component::json
