// SPDX-License-Identifier: Apache-2.0
#include <dromedary/spi/option_table.h>

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "core/text.h"

namespace dromedary {

std::string_view optionTypeName(OptionType type) noexcept {
  switch (type) {
    case OptionType::Bool: return "boolean";
    case OptionType::Int: return "integer";
    case OptionType::Double: return "number";
    case OptionType::String: return "string";
    case OptionType::Duration: return "duration";
    case OptionType::Enum: return "enum";
  }
  return "?";
}

Result<std::chrono::milliseconds> parseDuration(std::string_view text) {
  std::string_view s = trim(text);
  auto bad = [&] {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("'{}' is not a duration (expected milliseconds such as 500, or "
                                 "a form such as 500ms, 5s, 1m30s, 2h, 1d)",
                                 text));
  };
  if (s.empty()) return bad();
  int64_t total = 0;
  bool any = false;
  while (!s.empty()) {
    int64_t n = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || n < 0) return bad();
    s.remove_prefix(static_cast<size_t>(ptr - s.data()));
    int64_t unit = 1;
    if (s.substr(0, 2) == "ms") {
      s.remove_prefix(2);
    } else if (!s.empty() && (s[0] == 's' || s[0] == 'm' || s[0] == 'h' || s[0] == 'd')) {
      unit = s[0] == 's' ? 1000 : s[0] == 'm' ? 60000 : s[0] == 'h' ? 3600000 : 86400000;
      s.remove_prefix(1);
    } else if (!s.empty() || any) {
      return bad();  // a bare number only on its own
    }
    int64_t part = 0;
    if (__builtin_mul_overflow(n, unit, &part) || __builtin_add_overflow(total, part, &total)) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("'{}' is too long a duration (at most about 292 million "
                                   "years in milliseconds)",
                                   text));
    }
    any = true;
  }
  return std::chrono::milliseconds(total);
}

namespace {
// An option name as written in a URI against the table's: case-insensitively, as Camel's, and
// with the dashes of Camel's kebab-case left out (show-body-type is showBodyType).
bool sameOptionName(std::string_view spec, std::string_view written) {
  if (written.find('-') == std::string_view::npos) return equalsIgnoreCaseAscii(spec, written);
  std::string bare;
  for (char c : written) {
    if (c != '-') bare += c;
  }
  return equalsIgnoreCaseAscii(spec, bare);
}
}  // namespace

bool EndpointOptions::names(std::span<const OptionSpec> specs, std::string_view name) noexcept {
  for (const OptionSpec& spec : specs) {
    if (sameOptionName(spec.name, name)) return true;
  }
  return false;
}

// Parses `e.text` by its type into e.number / e.real (an Enum's text to its canonical
// spelling); `uri` names the endpoint in the error.
Result<void> EndpointOptions::parse(Entry& e, std::string_view uri) {
  if (e.text.empty() && e.spec->type != OptionType::String) return {};
  auto invalid = [&](std::string_view expected) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("invalid value '{}' for option '{}' of endpoint '{}': "
                                 "expected {}",
                                 e.text, e.spec->name, uri, expected));
  };
  switch (e.spec->type) {
    case OptionType::Bool:
      if (equalsIgnoreCaseAscii(e.text, "true")) {
        e.number = 1;
      } else if (equalsIgnoreCaseAscii(e.text, "false")) {
        e.number = 0;
      } else {
        return invalid("true or false");
      }
      break;
    case OptionType::Int: {
      std::string_view t = trim(e.text);
      auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), e.number);
      if (ec != std::errc() || ptr != t.data() + t.size()) return invalid("an integer");
      break;
    }
    case OptionType::Double: {
      std::string_view t = trim(e.text);
      char* end = nullptr;
      std::string copy(t);
      e.real = std::strtod(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size()) return invalid("a number");
      break;
    }
    case OptionType::Duration: {
      auto d = parseDuration(e.text);
      if (!d) return invalid("a duration such as 500, 500ms, 5s or 1m30s");
      e.number = d->count();
      break;
    }
    case OptionType::Enum: {
      bool found = false;
      std::string_view choices = e.spec->choices;
      std::vector<std::string_view> names;
      while (!choices.empty()) {
        size_t comma = choices.find(',');
        std::string_view choice = choices.substr(0, comma);
        names.push_back(choice);
        if (equalsIgnoreCaseAscii(choice, e.text)) {
          e.text = std::string(choice);  // canonical spelling
          found = true;
        }
        choices = comma == std::string_view::npos ? "" : choices.substr(comma + 1);
      }
      if (!found) return invalid("one of " + joinNames(names));
      break;
    }
    case OptionType::String: break;
  }
  return {};
}

