// SPDX-License-Identifier: Apache-2.0
#include "http_target.h"

#include <charconv>

#include <fmt/format.h>

#include <dromedary/core/uri.h>

namespace dromedary::component::httpclient {

namespace {

bool unsafeInUrl(unsigned char c) noexcept {
  if (c <= 0x20 || c >= 0x7f) return true;
  switch (c) {
    case '"': case '<': case '>': case '\\': case '^': case '`': case '{': case '|': case '}':
      return true;
    default:
      return false;
  }
}

std::string_view headerText(const Message& message, std::string_view name) noexcept {
  const Value* v = message.headers().get(name);
  return v && v->isString() ? std::string_view(v->getString()) : std::string_view();
}

// "name=value" as written, its name decoded enough to compare with the option table.
std::string optionName(std::string_view pair) {
  std::string_view name = pair.substr(0, pair.find('='));
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size()) {
      int v = 0;
      auto [p, ec] = std::from_chars(name.data() + i + 1, name.data() + i + 3, v, 16);
      if (ec == std::errc() && p == name.data() + i + 3) {
        out += static_cast<char>(v);
        i += 2;
        continue;
      }
    }
    out += name[i];
  }
  return out;
}

}  // namespace

bool equalsIgnoreCaseAscii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

void appendUrlSafe(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    if (unsafeInUrl(c)) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
}

Result<Target> targetOf(std::string_view scheme, std::string_view uri_text,
                        std::span<const OptionSpec> specs) {
  std::string_view rest = uri_text;
  size_t colon = rest.find(':');
  if (colon != std::string_view::npos) rest = rest.substr(colon + 1);
  // "http://host/..." and "http:host/..." name a host; "http:/path" does not.
  bool path_only = rest.starts_with('/') && !rest.starts_with("//");
  while (rest.starts_with('/')) rest.remove_prefix(1);
  size_t question = rest.find('?');
  std::string_view path = rest.substr(0, question);
  std::string_view query = question == std::string_view::npos ? "" : rest.substr(question + 1);
  if (size_t hash = path.find('#'); hash != std::string_view::npos) path = path.substr(0, hash);
  if (path_only || path.empty() || path.starts_with(':')) {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("endpoint '{}' names no host: write {}://HOST[:PORT][/PATH]",
                                 uri_text, scheme));
  }
  Target target;
  target.base = fmt::format("{}://", scheme);
  appendUrlSafe(target.base, path);
  while (!query.empty()) {
    size_t amp = query.find('&');
    // A RAW(...) value runs to its closing parenthesis, '&' and all.
    if (size_t raw = query.find("=RAW("); raw != std::string_view::npos && raw < amp) {
      size_t close = query.find(')', raw);
      while (close != std::string_view::npos && close + 1 < query.size() &&
             query[close + 1] != '&') {
        close = query.find(')', close + 1);
      }
      amp = close == std::string_view::npos ? close : query.find('&', close);
    }
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    if (pair.empty() || EndpointOptions::names(specs, optionName(pair))) continue;
    if (!target.query.empty()) target.query += '&';
    size_t eq = pair.find('=');
    std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    if (value.starts_with("RAW(") && value.ends_with(')')) {
      appendUrlSafe(target.query, pair.substr(0, eq + 1));
      target.query += encodeUriComponent(value.substr(4, value.size() - 5));
    } else {
      appendUrlSafe(target.query, pair);
    }
  }
  return target;
}

bool splitDynamicUri(std::string_view uri, std::span<const OptionSpec> specs, std::string& endpoint,
                     std::string& path, std::string& query) noexcept {
  size_t authority = uri.find("://");
  if (authority == std::string_view::npos) return false;
  authority += 3;
  size_t path_at = uri.find_first_of("/?#", authority);
  std::string_view host = uri.substr(authority, path_at - authority);
  // Userinfo, a fragment or a RAW(...) value: sent as written, not split.
  if (host.empty() || host.find('@') != std::string_view::npos ||
      uri.find('#') != std::string_view::npos || uri.find("RAW(") != std::string_view::npos) {
    return false;
  }
  size_t question = uri.find('?');
  std::string_view rest = path_at == std::string_view::npos ? "" : uri.substr(path_at);
  std::string_view query_text = question == std::string_view::npos ? "" : uri.substr(question + 1);
  endpoint.assign(uri.substr(0, authority + host.size()));
  path.assign(rest.substr(0, rest.find('?')));
  query.clear();
  char separator = '?';
  while (!query_text.empty()) {
    size_t amp = query_text.find('&');
    std::string_view pair = query_text.substr(0, amp);
    query_text = amp == std::string_view::npos ? "" : query_text.substr(amp + 1);
    if (pair.empty()) continue;
    std::string_view name = pair.substr(0, pair.find('='));
    bool own = name.find('%') == std::string_view::npos
                   ? EndpointOptions::names(specs, name)  // no copy on the per-message path
                   : EndpointOptions::names(specs, optionName(pair));
    if (own) {  // the endpoint's own option
      endpoint += separator;
      endpoint.append(pair);
      separator = '&';
    } else {
      if (!query.empty()) query += '&';
      query.append(pair);
    }
  }
  return true;
}

