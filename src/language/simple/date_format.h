// SPDX-License-Identifier: Apache-2.0
#pragma once

// Java SimpleDateFormat patterns ("yyyy-MM-dd'T'HH:mm:ss.SSSZ"), compiled once into fields
// and rendered into a caller's string with no allocation once it has capacity. Time zones are
// the local zone or a fixed offset (UTC, GMT, GMT+8, GMT-03:30, +0100); named regions such as
// Europe/Paris need a time zone database the C++ library here (GCC 12) does not offer.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dromedary::simplelang {

struct TimeZone {
  bool local = true;
  int32_t offsetSeconds = 0;  ///< when not local
  std::string name;            ///< shown by the `z` letter when not local ("UTC", "GMT+08:00")
};

/// "UTC", "GMT", "Z", "GMT+8", "GMT+08:00", "UTC-3", "+0100", "-03:30"; nullopt otherwise.
std::optional<TimeZone> parseTimeZone(std::string_view text);

class DateFormat {
 public:
  /// Compiles `pattern`; on failure returns nullopt and sets `error` (e.g. "illegal pattern
  /// character 'q'").
  static std::optional<DateFormat> compile(std::string_view pattern, std::string& error);

  /// Appends `millis` (since the epoch) in `zone` to `out`; false when the date cannot be
  /// broken down (a year beyond what the C library represents).
  bool format(int64_t millis, const TimeZone& zone, std::string& out) const;

 private:
  struct Field {
    char letter;         ///< 0 for literal text
    uint8_t count;
    std::string literal;
  };
  std::vector<Field> fields_;
};

}  // namespace dromedary::simplelang
