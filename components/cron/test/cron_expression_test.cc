// SPDX-License-Identifier: Apache-2.0
// Cron expressions: Quartz's six and seven fields, Unix's five, and the next fire time, in UTC
// (the process's time zone is set for these tests).
#include "cron_expression.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace dromedary::component::cron {
namespace {

class CronExpressionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setenv("TZ", "UTC", 1);
    tzset();
  }
  // Seconds since the epoch of a UTC time.
  static std::time_t at(int year, int month, int day, int hour, int minute, int second) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    return timegm(&tm);
  }
  static std::time_t next(std::string_view expression, std::time_t after) {
    auto c = CronExpression::parse(expression);
    EXPECT_TRUE(c) << c.error().message;
    auto n = c->next(after);
    EXPECT_TRUE(n.has_value());
    return n.value_or(0);
  }
  static std::string error(std::string_view expression) {
    auto c = CronExpression::parse(expression);
    return c ? std::string() : c.error().message;
  }
};

TEST_F(CronExpressionTest, EveryThreeSecondsStartsAtTheNextMultiple) {
  EXPECT_EQ(next("0/3 * * * * ?", at(2026, 12, 2, 10, 0, 4)), at(2026, 12, 2, 10, 0, 6));
  EXPECT_EQ(next("0/3+*+*+*+*+?", at(2026, 12, 2, 10, 0, 58)), at(2026, 12, 2, 10, 1, 0));
}

TEST_F(CronExpressionTest, AFixedTimeOfDayRollsToTheNextDay) {
  EXPECT_EQ(next("0 30 9 * * ?", at(2026, 12, 2, 10, 0, 0)), at(2026, 12, 3, 9, 30, 0));
  EXPECT_EQ(next("0 30 9 * * ?", at(2026, 12, 2, 9, 29, 59)), at(2026, 12, 2, 9, 30, 0));
}

TEST_F(CronExpressionTest, WeekdaysByNameAndNumber) {
  // 2026-12-05 is a Saturday: MON-FRI goes to Monday the 7th.
  EXPECT_EQ(next("0 0 8 ? * MON-FRI", at(2026, 12, 5, 12, 0, 0)), at(2026, 12, 7, 8, 0, 0));
  EXPECT_EQ(next("0 0 8 ? * 2-6", at(2026, 12, 5, 12, 0, 0)), at(2026, 12, 7, 8, 0, 0));
  // A wrapping range: FRI-MON from a Tuesday is Friday.
  EXPECT_EQ(next("0 0 0 ? * FRI-MON", at(2026, 12, 1, 12, 0, 0)), at(2026, 12, 4, 0, 0, 0));
}

TEST_F(CronExpressionTest, UnixFiveFieldsHaveNoSecondsAndSundayIsZeroOrSeven) {
  EXPECT_EQ(next("*/15 * * * *", at(2026, 12, 2, 10, 7, 30)), at(2026, 12, 2, 10, 15, 0));
  EXPECT_EQ(next("0 12 * * 0", at(2026, 12, 2, 0, 0, 0)), at(2026, 12, 6, 12, 0, 0));
  EXPECT_EQ(next("0 12 * * 7", at(2026, 12, 2, 0, 0, 0)), at(2026, 12, 6, 12, 0, 0));
}

TEST_F(CronExpressionTest, MonthsListsAndTheLastDayOfAShortMonth) {
  EXPECT_EQ(next("0 0 0 1 JAN,JUL ?", at(2026, 12, 2, 0, 0, 0)), at(2027, 1, 1, 0, 0, 0));
  EXPECT_EQ(next("0 0 0 31 * ?", at(2026, 11, 1, 0, 0, 0)), at(2026, 12, 31, 0, 0, 0));
  EXPECT_EQ(next("0 0 0 29 2 ?", at(2026, 3, 1, 0, 0, 0)), at(2028, 2, 29, 0, 0, 0));
}

TEST_F(CronExpressionTest, AYearFieldEndsTheSchedule) {
  EXPECT_EQ(next("0 0 0 1 1 ? 2030", at(2026, 12, 2, 0, 0, 0)), at(2030, 1, 1, 0, 0, 0));
  auto past = CronExpression::parse("0 0 0 1 1 ? 2020");
  ASSERT_TRUE(past);
  EXPECT_FALSE(past->next(at(2026, 12, 2, 0, 0, 0)).has_value());
}

TEST_F(CronExpressionTest, MistakesNameTheField) {
  EXPECT_EQ(error("0 0 25 * * ?"), "cron hour field '25': 25 is out of 0-23");
  EXPECT_EQ(error("0 0 0 L * ?"), "cron day-of-month field 'L': Quartz's L, W and # are not supported");
  EXPECT_EQ(error("0 0 0 ? * 6#3"), "cron day-of-week field '6#3': Quartz's L, W and # are not supported");
  EXPECT_EQ(error("0 0 0 * FOO ?"), "cron month field 'FOO': 'FOO' is not a number or a name");
  EXPECT_EQ(error("0 0/0 * * * ?"), "cron minute field '0/0': '0' is not a positive step");
  EXPECT_EQ(error("* * *"), "cron schedule '* * *' has 3 fields: expected 6 or 7 (second minute hour "
                            "day-of-month month day-of-week [year]) or Unix's 5");
  EXPECT_EQ(error("? * * * * ?"), "cron second field '?': '?' is for the day fields only");
}

}  // namespace
}  // namespace dromedary::component::cron
