// SPDX-License-Identifier: Apache-2.0
#include <dromedary/spi/option_table.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

constexpr OptionSpec kSpecs[] = {
    {"block", OptionType::Bool, "true", "wait"},
    {"timeout", OptionType::Duration, "30000", "how long"},
    {"size", OptionType::Int, "1000", "capacity"},
    {"ratio", OptionType::Double, "0.5", "a ratio"},
    {"mode", OptionType::Enum, "Always", "when", "Always,Never,IfReplyExpected"},
    {"name", OptionType::String, "", "a name"},
};

Result<EndpointOptions> resolve(std::string_view uri) {
  return EndpointOptions::resolve(kSpecs, *Uri::parse(uri));
}

TEST(OptionTableTest, AppliesDefaults) {
  auto o = resolve("x:a");
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->getBool("block"));
  EXPECT_EQ(o->getDuration("timeout").count(), 30000);
  EXPECT_EQ(o->getInt("size"), 1000);
  EXPECT_DOUBLE_EQ(o->getDouble("ratio"), 0.5);
  EXPECT_EQ(o->getString("mode"), "Always");
  EXPECT_FALSE(o->isSet("block"));
}

// Only options given and text defaults are kept; the others' defaults are parsed when asked
// for, and still read as text, as they are written in the table.
TEST(OptionTableTest, DefaultsNotKeptReadTheSameAsThoseKept) {
  auto o = resolve("x:a?size=5");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getInt("size"), 5);
  EXPECT_TRUE(o->isSet("size"));
  EXPECT_EQ(o->getString("size"), "5");
  EXPECT_EQ(o->getString("timeout"), "30000");
  EXPECT_EQ(o->getString("block"), "true");
  EXPECT_EQ(o->getString("name"), "");
  EXPECT_FALSE(o->isSet("timeout"));
  EXPECT_THROW(o->getInt("nosuch"), std::logic_error);
  EXPECT_THROW(o->getString("nosuch"), std::logic_error);
}

TEST(OptionTableTest, ParsesGivenValuesAndMatchesNamesIgnoringCase) {
  auto o = resolve("x:a?Block=false&timeout=1m30s&SIZE=5&mode=never");
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_FALSE(o->getBool("block"));
  EXPECT_EQ(o->getDuration("timeout").count(), 90000);
  EXPECT_EQ(o->getInt("size"), 5);
  EXPECT_EQ(o->getString("mode"), "Never");
  EXPECT_TRUE(o->isSet("block"));
}

TEST(OptionTableTest, KebabCaseNamesAreTheCamelCaseOnes) {
  constexpr OptionSpec kCamelCase[] = {{"showBodyType", OptionType::Bool, "true", "shown"}};
  auto o = EndpointOptions::resolve(kCamelCase, *Uri::parse("x:a?show-body-type=false"));
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_FALSE(o->getBool("showBodyType"));
  EXPECT_FALSE(EndpointOptions::resolve(kCamelCase, *Uri::parse("x:a?show-body-kind=false")));
}

TEST(OptionTableTest, ALenientTableKeepsOptionsItDoesNotNameAndStillChecksItsOwn) {
  auto o = EndpointOptions::resolve(kSpecs, *Uri::parse("x:a?size=5&q=a%20b&other=1"), true);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->getInt("size"), 5);
  ASSERT_EQ(o->unknownOptions().size(), 2u);
  EXPECT_EQ(o->unknownOptions()[0], (Uri::Option{"other", "1"}));
  EXPECT_EQ(o->unknownOptions()[1], (Uri::Option{"q", "a b"}));
  EXPECT_FALSE(EndpointOptions::resolve(kSpecs, *Uri::parse("x:a?size=many&q=1"), true));
  EXPECT_TRUE(EndpointOptions::names(kSpecs, "Mode"));
  EXPECT_FALSE(EndpointOptions::names(kSpecs, "q"));
}

TEST(OptionTableTest, AnOptionTheTableNamesIsRefusedWhenGivenTwice) {
  auto o = resolve("direct:a?timeout=1&timeout=2");
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().message,
            "option 'timeout' is given more than once in endpoint 'direct:a?timeout=1&timeout=2'");
  // A lenient table keeps a repeated option it does not name (an HTTP query's).
  auto lenient = EndpointOptions::resolve(kSpecs, *Uri::parse("x:a?tag=1&tag=2"), true);
  ASSERT_TRUE(lenient) << lenient.error().message;
  EXPECT_EQ(lenient->unknownOptions().size(), 2u);
}

TEST(OptionTableTest, UnknownOptionSuggestsTheOneMeant) {
  auto o = resolve("direct:a?timout=5");
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().code, ErrorCode::UnknownOption);
  EXPECT_EQ(o.error().message,
            "unknown option 'timout' for endpoint 'direct:a?timout=5'; did you mean 'timeout'?");
}

TEST(OptionTableTest, UnknownOptionWithNothingCloseListsTheKnownOptions) {
  auto o = resolve("direct:a?zzzzzz=1");
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().message,
            "unknown option 'zzzzzz' for endpoint 'direct:a?zzzzzz=1'; known options: block, "
            "timeout, size, ratio, mode, name");
}

TEST(OptionTableTest, WrongTypesSayWhatWasExpected) {
  EXPECT_EQ(resolve("x:a?block=yes").error().message,
            "invalid value 'yes' for option 'block' of endpoint 'x:a?block=yes': expected true "
            "or false");
  EXPECT_EQ(resolve("x:a?size=big").error().message,
            "invalid value 'big' for option 'size' of endpoint 'x:a?size=big': expected an "
            "integer");
  EXPECT_EQ(resolve("x:a?timeout=soon").error().message,
            "invalid value 'soon' for option 'timeout' of endpoint 'x:a?timeout=soon': expected "
            "a duration such as 500, 500ms, 5s or 1m30s");
  EXPECT_EQ(resolve("x:a?mode=Sometimes").error().message,
            "invalid value 'Sometimes' for option 'mode' of endpoint 'x:a?mode=Sometimes': "
            "expected one of Always, Never, IfReplyExpected");
}

TEST(OptionTableTest, ParsesDurations) {
  EXPECT_EQ(parseDuration("250")->count(), 250);
  EXPECT_EQ(parseDuration("250ms")->count(), 250);
  EXPECT_EQ(parseDuration("5s")->count(), 5000);
  EXPECT_EQ(parseDuration("2h")->count(), 7200000);
  EXPECT_FALSE(parseDuration("5x"));
  EXPECT_FALSE(parseDuration(""));
}

TEST(OptionTableTest, ADurationBeyondMillisecondsRangeIsRefusedNotWrapped) {
  // Found by the YAML loader's fuzz target: 99999999999999999h overflowed.
  auto d = parseDuration("99999999999999999h");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message,
            "'99999999999999999h' is too long a duration (at most about 292 million years in "
            "milliseconds)");
  EXPECT_FALSE(parseDuration("9223372036854775807ms1ms"));
  EXPECT_EQ(parseDuration("9223372036854775807")->count(), INT64_MAX);
}

}  // namespace
}  // namespace dromedary
