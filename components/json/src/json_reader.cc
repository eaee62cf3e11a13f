// SPDX-License-Identifier: Apache-2.0
// JSON text to Values: simdjson (Debian's libsimdjson) parses and validates the text, and its
// document becomes Values, each map and list reserved at its final size. Text simdjson refuses
// is read again by nlohmann-json's SAX parser, which says where and why it is wrong (simdjson
// gives only an error code), and which reads the numbers simdjson refuses (integers past
// 64 bits become Doubles, as before). bench/RESULTS.md has the measurement that chose this.
#include <cstring>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

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

// The document's values as Values. Recursive: simdjson refused anything nested deeper than
// kMaxJsonDepth, so the depth is bounded.
Value toValue(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = e.get_array().value_unsafe();
      ValueList items;
      items.reserve(array.size());
      for (simdjson::dom::element item : array) items.push_back(toValue(item));
      return Value(std::move(items));
    }
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object object = e.get_object().value_unsafe();
      ValueMap entries;
      entries.reserve(object.size());
      for (simdjson::dom::key_value_pair field : object) {
        entries.emplace_back(std::string(field.key), toValue(field.value));
      }
      return Value(std::move(entries));
    }
    case simdjson::dom::element_type::INT64: return Value(e.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64: {
      uint64_t u = e.get_uint64().value_unsafe();
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Value(static_cast<int64_t>(u));
      }
      return Value(static_cast<double>(u));
    }
    case simdjson::dom::element_type::DOUBLE: return Value(e.get_double().value_unsafe());
    case simdjson::dom::element_type::STRING: return Value(e.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL: return Value(e.get_bool().value_unsafe());
    case simdjson::dom::element_type::NULL_VALUE: return Value();
  }
  return Value();
}

// One parser per thread, kept: its buffers are reused from one text to the next.
simdjson::dom::parser& threadParser() {
  thread_local simdjson::dom::parser parser = [] {
    simdjson::dom::parser p;
    // If this fails, parse() allocates what it needs itself, with simdjson's default depth
    // limit (1024) instead of ours.
    if (p.allocate(4096, kMaxJsonDepth) != simdjson::SUCCESS) return simdjson::dom::parser();
    return p;
  }();
  return parser;
}

// nlohmann-json's reading: what the text is when simdjson refused it.
Result<Value> readJsonSlowly(std::string_view text);

}  // namespace

Result<Value> readJson(std::string_view text) {
  // A NUL byte is never JSON (inside a string it must be escaped), and the parsers would take
  // it as the end of the text: "[1]\0{...}" read as [1], the rest lost without a word.
  if (const void* nul = std::memchr(text.data(), 0, text.size())) {
    size_t at = static_cast<size_t>(static_cast<const char*>(nul) - text.data());
    return makeError(ErrorCode::TypeConversion,
                     fmt::format("invalid JSON {}: a NUL byte, which JSON text never holds",
                                 where(text, at + 1)));
  }
  simdjson::dom::element document;
  if (threadParser().parse(text.data(), text.size()).get(document) == simdjson::SUCCESS) {
    try {
      return toValue(document);
    } catch (const std::bad_alloc&) {
      return makeError(ErrorCode::TypeConversion, "invalid JSON: out of memory");
    }
  }
  return readJsonSlowly(text);
}

namespace {

Result<Value> readJsonSlowly(std::string_view text) {
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

}  // namespace

}  // namespace dromedary::component::json
