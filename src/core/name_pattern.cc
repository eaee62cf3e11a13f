// SPDX-License-Identifier: Apache-2.0
#include "core/name_pattern.h"

#include <re2/re2.h>

#include "core/text.h"

namespace dromedary {

NamePattern::NamePattern(std::string pattern) : pattern_(std::move(pattern)) {
  if (!pattern_.empty() && pattern_.back() == '*') {
    wildcard_ = true;
    prefix_ = pattern_.substr(0, pattern_.size() - 1);
  }
  // A pattern of plain name characters matches as a regex exactly when it matches as a
  // name, so only patterns with regex syntax pay for a regex.
  if (pattern_.find_first_of(".*+?[](){}|^$\\") != std::string::npos) {
    RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    auto regex = std::make_unique<RE2>(pattern_, options);
    if (regex->ok()) regex_ = std::move(regex);
  }
}

NamePattern::~NamePattern() = default;
NamePattern::NamePattern(NamePattern&&) noexcept = default;
NamePattern& NamePattern::operator=(NamePattern&&) noexcept = default;

bool NamePattern::matches(std::string_view name) const noexcept {
  if (equalsIgnoreCaseAscii(name, pattern_)) return true;
  if (wildcard_ && startsWithIgnoreCase(name, prefix_)) return true;
  return regex_ && RE2::FullMatch(re2::StringPiece(name.data(), name.size()), *regex_);
}

}  // namespace dromedary
