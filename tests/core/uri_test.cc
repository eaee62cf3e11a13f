// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/uri.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

TEST(UriTest, SplitsSchemePathAndOptions) {
  auto uri = Uri::parse("direct:orders?timeout=5&block=false");
  ASSERT_TRUE(uri) << uri.error().message;
  EXPECT_EQ(uri->scheme(), "direct");
  EXPECT_EQ(uri->path(), "orders");
  ASSERT_EQ(uri->options().size(), 2u);
  EXPECT_EQ(*uri->option("timeout"), "5");
}

TEST(UriTest, NormalisesWithDoubleSlashAndSortedOptions) {
  EXPECT_EQ(Uri::parse("direct:a?timeout=5&block=false")->normalized(),
            "direct://a?block=false&timeout=5");
  EXPECT_EQ(Uri::parse("direct://a?block=false&timeout=5")->normalized(),
            Uri::parse("direct:a?timeout=5&block=false")->normalized());
  EXPECT_EQ(Uri::parse("log:x")->normalized(), "log://x");
}

TEST(UriTest, DecodesPercentEscapesAndPlus) {
  auto uri = Uri::parse("log:x?message=hello+big%20world%21");
  ASSERT_TRUE(uri);
  EXPECT_EQ(*uri->option("message"), "hello big world!");
  EXPECT_EQ(uri->normalized(), "log://x?message=hello%20big%20world%21");
}

TEST(UriTest, KeepsRawValuesVerbatim) {
  auto uri = Uri::parse("x:y?password=RAW(se+c&ret)&user=me");
  ASSERT_TRUE(uri) << uri.error().message;
  EXPECT_EQ(*uri->option("password"), "se+c&ret");
  EXPECT_EQ(*uri->option("user"), "me");
}

TEST(UriTest, RejectsAMissingScheme) {
  auto uri = Uri::parse("orders");
  ASSERT_FALSE(uri);
  EXPECT_EQ(uri.error().code, ErrorCode::InvalidUri);
  EXPECT_EQ(uri.error().message,
            "invalid endpoint uri 'orders': no scheme (expected 'scheme:path?options', e.g. "
            "'direct:name')");
}

TEST(UriTest, RejectsABadSchemeCharacter) {
  auto uri = Uri::parse("di_rect:a");
  ASSERT_FALSE(uri);
  EXPECT_EQ(uri.error().message,
            "invalid endpoint uri 'di_rect:a': scheme 'di_rect' has an invalid character '_' "
            "(expected a letter, then letters, digits, '+', '-' or '.')");
}

// A repeated option is kept, in the order written (an HTTP query's tag=a&tag=b): the option
// table refuses a repeated option it names (OptionTableTest).
TEST(UriTest, KeepsARepeatedOptionInTheOrderWritten) {
  auto uri = Uri::parse("http:h/search?tag=b&x=1&tag=a");
  ASSERT_TRUE(uri) << uri.error().message;
  ASSERT_EQ(uri->options().size(), 3u);
  EXPECT_EQ(uri->options()[0], (Uri::Option{"tag", "b"}));
  EXPECT_EQ(uri->options()[1], (Uri::Option{"tag", "a"}));
}

TEST(UriTest, RejectsABadPercentEscape) {
  auto uri = Uri::parse("direct:a?x=%zz");
  ASSERT_FALSE(uri);
  EXPECT_EQ(uri.error().message,
            "invalid endpoint uri 'direct:a?x=%zz': bad percent escape in '%zz' (expected %XX "
            "with two hex digits)");
}

TEST(UriTest, RejectsAnOptionWithoutAName) {
  auto uri = Uri::parse("direct:a?=5");
  ASSERT_FALSE(uri);
  EXPECT_EQ(uri.error().message, "invalid endpoint uri 'direct:a?=5': option '=5' has no name");
}

}  // namespace
}  // namespace dromedary
