// SPDX-License-Identifier: Apache-2.0
// ${date:...}: commands, offsets, SimpleDateFormat patterns and time zones.
#include <chrono>
#include <cstdint>
#include <ctime>

#include "support/simple_fixture.h"

namespace dromedary::testing {
namespace {

using SimpleDateTest = SimpleTest;

// 2024-02-29T13:45:07.089Z
constexpr int64_t kMillis = 1709214307089;

TEST_F(SimpleDateTest, FormatsAHeaderInUtc) {
  message().setHeader("birthday", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:header.birthday:UTC:yyyy-MM-dd'T'HH:mm:ss.SSS}"),
            Value("2024-02-29T13:45:07.089"));
}

TEST_F(SimpleDateTest, PatternLetters) {
  message().setHeader("d", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:header.d:UTC:EEE, d MMM yy hh:mm a}"),
            Value("Thu, 29 Feb 24 01:45 PM"));
  EXPECT_EQ(eval("${date-with-timezone:header.d:UTC:EEEE MMMM D}"),
            Value("Thursday February 60"));
  EXPECT_EQ(eval("${date-with-timezone:header.d:UTC:yyyyMMdd'T'HHmmssZ z}"),
            Value("20240229T134507+0000 UTC"));
}

TEST_F(SimpleDateTest, FixedOffsetZones) {
  message().setHeader("d", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:header.d:GMT+8:HH:mm XXX}"), Value("21:45 +08:00"));
  EXPECT_EQ(eval("${date-with-timezone:header.d:GMT-0330:HH:mm Z}"), Value("10:15 -0330"));
  EXPECT_EQ(eval("${date-with-timezone:header.d:UTC:HH:mm X}"), Value("13:45 Z"));
}

TEST_F(SimpleDateTest, OffsetsShiftTheDate) {
  message().setHeader("d", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:header.d+24h:UTC:yyyyMMdd}"), Value("20240301"));
  EXPECT_EQ(eval("${date-with-timezone:header.d-10s:UTC:HH:mm:ss}"), Value("13:44:57"));
  EXPECT_EQ(eval("${date-with-timezone:header.d+1h30m-100:UTC:HH:mm:ss.SSS}"),
            Value("15:15:06.989"));
}

TEST_F(SimpleDateTest, DefaultZoneIsTheLocalZone) {
  message().setHeader("d", Value(kMillis));
  std::time_t t = kMillis / 1000;
  std::tm tm{};
  localtime_r(&t, &tm);
  char expected[32];
  std::strftime(expected, sizeof(expected), "%Y%m%d %H", &tm);
  EXPECT_EQ(eval("${date:header.d:yyyyMMdd HH}"), Value(expected));
}

TEST_F(SimpleDateTest, NowFormatsTheCurrentTime) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char year[8];
  std::strftime(year, sizeof(year), "%Y", &tm);
  EXPECT_EQ(eval("${date:now:yyyy}"), Value(year));
}

TEST_F(SimpleDateTest, NowWithoutPatternIsMillis) {
  int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  int64_t now = eval("${date:now}").as<int64_t>();
  int64_t millis = eval("${date:millis}").as<int64_t>();
  EXPECT_GE(now, before);
  EXPECT_GE(millis, now);
  EXPECT_NEAR(static_cast<double>(eval("${date:now+1h}").as<int64_t>() - now), 3600000.0, 5000.0);
}

TEST_F(SimpleDateTest, ExchangeCreated) {
  EXPECT_EQ(eval("${date:exchangeCreated}"), Value(exchange->createdMillis()));
}

TEST_F(SimpleDateTest, ExchangeProperty) {
  exchange->setProperty("birthday", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:exchangeProperty.birthday:UTC:yyyyMMdd}"),
            Value("20240229"));
}

TEST_F(SimpleDateTest, HeaderThatIsNotADateFailsTheExchange) {
  message().setHeader("d", Value("yesterday"));
  EXPECT_EQ(eval("${date:header.d:yyyy}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${date:header.d:yyyy}: the value is not a date in "
            "milliseconds since the epoch");
}

// Found by the fuzzer: a huge offset overflowed. It is now no offset at all, so the command
// is unknown; a date moved out of range fails the exchange.
TEST_F(SimpleDateTest, HugeOffsetIsRefused) {
  EXPECT_NE(expressionError("${date:now-33333333333333333d:yyyy}"), "");
}

TEST_F(SimpleDateTest, DateOutOfRangeFailsTheExchange) {
  message().setHeader("d", Value(INT64_MAX - 1000));
  EXPECT_EQ(eval("${date:header.d+1d}"), Value("<failed>"));
  EXPECT_EQ(exchange->error().message(),
            "Simple expression failed: ${date:header.d+1d}: the date is out of range");
}

TEST_F(SimpleDateTest, QuotedTextInPatterns) {
  message().setHeader("d", Value(kMillis));
  EXPECT_EQ(eval("${date-with-timezone:header.d:UTC:h 'o''clock'}"), Value("1 o'clock"));
}

}  // namespace
}  // namespace dromedary::testing
