// SPDX-License-Identifier: Apache-2.0
#include "http_binding.h"

#include <boost/beast/http/field.hpp>

#include <fmt/format.h>

namespace dromedary::component::http {

namespace bhttp = boost::beast::http;

namespace {

// Adds `value` under `name`, a second value turning the header into a list (as Camel does
// for repeated HTTP headers and query parameters), unless the filter keeps it out.
void addHeader(Headers& headers, const HeaderFilterStrategy& filter, std::string_view name,
               std::string value) {
  Value v(std::move(value));
  if (filter.applyFilterToExternalHeaders(name, v)) return;
  Value* existing = headers.find(name);
  if (!existing) {
    headers.set(name, std::move(v));
    return;
  }
  ValueList list;
  if (existing->isList()) {
    list = existing->getList();
  } else {
    list.push_back(std::move(*existing));
  }
  list.push_back(std::move(v));
  *existing = Value(std::move(list));
}

// name=value&name2=value2 (a query, or a form body) as headers.
void addParameters(Headers& headers, const HeaderFilterStrategy& filter, std::string_view text) {
  size_t i = 0;
  while (i <= text.size()) {
    size_t end = text.find('&', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view pair = text.substr(i, end - i);
    if (!pair.empty()) {
      size_t eq = pair.find('=');
      std::string name = percentDecode(pair.substr(0, eq), true);
      std::string value =
          eq == std::string_view::npos ? std::string() : percentDecode(pair.substr(eq + 1), true);
      if (!name.empty()) addHeader(headers, filter, name, std::move(value));
    }
    i = end + 1;
  }
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The headers that frame a response or a connection: the server sets them, whatever strategy
// an endpoint names (a route's Content-Length or Transfer-Encoding would corrupt the framing).
constexpr std::string_view kFramingHeaders[] = {
    "content-length", "transfer-encoding", "connection", "keep-alive", "te",
    "trailer",        "upgrade",           "proxy-connection", "host"};

bool framingHeader(std::string_view name) noexcept {
  for (std::string_view h : kFramingHeaders) {
    if (equalsIgnoreCase(name, h)) return true;
  }
  return false;
}

// Camel's HttpHeaderFilterStrategy: its out filter (the framing headers, and those HTTP's
// caches and proxies own) and Camel's prefixes both ways.
std::shared_ptr<const HeaderFilterStrategy> makeHttpHeaderFilterStrategy() {
  auto strategy = std::make_shared<DefaultHeaderFilterStrategy>();
  std::vector<std::string> out(std::begin(kFramingHeaders), std::end(kFramingHeaders));
  for (const char* name : {"content-type", "cache-control", "date", "pragma", "via", "warning"}) {
    out.emplace_back(name);
  }
  strategy->setOutFilter(std::move(out));
  return strategy;
}

// A header value as HTTP text, or false when it has none (null, a map) or could split the
// response (CR, LF or NUL in it).
bool headerText(const Value& v, std::string& out) {
  if (v.isNull() || v.isMap() || v.isList()) return false;
  out.clear();
  if (!v.appendTo(out)) return false;
  return out.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos;
}

std::string_view mediaType(std::string_view contentType) noexcept {
  return trim(contentType.substr(0, contentType.find(';')));
}

}  // namespace

std::shared_ptr<const HeaderFilterStrategy> httpHeaderFilterStrategy() {
  static const std::shared_ptr<const HeaderFilterStrategy> kStrategy =
      makeHttpHeaderFilterStrategy();
  return kStrategy;
}

void requestToMessage(const Request& request, const PathParameters& pathParameters,
                      const HeaderFilterStrategy& filter, Message& message) {
  Headers& headers = message.headers();
  for (const auto& field : request) {
    addHeader(headers, filter, sv(field.name_string()), std::string(sv(field.value())));
  }
  std::string_view target = sv(request.target());
  size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  std::string_view query =
      q != std::string_view::npos && q + 1 < target.size() ? target.substr(q + 1) : "";
  addParameters(headers, filter, query);
  const std::string& body = request.body();
  if (mediaTypeMatches(sv(request[bhttp::field::content_type]),
                       "application/x-www-form-urlencoded")) {
    addParameters(headers, filter, body);
  }
  // The engine's own come last, replacing whatever the client sent under these names.
  headers.set("CamelHttpMethod", Value(std::string(sv(request.method_string()))));
  headers.set("CamelHttpUri", Value(std::string(path)));
  headers.set("CamelHttpPath", Value(std::string(path)));
  if (!query.empty()) {
    headers.set("CamelHttpQuery", Value(std::string(query)));
    headers.set("CamelHttpRawQuery", Value(std::string(query)));
  }
  for (const auto& [name, value] : pathParameters) headers.set(name, Value(value));
  if (body.empty()) {
    message.setBody(Value());
  } else {
    message.setBody(Value(body));
  }
}

Response exchangeToResponse(const Exchange& exchange, unsigned version,
                            const ResponseOptions& options) {
  if (exchange.failed()) {
    return options.muteException ? Response{bhttp::status::internal_server_error, version}
                                 : textResponse(500, version, exchange.error().message());
  }
  Response response{bhttp::status::ok, version};
  const Message& message = exchange.message();
  const Value& body = message.body();
  if (!body.isNull()) body.appendTo(response.body());
  unsigned status = body.isNull() ? 204 : 200;
  if (const Value* code = message.headers().get("CamelHttpResponseCode")) {
    std::optional<int64_t> n = code->tryAs<int64_t>();
    if (!n || *n < 100 || *n > 599) {
      return textResponse(500, version,
                          fmt::format("CamelHttpResponseCode '{}' is not an HTTP status",
                                      code->toString()));
    }
    status = static_cast<unsigned>(*n);
  }
  response.result(status);
  std::string text;
  // A header the request brought and the route left as it was is the request's, not the
  // response's.
  auto fromRequest = [&](std::string_view name, const Value& value) {
    const Value* original = options.request ? options.request->get(name) : nullptr;
    return original && *original == value;
  };
  const Value* type = message.headers().get("Content-Type");
  if (type && !fromRequest("Content-Type", *type) && headerText(*type, text)) {
    response.set(bhttp::field::content_type, text);
  } else if (!options.produces.empty()) {
    response.set(bhttp::field::content_type,
                 bsv(trim(options.produces.substr(0, options.produces.find(',')))));
  } else if (body.isMap() || body.isList()) {
    response.set(bhttp::field::content_type, "application/json");
  }
  const HeaderFilterStrategy& filter =
      options.filter ? *options.filter : *httpHeaderFilterStrategy();
  for (const Headers::Entry& h : message.headers()) {
    // Content-Type was set above.
    if (framingHeader(h.name) || equalsIgnoreCase(h.name, "Content-Type") ||
        filter.applyFilterToCamelHeaders(h.name, h.value) || fromRequest(h.name, h.value)) {
      continue;
    }
    if (h.value.isList()) {
      for (const Value& item : h.value.getList()) {
        if (headerText(item, text)) response.insert(bsv(h.name), text);
      }
    } else if (headerText(h.value, text)) {
      response.insert(bsv(h.name), text);
    }
  }
  return response;
}

bool mediaTypeMatches(std::string_view type, std::string_view accepted) noexcept {
  std::string_view t = mediaType(type);
  size_t slash = t.find('/');
  size_t i = 0;
  while (i <= accepted.size()) {
    size_t end = accepted.find(',', i);
    if (end == std::string_view::npos) end = accepted.size();
    std::string_view a = mediaType(accepted.substr(i, end - i));
    i = end + 1;
    if (a.empty()) continue;
    if (a == "*/*" || a == "*") return true;
    if (equalsIgnoreCase(a, t)) return true;
    // "text/*" accepts "text/plain"
    if (a.size() > 2 && a.ends_with("/*") && slash != std::string_view::npos &&
        equalsIgnoreCase(a.substr(0, a.size() - 1), t.substr(0, slash + 1))) {
      return true;
    }
  }
  return false;
}

bool acceptsOneOf(std::string_view accept, std::string_view produced) noexcept {
  size_t i = 0;
  while (i <= produced.size()) {
    size_t end = produced.find(',', i);
    if (end == std::string_view::npos) end = produced.size();
    std::string_view type = mediaType(produced.substr(i, end - i));
    if (!type.empty() && mediaTypeMatches(type, accept)) return true;
    i = end + 1;
  }
  return false;
}

}  // namespace dromedary::component::http
