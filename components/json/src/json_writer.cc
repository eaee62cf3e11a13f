// SPDX-License-Identifier: Apache-2.0
// Values to JSON text as Jackson writes them (compact, or its default pretty printer), by a
// writer of its own: the output goes straight into the body's string, with no tree between.
#include <cmath>

#include <fmt/format.h>

#include "json_text.h"

namespace dromedary::component::json {

namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64(std::string_view in, std::string& out) {
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) |
                 uint8_t(in[i + 2]);
    out += kBase64[(n >> 18) & 63];
    out += kBase64[(n >> 12) & 63];
    out += kBase64[(n >> 6) & 63];
    out += kBase64[n & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t n = uint32_t(uint8_t(in[i])) << 16;
    out += kBase64[(n >> 18) & 63];
    out += kBase64[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t n = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8);
    out += kBase64[(n >> 18) & 63];
    out += kBase64[(n >> 12) & 63];
    out += kBase64[(n >> 6) & 63];
    out += '=';
  }
}

void quoted(std::string_view s, std::string& out) { appendJsonString(out, s); }

class Writer {
 public:
  Writer(std::string& out, JsonStyle style) : out_(out), style_(style) {}

  Result<void> write(const Value& v, size_t depth) {
    if (depth > kMaxJsonDepth) {
      return makeError(ErrorCode::TypeConversion,
                       fmt::format("cannot write JSON nested deeper than {} levels", kMaxJsonDepth));
    }
    switch (v.type()) {
      case ValueType::Null: out_ += "null"; break;
      case ValueType::Bool: out_ += v.getBool() ? "true" : "false"; break;
      case ValueType::Int: fmt::format_to(std::back_inserter(out_), "{}", v.getInt()); break;
      case ValueType::Double: number(v.getDouble()); break;
      case ValueType::String: quoted(v.getString(), out_); break;
      case ValueType::Bytes:
        out_ += '"';
        base64(v.getBytes().view(), out_);
        out_ += '"';
        break;
      case ValueType::List: return list(v.getList(), depth);
      case ValueType::Map: return map(v.getMap(), depth);
      case ValueType::Object: quoted(v.toString(), out_); break;
    }
    return {};
  }

 private:
  void number(double d) {
    if (std::isnan(d)) {
      out_ += "\"NaN\"";
    } else if (std::isinf(d)) {
      out_ += d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    } else if (d == std::floor(d) && std::fabs(d) < 1e16) {
      fmt::format_to(std::back_inserter(out_), "{:.1f}", d);  // Jackson: 2.0, not 2
    } else {
      fmt::format_to(std::back_inserter(out_), "{}", d);  // the shortest text that reads back
    }
  }

  // Jackson's pretty printer indents objects (2 spaces a level) and keeps arrays on the line.
  void newline() {
    out_ += '\n';
    out_.append(2 * objects_, ' ');
  }

  Result<void> list(const ValueList& items, size_t depth) {
    out_ += '[';
    bool first = true;
    for (const Value& item : items) {
      if (!first) out_ += ',';
      if (style_.pretty) out_ += ' ';
      first = false;
      DROMEDARY_TRY_VOID(write(item, depth + 1));
    }
    if (style_.pretty) out_ += ' ';
    out_ += ']';
    return {};
  }

  Result<void> map(const ValueMap& entries, size_t depth) {
    out_ += '{';
    ++objects_;
    bool first = true;
    for (const auto& [key, value] : entries) {
      if (style_.skipNulls && value.isNull()) continue;
      if (!first) out_ += ',';
      first = false;
      if (style_.pretty) newline();
      quoted(key, out_);
      out_ += style_.pretty ? " : " : ":";
      DROMEDARY_TRY_VOID(write(value, depth + 1));
    }
    --objects_;
    if (style_.pretty) {
      if (first) {
        out_ += ' ';
      } else {
        newline();
      }
    }
    out_ += '}';
    return {};
  }

  std::string& out_;
  JsonStyle style_;
  size_t objects_ = 0;
};

}  // namespace

Result<void> writeJson(const Value& value, std::string& out, JsonStyle style) {
  return Writer(out, style).write(value, 0);
}

}  // namespace dromedary::component::json
