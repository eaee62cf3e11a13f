// SPDX-License-Identifier: Apache-2.0
// DefaultHeaderFilterStrategy: Camel's prefixes filtered both ways ignoring case, names,
// filterOnMatch and null values.
#include <gtest/gtest.h>

#include <dromedary/spi/header_filter_strategy.h>

namespace dromedary {
namespace {

const Value kText("v");

TEST(DefaultHeaderFilterStrategyTest, CamelsPrefixesAreFilteredBothWaysIgnoringCase) {
  DefaultHeaderFilterStrategy s;
  for (const char* name : {"CamelHttpResponseCode", "camelhttpmethod", "CAmelExecCommandExecutable",
                           "org.apache.camel.Anything", "ORG.APACHE.CAMEL.x"}) {
    EXPECT_TRUE(s.applyFilterToExternalHeaders(name, kText)) << name;
    EXPECT_TRUE(s.applyFilterToCamelHeaders(name, kText)) << name;
  }
  for (const char* name : {"X-Camel", "Content-Type", "Came", "org.apache.camelot"}) {
    EXPECT_FALSE(s.applyFilterToExternalHeaders(name, kText)) << name;
  }
}

TEST(DefaultHeaderFilterStrategyTest, NamesAreMatchedWholeIgnoringCase) {
  DefaultHeaderFilterStrategy s;
  s.setInFilter({"Authorization"});
  EXPECT_TRUE(s.applyFilterToExternalHeaders("authorization", kText));
  EXPECT_FALSE(s.applyFilterToExternalHeaders("Authorization-Extra", kText));
  EXPECT_FALSE(s.applyFilterToCamelHeaders("Authorization", kText));
}

TEST(DefaultHeaderFilterStrategyTest, WithoutFilterOnMatchOnlyTheMatchedHeadersPass) {
  DefaultHeaderFilterStrategy s;
  s.setFilterOnMatch(false);
  s.setInFilterStartsWith({});
  s.setInFilter({"X-Allowed"});
  EXPECT_FALSE(s.applyFilterToExternalHeaders("x-allowed", kText));
  EXPECT_TRUE(s.applyFilterToExternalHeaders("X-Other", kText));
}

TEST(DefaultHeaderFilterStrategyTest, NullValuesAreFilteredUnlessAllowed) {
  DefaultHeaderFilterStrategy s;
  EXPECT_TRUE(s.applyFilterToCamelHeaders("X-Empty", Value()));
  s.setAllowNullValues(true);
  EXPECT_FALSE(s.applyFilterToCamelHeaders("X-Empty", Value()));
  EXPECT_TRUE(s.applyFilterToCamelHeaders("", kText)) << "a header needs a name";
}

}  // namespace
}  // namespace dromedary
