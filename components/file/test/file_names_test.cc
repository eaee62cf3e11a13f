// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "file_consumer.h"
#include "file_names.h"

namespace dromedary::component::file {
namespace {

TEST(FileNamesTest, ExtensionsFromTheFirstDotOrTheLast) {
  EXPECT_EQ(extensionOf("sub/a.tar.gz", false), "tar.gz");
  EXPECT_EQ(extensionOf("sub/a.tar.gz", true), "gz");
  EXPECT_EQ(extensionOf("sub.d/a", false), "");
  EXPECT_EQ(withoutExtension("sub/a.tar.gz", false), "sub/a");
  EXPECT_EQ(withoutExtension("sub/a.tar.gz", true), "sub/a.tar");
  EXPECT_EQ(withoutExtension("sub.d/a", false), "sub.d/a");
}

TEST(FileNamesTest, AntPatterns) {
  EXPECT_TRUE(antMatches("**/*.txt", "a.txt"));
  EXPECT_TRUE(antMatches("**/*.txt", "x/y/a.txt"));
  EXPECT_TRUE(antMatches("sub/**", "sub/x/y.csv"));
  EXPECT_FALSE(antMatches("sub/*", "sub/x/y.csv"));
  EXPECT_TRUE(antMatches("a?c.*", "abc.xml"));
  EXPECT_FALSE(antMatches("*.TXT", "a.txt"));
  EXPECT_TRUE(antMatches("*.TXT", "a.txt", false));
  EXPECT_TRUE(antMatchesAny("*.xml, **/*.txt", "d/a.txt"));
}

TEST(FileNamesTest, NamesThatLeaveTheFolder) {
  EXPECT_TRUE(staysInside("a/b.txt"));
  EXPECT_TRUE(staysInside("a/../b.txt"));
  EXPECT_FALSE(staysInside("../b.txt"));
  EXPECT_FALSE(staysInside("a/../../b.txt"));
  EXPECT_FALSE(staysInside("/etc/passwd"));
  EXPECT_EQ(normalizePath("a/./b//c/../d"), "a/b/d");
}

TEST(FileNamesTest, AMoveFolderIsBesideTheFileAndAnExpressionIsKept) {
  EXPECT_EQ(moveExpressionText(".done"), "${file:parent}/.done/${file:onlyname}");
  EXPECT_EQ(moveExpressionText("/archive/"), "/archive/${file:onlyname}");
  EXPECT_EQ(moveExpressionText("done/${file:name}"), "done/${file:name}");
}

TEST(FileNamesTest, SortByKeys) {
  auto keys = parseSortBy("file:modified;reverse:ignoreCase:file:name");
  ASSERT_TRUE(keys);
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[0].by, SortKey::By::Modified);
  EXPECT_TRUE((*keys)[1].reverse);
  EXPECT_TRUE((*keys)[1].ignoreCase);
  EXPECT_FALSE(parseSortBy("file:colour"));
}

}  // namespace
}  // namespace dromedary::component::file
