// SPDX-License-Identifier: Apache-2.0
#include "dsl/openapi/json_syntax.h"

#include <cctype>

namespace dromedary::dsl {

namespace {

// RFC 8259's grammar, as a recursive descent that builds nothing; `depth` bounds the nesting.
class JsonSyntax {
 public:
  explicit JsonSyntax(std::string_view text) : s_(text) {}

  bool whole() {
    space();
    if (!value(0)) return false;
    space();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 1000;  // as the json component's reader

  void space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  bool value(int depth) {
    if (i_ >= s_.size() || depth > kMaxDepth) return false;
    switch (s_[i_]) {
      case '{':
        return container(depth, '}', true);
      case '[':
        return container(depth, ']', false);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }
  bool container(int depth, char close, bool object) {
    ++i_;
    space();
    if (i_ < s_.size() && s_[i_] == close) {
      ++i_;
      return true;
    }
    while (true) {
      if (object) {
        if (i_ >= s_.size() || s_[i_] != '"' || !string()) return false;
        space();
        if (i_ >= s_.size() || s_[i_] != ':') return false;
        ++i_;
        space();
      }
      if (!value(depth + 1)) return false;
      space();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == close) {
        ++i_;
        return true;
      }
      if (s_[i_] != ',') return false;
      ++i_;
      space();
    }
  }
  bool string() {
    ++i_;  // the opening quote
    while (i_ < s_.size()) {
      unsigned char c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      if (e == 'u') {
        for (int k = 0; k < 4; ++k, ++i_) {
          if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) return false;
        }
      } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
        return false;
      }
    }
    return false;
  }
  bool digits() {
    size_t start = i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    return i_ > start;
  }
  bool number() {
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return false;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) return false;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return false;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

bool isJsonText(std::string_view text) noexcept { return JsonSyntax(text).whole(); }

}  // namespace dromedary::dsl
