// SPDX-License-Identifier: Apache-2.0
#pragma once

// NamePattern: Camel's header/property name patterns (PatternHelper.matchPattern), compiled
// once. A name matches, case-insensitively, when it equals the pattern, when the pattern
// ends with '*' and the name starts with the rest, or when the pattern is a regular
// expression matching the whole name (an invalid regex simply never matches, as in Camel).

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace dromedary {

class NamePattern {
 public:
  explicit NamePattern(std::string pattern);
  ~NamePattern();
  NamePattern(NamePattern&&) noexcept;
  NamePattern& operator=(NamePattern&&) noexcept;

  bool matches(std::string_view name) const noexcept;
  const std::string& text() const noexcept { return pattern_; }

 private:
  std::string pattern_;
  std::string prefix_;  // the wildcard prefix when the pattern ends with '*'
  bool wildcard_ = false;
  std::unique_ptr<re2::RE2> regex_;  // only when the pattern has regex syntax and compiles
  std::string regex_prefix_;  // a literal every regex match starts with (checked first)
};

}  // namespace dromedary
