// SPDX-License-Identifier: Apache-2.0
#include "core/name_pattern.h"

#include <re2/re2.h>

#include "core/text.h"

namespace dromedary {

namespace {

constexpr std::string_view kRegexSyntax = ".*+?[](){}|^$\\";

// The literal text every match of `regex` must start with, so most names are rejected with
// a prefix compare instead of running the regex: "Camel*" -> "Came" (the 'l' is optional),
// "order.*" -> "order". Empty when unsure (alternation anywhere, syntax at the start).
std::string literalPrefix(std::string_view regex) {
  if (regex.find('|') != std::string_view::npos) return {};
  size_t end = regex.find_first_of(kRegexSyntax);
  if (end == std::string_view::npos) return std::string(regex);
  std::string prefix(regex.substr(0, end));
  char next = regex[end];
  if (!prefix.empty() && (next == '*' || next == '?' || next == '{')) prefix.pop_back();
  return prefix;
}

}  // namespace

NamePattern::NamePattern(std::string pattern) : pattern_(std::move(pattern)) {
  if (!pattern_.empty() && pattern_.back() == '*') {
    wildcard_ = true;
    prefix_ = pattern_.substr(0, pattern_.size() - 1);
  }
  // A pattern of plain name characters matches as a regex exactly when it matches as a
  // name, so only patterns with regex syntax pay for a regex.
  if (pattern_.find_first_of(kRegexSyntax) != std::string::npos) {
    RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    auto regex = std::make_unique<RE2>(pattern_, options);
    if (regex->ok()) regex_ = std::move(regex);
    regex_prefix_ = literalPrefix(pattern_);
  }
}

NamePattern::~NamePattern() = default;
NamePattern::NamePattern(NamePattern&&) noexcept = default;
NamePattern& NamePattern::operator=(NamePattern&&) noexcept = default;

bool NamePattern::matches(std::string_view name) const noexcept {
  if (equalsIgnoreCaseAscii(name, pattern_)) return true;
  if (wildcard_ && startsWithIgnoreCase(name, prefix_)) return true;
  return regex_ && startsWithIgnoreCase(name, regex_prefix_) &&
         RE2::FullMatch(re2::StringPiece(name.data(), name.size()), *regex_);
}

}  // namespace dromedary
