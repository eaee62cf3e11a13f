// SPDX-License-Identifier: Apache-2.0
#include "cron_expression.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace dromedary::component::cron {

namespace {

struct FieldSpec {
  const char* name;
  int min;
  int max;
  const char* const* names;  // names[i] is the value min + i, or null
  int nameCount;
};

constexpr const char* kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                   "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr const char* kDays[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Error fieldError(const FieldSpec& f, std::string_view text, std::string_view what) {
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("cron {} field '{}': {}", f.name, text, what));
}

Result<int> value(const FieldSpec& f, std::string_view whole, std::string_view text, int name_base) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && end == text.data() + text.size()) {
    if (v < f.min || v > f.max) {
      return fieldError(f, whole, fmt::format("{} is out of {}-{}", v, f.min, f.max));
    }
    return v;
  }
  std::string name = upper(text);
  for (int i = 0; i < f.nameCount; ++i) {
    if (name == f.names[i]) return name_base + i;
  }
  if (name.find_first_of("LW#") != std::string::npos) {
    return fieldError(f, whole, "Quartz's L, W and # are not supported");
  }
  return fieldError(f, whole, fmt::format("'{}' is not a number or a name", text));
}

// One field into `set` (values min..max): `*`, `?`, values, names, ranges, steps, lists.
Result<bool> field(const FieldSpec& f, std::string_view text, std::vector<bool>& set,
                   int name_base, bool question_allowed) {
  set.assign(static_cast<size_t>(f.max + 1), false);
  bool any = false;
  size_t from = 0;
  while (from <= text.size()) {
    size_t comma = text.find(',', from);
    std::string_view item = text.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
    if (item.empty()) return fieldError(f, text, "an empty item");
    int step = 1;
    if (size_t slash = item.find('/'); slash != std::string_view::npos) {
      std::string_view s = item.substr(slash + 1);
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), step);
      if (ec != std::errc() || end != s.data() + s.size() || step <= 0) {
        return fieldError(f, text, fmt::format("'{}' is not a positive step", s));
      }
      item = item.substr(0, slash);
    }
    int low = f.min;
    int high = f.max;
    if (item == "*" || item == "?") {
      if (item == "?" && !question_allowed) return fieldError(f, text, "'?' is for the day fields only");
      if (step == 1 && text.find(',') == std::string_view::npos) any = true;
    } else if (size_t dash = item.find('-'); dash != std::string_view::npos && dash > 0) {
      DROMEDARY_TRY(a, value(f, text, item.substr(0, dash), name_base));
      DROMEDARY_TRY(b, value(f, text, item.substr(dash + 1), name_base));
      low = a;
      high = b;
    } else {
      DROMEDARY_TRY(a, value(f, text, item, name_base));
      low = a;
      high = step == 1 ? a : f.max;  // `a/n`: from a to the end, every n
    }
    // A range may wrap (FRI-MON, 22-2): to the end, then from the start.
    int span = high >= low ? high - low : (f.max - low) + (high - f.min) + 1;
    for (int i = 0; i <= span; i += step) {
      int v = low + i;
      if (v > f.max) v = f.min + (v - f.max - 1);
      set[static_cast<size_t>(v)] = true;
    }
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return any;
}

template <size_t N>
void copyInto(const std::vector<bool>& from, std::bitset<N>& to, int offset = 0) {
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] && i >= static_cast<size_t>(offset) && i - offset < N) to.set(i - offset);
  }
}

}  // namespace