// The pool's key, not the request's URL: per request on the loop's thread, into a reused
// buffer.
void poolKeyOf(std::string_view url, std::string& key) {
  key.clear();
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    key.append(url);
    return;
  }
  std::string_view scheme = url.substr(0, scheme_end);
  std::string_view authority = url.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  key.append(scheme).append("://").append(authority);
  size_t colon = authority.rfind(':');
  size_t bracket = authority.rfind(']');
  bool has_port = colon != std::string_view::npos &&
                  (bracket == std::string_view::npos || colon > bracket);
  if (!has_port) key.append(equalsIgnoreCaseAscii(scheme, "https") ? ":443" : ":80");
}

void requestUrl(const Target& target, const Message& message, bool bridge, std::string& out) {
  out.clear();
  std::string_view own_query = target.query;
  std::string_view uri_header = bridge ? std::string_view() : headerText(message, "CamelHttpUri");
  // A CamelHttpUri that is a path only (platform-http sets it so) is not a target.
  if (!uri_header.empty() && uri_header.find("://") != std::string_view::npos) {
    size_t q = uri_header.find('?');
    appendUrlSafe(out, uri_header.substr(0, q));
    own_query = q == std::string_view::npos ? "" : uri_header.substr(q + 1);
  } else {
    out += target.base;
  }
  std::string_view path = headerText(message, "CamelHttpPath");
  while (path.starts_with('/')) path.remove_prefix(1);
  if (!path.empty()) {
    if (!out.ends_with('/')) out += '/';
    appendUrlSafe(out, path);
  }
  std::string_view query = headerText(message, "CamelHttpRawQuery");
  if (query.empty()) query = headerText(message, "CamelHttpQuery");
  if (query.empty()) query = own_query;
  if (!query.empty()) {
    out += '?';
    appendUrlSafe(out, query);
  }
}

bool hasQuery(const Target& target, const Message& message, bool bridge) noexcept {
  if (!headerText(message, "CamelHttpRawQuery").empty()) return true;
  if (!headerText(message, "CamelHttpQuery").empty()) return true;
  std::string_view uri_header = bridge ? std::string_view() : headerText(message, "CamelHttpUri");
  if (uri_header.find("://") != std::string_view::npos) {
    return uri_header.find('?') != std::string_view::npos;
  }
  return !target.query.empty();
}

std::string_view requestMethod(std::string_view configured, const Message& message,
                               bool has_query) noexcept {
  if (!configured.empty()) return configured;
  if (const Value* m = message.headers().get("CamelHttpMethod")) {
    if (!m->isString()) return {};
    static constexpr std::string_view kMethods[] = {"GET",  "POST",  "PUT",   "DELETE",
                                                    "HEAD", "PATCH", "TRACE", "OPTIONS"};
    for (std::string_view known : kMethods) {
      if (equalsIgnoreCaseAscii(known, m->getString())) return known;
    }
    return {};
  }
  if (has_query) return "GET";
  return message.body().isNull() ? "GET" : "POST";
}

Result<StatusRanges> parseStatusRanges(std::string_view text) {
  StatusRanges ranges;
  auto bad = [&] {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("okStatusCodeRange '{}' is not a list of statuses and ranges "
                                 "such as 200-299,304",
                                 text));
  };
  auto number = [](std::string_view t, int& out) {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && p == t.data() + t.size() && out >= 100 && out <= 599;
  };
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    size_t dash = part.find('-');
    int low = 0, high = 0;
    if (dash == std::string_view::npos) {
      if (!number(part, low)) return bad();
      high = low;
    } else if (!number(part.substr(0, dash), low) || !number(part.substr(dash + 1), high) ||
               high < low) {
      return bad();
    }
    ranges.emplace_back(low, high);
  }
  if (ranges.empty()) return bad();
  return ranges;
}

bool statusIsOk(const StatusRanges& ranges, int status) noexcept {
  for (const auto& [low, high] : ranges) {
    if (status >= low && status <= high) return true;
  }
  return false;
}

}  // namespace dromedary::component::httpclient
