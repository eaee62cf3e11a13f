// SPDX-License-Identifier: Apache-2.0
// A source file's name is interned: every SourceRef of one file shares one copy (a route's
// model keeps one per step), reads as the text it names, and an error still says
// file:line:column. A log category is its interned name too, and a line keeps Camel's shape.
#include <dromedary/core/logging.h>
#include <dromedary/core/result.h>
#include <gmock/gmock.h>

#include <string>

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

TEST(SourceFileTest, RefsToOneFileShareOneCopyOfItsName) {
  std::string path = "/tmp/tmp.k2j3h4/routes-16mb.yaml";  // longer than a string keeps inline
  SourceRef a{path, 3, 7, {}};
  SourceRef b{SourceFile(std::string_view(path)), 9, 1, {}};
  EXPECT_EQ(&a.file.str(), &b.file.str());
  EXPECT_TRUE(a.file == b.file);
  EXPECT_TRUE(a.file == path);
  EXPECT_FALSE(a.file == SourceFile("/tmp/other.yaml"));
  const std::string& text = a.file;
  EXPECT_EQ(text, path);
  EXPECT_EQ(sizeof(SourceFile), sizeof(void*));
}

TEST(SourceFileTest, AnEmptyNameIsNone) {
  SourceFile none;
  SourceFile empty("");
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(none.str(), "");
  EXPECT_TRUE(none == empty);
  EXPECT_FALSE(SourceFile("x.yaml").empty());
}

TEST(SourceFileTest, AnErrorStillNamesFileLineAndColumn) {
  Error e = makeError(ErrorCode::InvalidRoute, "unknown step 'fliter'");
  e.where = {"routes/orders.yaml", 12, 9, "fliter"};
  EXPECT_EQ(e.toString(), "routes/orders.yaml:12:9: unknown step 'fliter'");
  e.where.file = std::string("other.xml");
  e.where.line = 0;
  EXPECT_EQ(e.toString(), "other.xml: unknown step 'fliter'");
}

TEST(LoggerTest, ACategoryIsItsNameAndItsLinesKeepCamelsShape) {
  Logger a = Logger::get("orders.route-7");
  Logger b = Logger::get(std::string("orders.route-7"));
  EXPECT_EQ(a.category(), "orders.route-7");
  EXPECT_EQ(a.category().data(), b.category().data());  // one copy of the name
  ::testing::internal::CaptureStdout();
  a.log(LoggingLevel::Warn, "late order 42");
  std::string out = ::testing::internal::GetCapturedStdout();
  // (POSIX extended regular expressions: no \d.)
  EXPECT_THAT(out, MatchesRegex("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\\.[0-9]{3}  WARN [0-9]+ --- "
                                "\\[[0-9]+\\] orders\\.route-7 : late order 42\n"));
}

}  // namespace
}  // namespace dromedary::testing
