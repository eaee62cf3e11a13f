// SPDX-License-Identifier: Apache-2.0
#include "language/simple/date_format.h"

#include <charconv>
#include <climits>
#include <ctime>
#include <iterator>

#include <fmt/format.h>

namespace dromedary::simplelang {

namespace {

constexpr std::string_view kMonths[] = {"January", "February", "March",     "April",
                                        "May",     "June",     "July",      "August",
                                        "September", "October", "November", "December"};
constexpr std::string_view kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                      "Thursday", "Friday", "Saturday"};
constexpr std::string_view kLetters = "GyYMLdDEuaHkKhmsSzZX";

void appendNumber(std::string& out, int64_t value, int width) {
  if (value < 0) {
    out += '-';
    value = -value;
  }
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
  int n = static_cast<int>(end - digits);
  for (int i = n; i < width; ++i) out += '0';
  out.append(digits, end);
}

void appendOffset(std::string& out, int32_t seconds, bool colon) {
  out += seconds < 0 ? '-' : '+';
  int32_t a = seconds < 0 ? -seconds : seconds;
  appendNumber(out, a / 3600, 2);
  if (colon) out += ':';
  appendNumber(out, (a / 60) % 60, 2);
}

}  // namespace

std::optional<TimeZone> parseTimeZone(std::string_view text) {
  TimeZone zone;
  zone.local = false;
  std::string_view rest = text;
  if (text == "Z" || text == "UTC" || text == "GMT") {
    zone.name = text == "Z" ? "UTC" : std::string(text);
    return zone;
  }
  if (rest.starts_with("UTC") || rest.starts_with("GMT")) rest.remove_prefix(3);
  if (rest.empty() || (rest[0] != '+' && rest[0] != '-')) return std::nullopt;
  int sign = rest[0] == '-' ? -1 : 1;
  rest.remove_prefix(1);
  int hours = 0;
  int minutes = 0;
  size_t colon = rest.find(':');
  std::string_view h = rest;
  std::string_view m;
  if (colon != std::string_view::npos) {
    h = rest.substr(0, colon);
    m = rest.substr(colon + 1);
  } else if (rest.size() == 4) {
    h = rest.substr(0, 2);
    m = rest.substr(2);
  }
  auto parse = [](std::string_view s, int& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  if (!parse(h, hours) || hours > 18 || (!m.empty() && (!parse(m, minutes) || minutes > 59))) {
    return std::nullopt;
  }
  zone.offsetSeconds = sign * (hours * 3600 + minutes * 60);
  zone.name = "GMT";
  appendOffset(zone.name, zone.offsetSeconds, true);
  return zone;
}

std::optional<DateFormat> DateFormat::compile(std::string_view pattern, std::string& error) {
  DateFormat f;
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) {
      f.fields_.push_back(Field{0, 0, std::move(literal)});
      literal.clear();
    }
  };
  for (size_t i = 0; i < pattern.size();) {
    char c = pattern[i];
    if (c == '\'') {
      if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        literal += '\'';
        i += 2;
        continue;
      }
      size_t close = i + 1;
      while (true) {
        close = pattern.find('\'', close);
        if (close == std::string_view::npos) {
          error = "unterminated quote in date pattern";
          return std::nullopt;
        }
        if (close + 1 < pattern.size() && pattern[close + 1] == '\'') {
          literal.append(pattern.substr(i + 1, close - i - 1));
          literal += '\'';
          i = close + 1;
          close = i + 1;
          continue;
        }
        break;
      }
      literal.append(pattern.substr(i + 1, close - i - 1));
      i = close + 1;
      continue;
    }
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter) {
      literal += c;
      ++i;
      continue;
    }
    if (kLetters.find(c) == std::string_view::npos) {
      error = fmt::format("illegal pattern character '{}' in date pattern", c);
      return std::nullopt;
    }
    size_t n = 1;
    while (i + n < pattern.size() && pattern[i + n] == c) ++n;
    flush();
    f.fields_.push_back(Field{c, static_cast<uint8_t>(n > 255 ? 255 : n), {}});
    i += n;
  }
  flush();
  return f;
}

