// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Endpoint options, declared once per component in a constexpr table.
///
/// The same table validates URIs (an unknown option is an error naming it, the endpoint and
/// the option meant; a wrong type says what was expected), supplies defaults, and prints
/// the component's documentation. Values are parsed once, when the endpoint is created.
///
/// Example:
///   constexpr OptionSpec kDirectOptions[] = {
///       {"block", OptionType::Bool, "true", "Wait for a consumer when there is none"},
///       {"timeout", OptionType::Duration, "30000", "How long to wait, in ms or 5s/1m form"},
///   };

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/core/uri.h>

namespace dromedary {

enum class OptionType : uint8_t { Bool, Int, Double, String, Duration, Enum };
std::string_view optionTypeName(OptionType type) noexcept;

struct OptionSpec {
  std::string_view name;
  OptionType type;
  std::string_view defaultValue;  ///< as it would be written in a URI; empty = none
  std::string_view description;
  std::string_view choices = {};  ///< for Enum: "A,B,C" (matched case-insensitively)
};

/// An endpoint's validated options, typed, with defaults filled in.
class EndpointOptions {
 public:
  /// Validates `uri`'s options against `specs`. Names match case-insensitively, as Camel's.
  /// `lenient` (Camel's lenientProperties: the http component's) keeps options the table
  /// does not name in unknownOptions() instead of refusing them; their values are still
  /// checked for nothing.
  static Result<EndpointOptions> resolve(std::span<const OptionSpec> specs, const Uri& uri,
                                         bool lenient = false);

  bool getBool(std::string_view name) const;
  int64_t getInt(std::string_view name) const;
  double getDouble(std::string_view name) const;
  const std::string& getString(std::string_view name) const;
  std::chrono::milliseconds getDuration(std::string_view name) const;
  /// True when the URI gave this option (rather than the default applying).
  bool isSet(std::string_view name) const;
  /// Options the table does not name, decoded, sorted by name: only with `lenient`.
  const std::vector<Uri::Option>& unknownOptions() const noexcept { return unknown_.get(); }
  /// Whether `name` is one of `specs`' options, as resolve() matches names (ignoring case
  /// and kebab-case dashes).
  static bool names(std::span<const OptionSpec> specs, std::string_view name) noexcept;

 private:
  struct Entry {
    const OptionSpec* spec;
    std::string text;
    bool set;
    int64_t number;  // Bool (0/1), Int, Duration (ms)
    double real;
  };
  static Result<void> parse(Entry& e, std::string_view uri);
  // The option `name` (its text left out: getString reads `entries_` itself).
  Entry entry(std::string_view name) const;
  std::span<const OptionSpec> specs_;
  std::vector<Entry> entries_;  // options given, and text options' defaults
  detail::RareVector<Uri::Option> unknown_;  // only a lenient component's endpoints have any
};

/// Parses a Camel duration: "1000" (ms), "500ms", "5s", "1m30s", "2h", "1d".
Result<std::chrono::milliseconds> parseDuration(std::string_view text);

/// Renders a component's option table as a markdown table (for docs and `--help`).
std::string describeOptions(std::string_view scheme, std::span<const OptionSpec> specs);

}  // namespace dromedary
