// SPDX-License-Identifier: Apache-2.0
#pragma once

// LogCapture: collects every line logged while it lives (installs the log observer).

#include <mutex>
#include <string>
#include <vector>

#include <dromedary/core/logging.h>

namespace dromedary::testing {

struct LoggedLine {
  std::string category;
  LoggingLevel level;
  std::string text;
};

class LogCapture {
 public:
  LogCapture() {
    std::lock_guard lock(mutex());
    lines().clear();
    setLogObserver(&collect);
  }
  ~LogCapture() { setLogObserver(nullptr); }

  std::vector<LoggedLine> all() const {
    std::lock_guard lock(mutex());
    return lines();
  }
  /// The lines at `level` that contain `text`.
  std::vector<LoggedLine> find(LoggingLevel level, std::string_view text) const {
    std::vector<LoggedLine> out;
    for (const LoggedLine& l : all()) {
      if (l.level == level && l.text.find(text) != std::string::npos) out.push_back(l);
    }
    return out;
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::vector<LoggedLine>& lines() {
    static std::vector<LoggedLine> l;
    return l;
  }
  static void collect(std::string_view category, LoggingLevel level,
                      std::string_view line) noexcept {
    std::lock_guard lock(mutex());
    lines().push_back({std::string(category), level, std::string(line)});
  }
};

}  // namespace dromedary::testing
