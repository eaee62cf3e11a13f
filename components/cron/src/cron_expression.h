// SPDX-License-Identifier: Apache-2.0
#pragma once

// Cron expressions as Camel's cron component takes them (through Quartz): six or seven fields,
// `second minute hour day-of-month month day-of-week [year]`, or Unix's five (no seconds:
// they are 0). Each field is `*`, `?` (day fields: no restriction), a number or a name
// (JAN-DEC, SUN-SAT), a range `a-b`, a step `*/n` or `a/n` or `a-b/n`, or a comma list of
// those. Days of week are Quartz's 1-7 (SUN-SAT) in six or seven fields and Unix's 0-7 (0 and
// 7 are Sunday) in five. When both day fields restrict, a day matching either fires (Unix's
// rule; Quartz refuses the pair). Quartz's L, W, # and LW are refused by name. Times are
// local, as the JVM's default time zone is Camel's.

#include <bitset>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include <dromedary/core/result.h>

namespace dromedary::component::cron {

class CronExpression {
 public:
  /// Parses `text`; an error names the field and what is wrong with it.
  static Result<CronExpression> parse(std::string_view text);

  /// The first time strictly after `after` (seconds since the epoch) that matches, or nothing
  /// when none comes (a year field in the past) within the next 400 years.
  std::optional<std::time_t> next(std::time_t after) const;

  const std::string& text() const noexcept { return text_; }

 private:
  bool dayMatches(const std::tm& t) const;

  std::string text_;
  std::bitset<60> seconds_, minutes_;
  std::bitset<24> hours_;
  std::bitset<32> daysOfMonth_;  // 1-31
  std::bitset<13> months_;       // 1-12
  std::bitset<7> daysOfWeek_;    // 0 (Sunday) - 6
  bool anyDayOfMonth_ = true;
  bool anyDayOfWeek_ = true;
  std::bitset<200> years_;  // 1970 + i; all set when not given
  bool anyYear_ = true;
};

}  // namespace dromedary::component::cron
