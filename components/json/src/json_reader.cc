// SPDX-License-Identifier: Apache-2.0
// JSON text to Values through nlohmann-json's SAX parser: no intermediate tree, and no
// recursion (the parser keeps its own stack, and so does the builder here).
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "json_text.h"

namespace dromedary::component::json {

namespace {

class ValueBuilder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return add(Value()); }
  bool boolean(bool b) override { return add(Value(b)); }
  bool number_integer(number_integer_t i) override { return add(Value(static_cast<int64_t>(i))); }
  bool number_unsigned(number_unsigned_t u) override {
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return add(Value(static_cast<int64_t>(u)));
    }
    return add(Value(static_cast<double>(u)));
  }
  bool number_float(number_float_t d, const string_t&) override { return add(Value(d)); }
  bool string(string_t& s) override { return add(Value(std::move(s))); }
  bool binary(binary_t&) override { return add(Value()); }  // not in JSON text
  bool start_object(std::size_t) override { return open(true); }
  bool key(string_t& k) override {
    frames_.back().key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: what": the what, and
    // the position, which readJson turns into the line and column of the last byte read.
    std::string_view what = e.what();
    size_t column = what.find("column ");
    size_t colon = column == std::string_view::npos ? std::string_view::npos : what.find(": ", column);
    if (colon != std::string_view::npos) {
      what.remove_prefix(colon + 2);
    } else if (size_t bracket = what.find("] "); bracket != std::string_view::npos) {
      what.remove_prefix(bracket + 2);
    }
    error_ = std::string(what);
    position_ = position;
    return false;
  }

  size_t position() const noexcept { return position_; }

  Value result() { return std::move(result_); }
  const std::string& error() const noexcept { return error_; }

 private:
  struct Frame {
    bool map;
    ValueMap entries;
    ValueList items;
    std::string key;
  };

  bool open(bool map) {
    if (frames_.size() >= kMaxJsonDepth) {
      error_ = fmt::format("objects and arrays nested deeper than {} levels", kMaxJsonDepth);
      return false;
    }
    frames_.push_back(Frame{map, {}, {}, {}});
    return true;
  }

  bool close() {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    return add(f.map ? Value(std::move(f.entries)) : Value(std::move(f.items)));
  }

  bool add(Value v) {
    if (frames_.empty()) {
      result_ = std::move(v);
    } else if (Frame& f = frames_.back(); f.map) {
      f.entries.emplace_back(std::move(f.key), std::move(v));
      f.key.clear();
    } else {
      f.items.push_back(std::move(v));
    }
    return true;
  }

  std::vector<Frame> frames_;
  Value result_;
  std::string error_;
  size_t position_ = 0;  // bytes read when the parser failed; 0: not a parse error
};

// "at line L, column C" of the last byte read before `position` that is not white space.
std::string where(std::string_view text, size_t position) {
  size_t at = std::min(position, text.size());
  while (at > 0 && (text[at - 1] == '\n' || text[at - 1] == '\r' || text[at - 1] == ' ' ||
                    text[at - 1] == '\t')) {
    --at;
  }
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i + 1 < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return fmt::format("at line {}, column {}", line, at > line_start ? at - line_start : 1);
}

}  // namespace

Result<Value> readJson(std::string_view text) {
  ValueBuilder builder;
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const nlohmann::json::exception& e) {
    std::string_view what = e.what();
    if (size_t bracket = what.find("] "); bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
    return makeError(ErrorCode::TypeConversion, fmt::format("invalid JSON: {}", what));
  } catch (const std::exception& e) {
    return makeError(ErrorCode::TypeConversion, fmt::format("invalid JSON: {}", e.what()));
  }
  if (!ok) {
    if (builder.position() == 0) {
      return makeError(ErrorCode::TypeConversion, fmt::format("invalid JSON: {}", builder.error()));
    }
    return makeError(ErrorCode::TypeConversion,
                     fmt::format("invalid JSON {}: {}", where(text, builder.position()),
                                 builder.error()));
  }
  return builder.result();
}

}  // namespace dromedary::component::json