bool DateFormat::format(int64_t millis, const TimeZone& zone, std::string& out) const {
  int64_t seconds = millis / 1000;
  int64_t ms = millis % 1000;
  if (ms < 0) {
    ms += 1000;
    seconds -= 1;
  }
  // Breaking a time down (localtime_r takes glibc's time zone lock) costs more than the
  // formatting: remember the last second per thread and zone kind, as `now` repeats it.
  struct LastSecond {
    int64_t seconds = INT64_MIN;
    int32_t offset = 0;
    std::tm tm{};
  };
  thread_local LastSecond last_local;
  thread_local LastSecond last_fixed;
  LastSecond& last = zone.local ? last_local : last_fixed;
  if (last.seconds != seconds || (!zone.local && last.offset != zone.offsetSeconds)) {
    last.seconds = seconds;
    last.offset = zone.offsetSeconds;
    std::tm* ok = nullptr;
    if (zone.local) {
      std::time_t t = static_cast<std::time_t>(seconds);
      ok = localtime_r(&t, &last.tm);
    } else {
      std::time_t t = static_cast<std::time_t>(seconds + zone.offsetSeconds);
      ok = gmtime_r(&t, &last.tm);
    }
    if (!ok) {
      last.seconds = INT64_MIN;
      return false;
    }
  }
  const std::tm& tm = last.tm;
  int32_t offset = zone.offsetSeconds;
  std::string_view zone_name = zone.name;
  if (zone.local) {
    offset = static_cast<int32_t>(tm.tm_gmtoff);
    zone_name = tm.tm_zone ? std::string_view(tm.tm_zone) : std::string_view("UTC");
  }
  for (const Field& f : fields_) {
    int width = f.count;
    switch (f.letter) {
      case 0: out += f.literal; break;
      case 'G': out += tm.tm_year + 1900 > 0 ? "AD" : "BC"; break;
      case 'y':
      case 'Y':
        if (width == 2) {
          appendNumber(out, (tm.tm_year + 1900) % 100, 2);
        } else {
          appendNumber(out, tm.tm_year + 1900, width);
        }
        break;
      case 'M':
      case 'L':
        if (width >= 4) {
          out += kMonths[tm.tm_mon];
        } else if (width == 3) {
          out += kMonths[tm.tm_mon].substr(0, 3);
        } else {
          appendNumber(out, tm.tm_mon + 1, width);
        }
        break;
      case 'd': appendNumber(out, tm.tm_mday, width); break;
      case 'D': appendNumber(out, tm.tm_yday + 1, width); break;
      case 'E':
        out += width >= 4 ? kDays[tm.tm_wday] : kDays[tm.tm_wday].substr(0, 3);
        break;
      case 'u': appendNumber(out, tm.tm_wday == 0 ? 7 : tm.tm_wday, width); break;
      case 'a': out += tm.tm_hour < 12 ? "AM" : "PM"; break;
      case 'H': appendNumber(out, tm.tm_hour, width); break;
      case 'k': appendNumber(out, tm.tm_hour == 0 ? 24 : tm.tm_hour, width); break;
      case 'K': appendNumber(out, tm.tm_hour % 12, width); break;
      case 'h': appendNumber(out, tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12, width); break;
      case 'm': appendNumber(out, tm.tm_min, width); break;
      case 's': appendNumber(out, tm.tm_sec, width); break;
      case 'S': appendNumber(out, ms, width); break;
      case 'z': out += zone_name; break;
      case 'Z': appendOffset(out, offset, false); break;
      case 'X':
        if (offset == 0) {
          out += 'Z';
        } else if (width == 1) {
          out += offset < 0 ? '-' : '+';
          appendNumber(out, (offset < 0 ? -offset : offset) / 3600, 2);
        } else {
          appendOffset(out, offset, width >= 3);
        }
        break;
      default: break;
    }
  }
  return true;
}

}  // namespace dromedary::simplelang
