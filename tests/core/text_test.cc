// SPDX-License-Identifier: Apache-2.0
#include "core/text.h"

#include <gtest/gtest.h>

#include <string>

namespace dromedary {
namespace {

TEST(TextTest, SameTextFindsADifferenceInAnyByteAtEveryLength) {
  for (size_t n = 0; n <= 40; ++n) {
    const std::string a(n, 'x');
    EXPECT_TRUE(sameText(a, std::string(n, 'x'))) << n;
    for (size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = 'y';
      EXPECT_FALSE(sameText(a, b)) << "length " << n << ", byte " << i;
    }
  }
}

TEST(TextTest, SameTextTellsLengthsApart) {
  EXPECT_FALSE(sameText("direct:one", "direct:on"));
  EXPECT_FALSE(sameText("", "a"));
  EXPECT_TRUE(sameText("", ""));
  EXPECT_TRUE(sameText("direct:one", std::string_view("direct:one-and-more").substr(0, 10)));
}

}  // namespace
}  // namespace dromedary