Result<EndpointOptions> EndpointOptions::resolve(std::span<const OptionSpec> specs,
                                                 const Uri& uri, bool lenient) {
  EndpointOptions options;
  options.specs_ = specs;
  std::vector<Entry> all;
  all.reserve(specs.size());
  for (const OptionSpec& spec : specs) {
    all.push_back(Entry{&spec, std::string(spec.defaultValue), false, 0, 0});
  }
  for (const auto& [name, value] : uri.options()) {
    Entry* entry = nullptr;
    for (Entry& e : all) {
      if (sameOptionName(e.spec->name, name)) entry = &e;
    }
    if (!entry && lenient) {
      options.unknown_.edit().emplace_back(name, value);
      continue;
    }
    if (!entry) {
      std::vector<std::string_view> names;
      for (const OptionSpec& spec : specs) names.push_back(spec.name);
      std::string message = fmt::format("unknown option '{}' for endpoint '{}'", name, uri.text());
      std::string meant = closestMatch(name, names);
      if (!meant.empty()) {
        message += fmt::format("; did you mean '{}'?", meant);
      } else if (names.empty()) {
        message += fmt::format("; the {} component takes no options", uri.scheme());
      } else {
        message += fmt::format("; known options: {}", joinNames(names));
      }
      return makeError(ErrorCode::UnknownOption, std::move(message));
    }
    if (entry->set) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("option '{}' is given more than once in endpoint '{}'", name,
                                   uri.text()));
    }
    entry->text = value;
    entry->set = true;
  }
  // Every value is checked, defaults too; kept are the options given and the text defaults
  // (getString returns a reference to them). A default number is parsed again when asked for:
  // most options are left at their defaults, and a context of many endpoints would otherwise
  // hold an entry for each option of each.
  for (Entry& e : all) {
    DROMEDARY_TRY_VOID(parse(e, uri.text()));
    const bool text = e.spec->type == OptionType::String || e.spec->type == OptionType::Enum;
    if (e.set || (text && !e.text.empty())) options.entries_.push_back(std::move(e));
  }
  options.entries_.shrink_to_fit();
  return options;
}

EndpointOptions::Entry EndpointOptions::entry(std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.spec->name == name) return {e.spec, {}, e.set, e.number, e.real};
  }
  for (const OptionSpec& spec : specs_) {
    if (spec.name != name) continue;
    Entry e{&spec, std::string(spec.defaultValue), false, 0, 0};
    if (auto parsed = parse(e, {}); !parsed) throw std::logic_error(parsed.error().message);
    return e;
  }
  throw std::logic_error(fmt::format("option '{}' is not in the component's table", name));
}

bool EndpointOptions::getBool(std::string_view name) const { return entry(name).number != 0; }
int64_t EndpointOptions::getInt(std::string_view name) const { return entry(name).number; }
double EndpointOptions::getDouble(std::string_view name) const { return entry(name).real; }
const std::string& EndpointOptions::getString(std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.spec->name == name) return e.text;
  }
  // Not kept: a text option without a default, or a number's default read as text (rare: its
  // text is made once per option of the table, and kept).
  for (const OptionSpec& spec : specs_) {
    if (spec.name != name) continue;
    static std::mutex mutex;
    static std::unordered_map<const OptionSpec*, std::string> texts;
    std::lock_guard lock(mutex);
    return texts.try_emplace(&spec, spec.defaultValue).first->second;
  }
  throw std::logic_error(fmt::format("option '{}' is not in the component's table", name));
}
std::chrono::milliseconds EndpointOptions::getDuration(std::string_view name) const {
  return std::chrono::milliseconds(entry(name).number);
}
bool EndpointOptions::isSet(std::string_view name) const { return entry(name).set; }

std::string describeOptions(std::string_view scheme, std::span<const OptionSpec> specs) {
  std::string out = fmt::format("## {} options\n\n| name | type | default | description |\n"
                                "| --- | --- | --- | --- |\n",
                                scheme);
  for (const OptionSpec& spec : specs) {
    std::string type(optionTypeName(spec.type));
    if (spec.type == OptionType::Enum) type += " (" + std::string(spec.choices) + ")";
    fmt::format_to(std::back_inserter(out), "| {} | {} | {} | {} |\n", spec.name, type,
                   spec.defaultValue, spec.description);
  }
  return out;
}

}  // namespace dromedary
