// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/value_compare.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

TEST(ValueCompareTest, NumericSideMakesTheComparisonNumeric) {
  EXPECT_TRUE(coerceEquals(Value(100), Value("100")));
  EXPECT_TRUE(coerceEquals(Value("1.50"), Value(1.5)));
  EXPECT_LT(*coerceCompare(Value("9"), Value(10)), 0);   // 9 < 10 numerically
}

// Camel 4's typeCoerceCompare: two texts that are both numbers (digits only) compare as
// numbers, whatever their length; other texts compare as strings.
TEST(ValueCompareTest, TwoNumericTextsCompareAsNumbers) {
  EXPECT_LT(*coerceCompare(Value("9"), Value("10")), 0);
  EXPECT_LT(*coerceCompare(Value("2"), Value("10")), 0);
  EXPECT_EQ(*coerceCompare(Value("007"), Value("7")), 0);
  EXPECT_GT(*coerceCompare(Value("123456789012345678901234567890"), Value("99")), 0);
  EXPECT_GT(*coerceCompare(Value("9a"), Value("10")), 0);  // not a number: as strings
}

TEST(ValueCompareTest, NullEqualsOnlyNullAndIsNotOrdered) {
  EXPECT_TRUE(coerceEquals(Value(), Value()));
  EXPECT_FALSE(coerceEquals(Value(), Value("")));
  EXPECT_FALSE(coerceCompare(Value(), Value(1)).has_value());
}

TEST(ValueCompareTest, BoolComparesWithItsStringForm) {
  EXPECT_TRUE(coerceEquals(Value(true), Value("true")));
  EXPECT_FALSE(coerceEquals(Value(true), Value("yes")));
}

TEST(ValueCompareTest, UnparsableStringAgainstNumberComparesAsStrings) {
  EXPECT_FALSE(coerceEquals(Value(1), Value("one")));
  EXPECT_TRUE(coerceEquals(Value(1), Value("1")));
}

TEST(ValueCompareTest, ContainsWorksOnStringsAndLists) {
  EXPECT_TRUE(coerceContains(Value("hello world"), Value("lo w")));
  EXPECT_TRUE(coerceContains(Value(ValueList{1, 2, 3}), Value("2")));
  EXPECT_FALSE(coerceContains(Value(ValueList{1, 2, 3}), Value(4)));
}

}  // namespace
}  // namespace dromedary