Result<CronExpression> CronExpression::parse(std::string_view text) {
  std::vector<std::string_view> parts;
  std::string spaced(text);
  std::replace(spaced.begin(), spaced.end(), '+', ' ');  // Camel: + for a space in URIs
  std::string_view rest = spaced;
  while (!rest.empty()) {
    size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos) break;
    size_t end = rest.find_first_of(" \t", start);
    parts.push_back(rest.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  }
  if (parts.size() < 5 || parts.size() > 7) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("cron schedule '{}' has {} fields: expected 6 or 7 (second minute "
                                 "hour day-of-month month day-of-week [year]) or Unix's 5",
                                 text, parts.size()));
  }
  const bool unix_form = parts.size() == 5;
  if (unix_form) parts.insert(parts.begin(), "0");
  CronExpression c;
  c.text_ = std::string(text);
  std::vector<bool> set;
  static constexpr FieldSpec kSecond{"second", 0, 59, nullptr, 0};
  static constexpr FieldSpec kMinute{"minute", 0, 59, nullptr, 0};
  static constexpr FieldSpec kHour{"hour", 0, 23, nullptr, 0};
  static constexpr FieldSpec kDayOfMonth{"day-of-month", 1, 31, nullptr, 0};
  static constexpr FieldSpec kMonth{"month", 1, 12, kMonths, 12};
  static constexpr FieldSpec kQuartzDay{"day-of-week", 1, 7, kDays, 7};
  static constexpr FieldSpec kUnixDay{"day-of-week", 0, 7, kDays, 7};
  static constexpr FieldSpec kYear{"year", 1970, 2169, nullptr, 0};
  DROMEDARY_TRY_VOID(field(kSecond, parts[0], set, 0, false));
  copyInto(set, c.seconds_);
  DROMEDARY_TRY_VOID(field(kMinute, parts[1], set, 0, false));
  copyInto(set, c.minutes_);
  DROMEDARY_TRY_VOID(field(kHour, parts[2], set, 0, false));
  copyInto(set, c.hours_);
  DROMEDARY_TRY(any_dom, field(kDayOfMonth, parts[3], set, 0, true));
  copyInto(set, c.daysOfMonth_);
  c.anyDayOfMonth_ = any_dom;
  DROMEDARY_TRY_VOID(field(kMonth, parts[4], set, 1, false));
  copyInto(set, c.months_);
  const FieldSpec& day = unix_form ? kUnixDay : kQuartzDay;
  DROMEDARY_TRY(any_dow, field(day, parts[5], set, unix_form ? 0 : 1, true));
  c.anyDayOfWeek_ = any_dow;
  for (size_t i = 0; i < set.size(); ++i) {
    if (set[i]) c.daysOfWeek_.set(unix_form ? i % 7 : i - 1);  // to 0 (Sunday) - 6
  }
  c.years_.set();
  if (parts.size() == 7) {
    DROMEDARY_TRY(any_year, field(kYear, parts[6], set, 0, false));
    c.anyYear_ = any_year;
    c.years_.reset();
    copyInto(set, c.years_, 1970);
  }
  return c;
}

bool CronExpression::dayMatches(const std::tm& t) const {
  const bool dom = daysOfMonth_.test(static_cast<size_t>(t.tm_mday));
  const bool dow = daysOfWeek_.test(static_cast<size_t>(t.tm_wday));
  if (anyDayOfMonth_) return dow;
  if (anyDayOfWeek_) return dom;
  return dom || dow;
}

std::optional<std::time_t> CronExpression::next(std::time_t after) const {
  std::time_t t = after + 1;
  std::tm tm{};
  localtime_r(&t, &tm);
  const int last_year = tm.tm_year + 400;
  auto normalise = [&] {
    tm.tm_isdst = -1;
    t = std::mktime(&tm);
  };
  while (tm.tm_year <= last_year) {
    const int year = tm.tm_year + 1900;
    if (!anyYear_ && (year < 1970 || year >= 1970 + static_cast<int>(years_.size()) ||
                      !years_.test(static_cast<size_t>(year - 1970)))) {
      if (year >= 1970 + static_cast<int>(years_.size())) return std::nullopt;
      tm = std::tm{};
      tm.tm_year = year + 1 - 1900;
      tm.tm_mday = 1;
      normalise();
      continue;
    }
    if (!months_.test(static_cast<size_t>(tm.tm_mon + 1))) {
      tm.tm_mon += 1;
      tm.tm_mday = 1;
      tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
      normalise();
      continue;
    }
    if (!dayMatches(tm)) {
      tm.tm_mday += 1;
      tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
      normalise();
      continue;
    }
    if (!hours_.test(static_cast<size_t>(tm.tm_hour))) {
      tm.tm_hour += 1;
      tm.tm_min = tm.tm_sec = 0;
      normalise();
      continue;
    }
    if (!minutes_.test(static_cast<size_t>(tm.tm_min))) {
      tm.tm_min += 1;
      tm.tm_sec = 0;
      normalise();
      continue;
    }
    if (!seconds_.test(static_cast<size_t>(tm.tm_sec))) {
      tm.tm_sec += 1;
      normalise();
      continue;
    }
    return t;
  }
  return std::nullopt;
}

}  // namespace dromedary::component::cron
