// SPDX-License-Identifier: Apache-2.0
// Paths with Camel's REST parameters: parsing errors, matching, binding, prefixes.
#include <gtest/gtest.h>

#include "path_template.h"

namespace dromedary::component::http {
namespace {

TEST(PathTemplateTest, ALiteralPathMatchesItselfWithOrWithoutSlashes) {
  auto t = PathTemplate::parse("/say/hello");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->text(), "/say/hello");
  EXPECT_TRUE(t->match("/say/hello", false, nullptr));
  EXPECT_TRUE(t->match("/say/hello/", false, nullptr));
  EXPECT_FALSE(t->match("/say", false, nullptr));
  EXPECT_FALSE(t->match("/say/hello/there", false, nullptr));
  EXPECT_FALSE(t->match("/say/bye", false, nullptr));
}

TEST(PathTemplateTest, ParametersBindTheirSegmentsDecoded) {
  auto t = PathTemplate::parse("users/{id}/orders/{order}");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->text(), "/users/{id}/orders/{order}");
  EXPECT_EQ(t->parameterCount(), 2u);
  std::vector<std::pair<std::string, std::string>> params;
  ASSERT_TRUE(t->match("/users/a%20b/orders/7", false, &params));
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0], (std::pair<std::string, std::string>{"id", "a b"}));
  EXPECT_EQ(params[1], (std::pair<std::string, std::string>{"order", "7"}));
}

TEST(PathTemplateTest, APrefixMatchesLongerPaths) {
  auto t = PathTemplate::parse("/files");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->match("/files/a/b.txt", true, nullptr));
  EXPECT_TRUE(t->match("/files", true, nullptr));
  EXPECT_FALSE(t->match("/other/files", true, nullptr));
  EXPECT_FALSE(t->match("/files/a/b.txt", false, nullptr));
}

TEST(PathTemplateTest, MalformedParametersAreRefusedNamingThePath) {
  for (const char* bad : {"/a/{id", "/a/{}", "/a/x{id}", "/a/{id}/{id}", "/a/{b}c"}) {
    auto t = PathTemplate::parse(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_NE(t.error().message.find(std::string("bad path '") + bad + "'"), std::string::npos)
        << t.error().message;
  }
}

TEST(PathTemplateTest, SamePathIgnoresParameterNames) {
  auto a = PathTemplate::parse("/a/{x}");
  auto b = PathTemplate::parse("/a/{y}/");
  auto c = PathTemplate::parse("/a/y");
  EXPECT_TRUE(a->samePath(*b));
  EXPECT_FALSE(a->samePath(*c));
}

TEST(PathTemplateTest, PercentDecodingOfPathsAndQueries) {
  EXPECT_EQ(percentDecode("a%2Fb+c", false), "a/b+c");
  EXPECT_EQ(percentDecode("a%2fb+c", true), "a/b c");
  EXPECT_EQ(percentDecode("100%", true), "100%");
  EXPECT_EQ(percentDecode("%zz", true), "%zz");
}

}  // namespace
}  // namespace dromedary::component::http
