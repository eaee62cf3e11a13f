// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/uri.h>

#include <algorithm>

#include <fmt/format.h>

namespace dromedary {

namespace {

bool isSchemeChar(char c, bool first) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  if (first) return alpha;
  return alpha || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Error uriError(std::string_view text, std::string message) {
  return makeError(ErrorCode::InvalidUri,
                   fmt::format("invalid endpoint uri '{}': {}", text, message));
}

Result<std::string> decode(std::string_view text, std::string_view value) {
  // RAW(...) and RAW{...} keep a value verbatim (Camel's way to pass passwords with + or &).
  if (value.size() >= 5 && value.substr(0, 4) == "RAW(" && value.back() == ')') {
    return std::string(value.substr(4, value.size() - 5));
  }
  if (value.size() >= 5 && value.substr(0, 4) == "RAW{" && value.back() == '}') {
    return std::string(value.substr(4, value.size() - 5));
  }
  std::string out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      int hi = i + 1 < value.size() ? hexValue(value[i + 1]) : -1;
      int lo = i + 2 < value.size() && hi >= 0 ? hexValue(value[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return uriError(text, fmt::format("bad percent escape in '{}' (expected %XX with two "
                                          "hex digits)",
                                          value));
      }
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string encodeUriComponent(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~' ||
                      c == '*' || c == ':' || c == '/' || c == ',' || c == '$' || c == '@';
    if (unreserved) {
      out += c;
    } else {
      fmt::format_to(std::back_inserter(out), "%{:02X}", static_cast<unsigned char>(c));
    }
  }
  return out;
}

Result<Uri> Uri::parse(std::string_view text) {
  Uri uri;
  uri.text_ = std::string(text);
  size_t colon = text.find(':');
  if (text.empty()) return uriError(text, "it is empty (expected 'scheme:path?options')");
  if (colon == std::string_view::npos) {
    return uriError(text, "no scheme (expected 'scheme:path?options', e.g. 'direct:name')");
  }
  std::string_view scheme = text.substr(0, colon);
  if (scheme.empty()) return uriError(text, "empty scheme before ':'");
  for (size_t i = 0; i < scheme.size(); ++i) {
    if (!isSchemeChar(scheme[i], i == 0)) {
      return uriError(text, fmt::format("scheme '{}' has an invalid character '{}' (expected a "
                                        "letter, then letters, digits, '+', '-' or '.')",
                                        scheme, scheme[i]));
    }
  }
  std::string_view rest = text.substr(colon + 1);
  if (rest.substr(0, 2) == "//") rest.remove_prefix(2);
  size_t question = rest.find('?');
  const std::string_view path = rest.substr(0, question);
  if (question != std::string_view::npos) {
    std::string_view query = rest.substr(question + 1);
    while (!query.empty()) {
      size_t amp = query.find('&');
      std::string_view pair = query.substr(0, amp);
      // A RAW(...) value may itself contain '&': extend to its closing bracket.
      size_t raw = pair.find("=RAW(");
      if (raw != std::string_view::npos && pair.find(')', raw) == std::string_view::npos) {
        size_t close = query.find(')', raw);
        if (close != std::string_view::npos) {
          amp = query.find('&', close);
          pair = query.substr(0, amp);
        }
      }
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      if (pair.empty()) continue;
      size_t eq = pair.find('=');
      std::string_view name = pair.substr(0, eq);
      if (name.empty()) return uriError(text, fmt::format("option '{}' has no name", pair));
      std::string value;
      if (eq != std::string_view::npos) {
        auto decoded = decode(text, pair.substr(eq + 1));
        if (!decoded) return decoded.error();
        value = std::move(*decoded);
      }
      // A repeated name is kept (an HTTP query's tag=a&tag=b); an option table refuses a
      // repeated option it names (EndpointOptions::resolve).
      uri.options_.edit().emplace_back(std::string(name), std::move(value));
    }
  }
  if (!uri.options_.get().empty()) {
    std::vector<Option>& options = uri.options_.edit();
    std::stable_sort(options.begin(), options.end(),
                     [](const Option& a, const Option& b) { return a.first < b.first; });
  }
  uri.normalized_.reserve(scheme.size() + 3 + path.size());
  uri.normalized_.append(scheme).append("://").append(path);
  uri.scheme_size_ = static_cast<uint32_t>(scheme.size());
  uri.path_size_ = static_cast<uint32_t>(path.size());
  char separator = '?';
  for (const auto& [name, value] : uri.options_.get()) {
    uri.normalized_ += separator;
    uri.normalized_ += name;
    uri.normalized_ += '=';
    uri.normalized_ += encodeUriComponent(value);
    separator = '&';
  }
  return uri;
}

const std::string* Uri::option(std::string_view name) const noexcept {
  for (const auto& [n, v] : options_.get()) {
    if (n == name) return &v;
  }
  return nullptr;
}

}  // namespace dromedary
