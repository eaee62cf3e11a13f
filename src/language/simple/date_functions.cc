// SPDX-License-Identifier: Apache-2.0
#include "language/simple/date_functions.h"

#include <charconv>
#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "core/text.h"
#include "language/simple/date_format.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

// --- date -------------------------------------------------------------------------------

enum class DateSource { Now, ExchangeCreated, Header, Property };

class DateNode final : public Expression {
 public:
  DateNode(DateSource source, std::string name, int64_t offset_ms,
           std::optional<DateFormat> format, TimeZone zone, std::string text)
      : source_(source),
        name_(std::move(name)),
        offset_ms_(offset_ms),
        format_(std::move(format)),
        zone_(std::move(zone)),
        text_(std::move(text)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    int64_t millis = 0;
    switch (source_) {
      case DateSource::Now:
        millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
        break;
      case DateSource::ExchangeCreated: millis = ex.createdMillis(); break;
      case DateSource::Header:
      case DateSource::Property: {
        const Value* v = source_ == DateSource::Header ? ex.message().getHeader(name_)
                                                       : ex.getProperty(name_);
        std::optional<int64_t> m = v ? v->tryAs<int64_t>() : std::nullopt;
        if (!m) {
          return failEvaluation(ex, text_,
                                v ? "the value is not a date in milliseconds since the epoch"
                                  : "no value to format as a date");
        }
        millis = *m;
        break;
      }
    }
    if (__builtin_add_overflow(millis, offset_ms_, &millis)) {
      return failEvaluation(ex, text_, "the date is out of range");
    }
    if (!format_) {
      scratch = Value(millis);
      return &scratch;
    }
    try {
      if (!format_->format(millis, zone_, scratch.resetString())) {
        return failEvaluation(ex, text_, "the date is out of range");
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }

 private:
  DateSource source_;
  std::string name_;
  int64_t offset_ms_;
  std::optional<DateFormat> format_;
  TimeZone zone_;
  std::string text_;
};

// "+1h30m-100" -> milliseconds; nullopt when `text` is not such a sequence.
std::optional<int64_t> parseOffsets(std::string_view text) {
  int64_t total = 0;
  int sign = 0;
  size_t i = 0;
  if (text.empty() || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  while (i < text.size()) {
    if (text[i] == '+' || text[i] == '-') {
      sign = text[i] == '+' ? 1 : -1;
      ++i;
    }
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) return std::nullopt;
    int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data() + start, text.data() + i, n);
    if (ec != std::errc()) return std::nullopt;
    int64_t unit = 1;
    if (text.substr(i, 2) == "ms") {
      i += 2;
    } else if (i < text.size() && std::string_view("dhms").find(text[i]) != std::string_view::npos) {
      unit = text[i] == 'd' ? 86400000 : text[i] == 'h' ? 3600000 : text[i] == 'm' ? 60000 : 1000;
      ++i;
    }
    // Offsets beyond a few centuries are mistakes; refusing them keeps the sums exact.
    constexpr int64_t kMaxOffset = int64_t{10'000} * 365 * 86'400'000;
    int64_t term = 0;
    if (__builtin_mul_overflow(n, unit, &term) || term > kMaxOffset) return std::nullopt;
    total += sign * term;
    if (total > kMaxOffset || total < -kMaxOffset) return std::nullopt;
  }
  return total;
}

}  // namespace

ExprPtr parseDate(Parser& parser, std::string_view fn, std::string_view spec, bool with_zone) {
  // spec: command[:zone]:pattern; the command may end in offsets (now+1h, header.x-10s).
  size_t colon = spec.find(':');
  std::string_view command = spec.substr(0, colon);
  std::string_view rest = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
  TimeZone zone;
  if (with_zone) {
    size_t zc = rest.find(':');
    std::string_view zone_text = rest.substr(0, zc);
    auto z = parseTimeZone(zone_text);
    if (!z) {
      parser.fail(zone_text.empty() ? fn : zone_text,
                  fmt::format("unsupported time zone '{}'", zone_text),
                  "use UTC, GMT, or a fixed offset such as GMT+8 or +01:00");
    }
    zone = *z;
    rest = zc == std::string_view::npos ? std::string_view() : rest.substr(zc + 1);
  }
  int64_t offset = 0;
  for (size_t i = 1; i < command.size(); ++i) {
    if (command[i] != '+' && command[i] != '-') continue;
    if (auto o = parseOffsets(command.substr(i))) {
      offset = *o;
      command = command.substr(0, i);
      break;
    }
  }
  DateSource source;
  std::string name;
  if (command == "now" || command == "millis") {
    source = DateSource::Now;
  } else if (command == "exchangeCreated") {
    source = DateSource::ExchangeCreated;
  } else if (command.starts_with("header.") || command.starts_with("in.header.")) {
    source = DateSource::Header;
    name = std::string(command.substr(command.find('.') + 1));
    if (command.starts_with("in.")) name = std::string(command.substr(10));
  } else if (command == "file") {
    source = DateSource::Header;  // the consumed file's last-modified time
    name = "CamelFileLastModified";
  } else if (command.starts_with("exchangeProperty.")) {
    source = DateSource::Property;
    name = std::string(command.substr(17));
  } else {
    parser.fail(command.empty() ? fn : command, fmt::format("unknown date command '{}'", command),
                "expected now, millis, exchangeCreated, file, header.NAME or exchangeProperty.NAME, "
                "optionally with offsets such as now-24h or now+1h30m");
  }
  if (command == "millis" && !rest.empty()) parser.fail(rest, "date:millis takes no pattern");
  std::optional<DateFormat> format;
  if (!rest.empty()) {
    std::string error;
    format = DateFormat::compile(rest, error);
    if (!format) parser.fail(rest, error);
  }
  return std::make_unique<DateNode>(source, std::move(name), offset, std::move(format),
                                    std::move(zone), fmt::format("${{{}}}", fn));
}

}  // namespace dromedary::simplelang
