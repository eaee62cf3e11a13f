// SPDX-License-Identifier: Apache-2.0
#include "http_producer.h"

#include <map>

#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/http_client/http_client.h>

#include "direct_lane.h"
#include "http_failures.h"

namespace dromedary::component::httpclient {

namespace {

void resumeTask(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Headers that describe one hop's framing and connection, which curl writes for the request
// it sends, and which a message carries only because a server request brought them.
bool hopHeader(std::string_view name) noexcept {
  for (std::string_view h : {"Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive",
                             "Expect", "TE", "Trailer", "Upgrade", "Proxy-Connection", "Host"}) {
    if (equalsIgnoreCaseAscii(name, h)) return true;
  }
  return false;
}

// Headers Camel's HttpProtocolHeaderFilterStrategy keeps from being copied from the request
// onto the reply (copyHeaders): the reply's own say otherwise.
bool entityHeader(std::string_view name) noexcept {
  for (std::string_view h : {"Content-Length", "Content-Type", "Content-Encoding",
                             "Content-Language", "Content-Location", "Content-MD5",
                             "Content-Range", "Transfer-Encoding", "Connection", "Host",
                             "Date", "ETag", "Expires", "Last-Modified", "Server", "Vary",
                             "Via", "Warning", "Location", "Set-Cookie"}) {
    if (equalsIgnoreCaseAscii(name, h)) return true;
  }
  return false;
}

bool safeHeaderValue(std::string_view value) noexcept {
  for (char c : value) {
    if (c == '\r' || c == '\n' || c == '\0') return false;
  }
  return true;
}

bool safeHeaderName(std::string_view name) noexcept {
  if (name.empty()) return false;
  for (unsigned char c : name) {
    // RFC 9110 token characters.
    if (!(std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) !=
                                 std::string_view::npos)) {
      return false;
    }
  }
  return true;
}

// A header value as text: scalars as they print, nothing for maps and nulls.
bool headerText(const Value& value, std::string& out) {
  out.clear();
  if (value.isNull() || value.isMap() || value.isList()) return false;
  if (value.isString()) {
    out = value.getString();
    return true;
  }
  return value.appendTo(out);
}

// The query parameters of a bridged request: platform-http also made them headers, which must
// not be sent a second time as headers.
bool isQueryParameter(std::string_view query, std::string_view name) noexcept {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    if (equalsIgnoreCaseAscii(pair.substr(0, pair.find('=')), name)) return true;
  }
  return false;
}

size_t onBody(char* data, size_t size, size_t count, void* arg) noexcept {
  auto* t = static_cast<Transfer*>(arg);
  size_t n = size * count;
  if (t->ignoreBody) return n;
  try {
    t->responseBody.append(std::string_view(data, n));
  } catch (const std::exception& e) {
    try {
      t->bodyFailure = e.what();
    } catch (...) {
    }
    return 0;  // curl fails the transfer (CURLE_WRITE_ERROR)
  }
  return n;
}

// One line of the reply's head: a status line starts a response (after a redirect or a 100
// Continue, another one), a header line is kept as "name\0value\0".
size_t onHeader(char* data, size_t size, size_t count, void* arg) noexcept {
  auto* t = static_cast<Transfer*>(arg);
  size_t n = size * count;
  std::string_view line(data, n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  try {
    if (line.starts_with("HTTP/")) {
      t->responseHeaderText.clear();
      t->reason.clear();
      size_t sp = line.find(' ');
      size_t sp2 = sp == std::string_view::npos ? sp : line.find(' ', sp + 1);
      if (sp2 != std::string_view::npos) t->reason.assign(line.substr(sp2 + 1));
      return n;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return n;
    std::string_view value = trim(line.substr(colon + 1));
    t->responseHeaderText.append(line.substr(0, colon));
    t->responseHeaderText += '\0';
    t->responseHeaderText.append(value);
    t->responseHeaderText += '\0';
  } catch (...) {
    return 0;
  }
  return n;
}

template <class F>
void forEachResponseHeader(const Transfer& t, F&& f) {
  std::string_view text = t.responseHeaderText;
  while (!text.empty()) {
    size_t end_name = text.find('\0');
    std::string_view name = text.substr(0, end_name);
    text.remove_prefix(end_name + 1);
    size_t end_value = text.find('\0');
    std::string_view value = text.substr(0, end_value);
    text.remove_prefix(end_value + 1);
    f(name, value);
  }
}

void failIo(const EndpointConfig& config, Transfer& t, CURLcode result) {
  curl_off_t connect_us = 0;
  if (!t.direct) curl_easy_getinfo(t.easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  bool connect_phase = t.direct ? !t.connected : connect_us == 0;
  std::string why = !t.bodyFailure.empty() ? t.bodyFailure
                    : t.error[0]             ? t.error
                                             : curl_easy_strerror(result);
  IoFailureKind kind = t.poolTimedOut ? IoFailureKind::ConnectionRequestTimeout
                                      : failureKind(result, connect_phase, why);
  std::string message;
  switch (kind) {
    case IoFailureKind::ConnectionRequestTimeout:
      message = fmt::format("Timeout waiting for a connection to {}: the pool's connections "
                            "(maxTotalConnections, connectionsPerRoute) stayed in use for the "
                            "connectionRequestTimeout of {} ms",
                            t.url, config.connectionRequestTimeoutMs);
      break;
    case IoFailureKind::ConnectTimeout:
      message = fmt::format("{} {}: no connection within the connectTimeout of {} ms ({})",
                            "Connect to", t.url, config.connectTimeoutMs, why);
      break;
    case IoFailureKind::ResponseTimeout:
      message = config.responseTimeoutMs > 0
                    ? fmt::format("Read timed out: {} gave no complete reply within the "
                                  "responseTimeout of {} ms ({})",
                                  t.url, config.responseTimeoutMs, why)
                    : fmt::format("Read timed out: {} sent nothing for the soTimeout of {} s "
                                  "({})",
                                  t.url, config.soTimeoutSeconds, why);
      break;
    case IoFailureKind::Connect:
      message = fmt::format("Connect to {} failed: {}", t.url, why);
      break;
    case IoFailureKind::UnknownHost:
      message = fmt::format("{}: unknown host ({})", t.url, why);
      break;
    case IoFailureKind::Tls:
      message = fmt::format("TLS with {} failed: {}", t.url, why);
      break;
    case IoFailureKind::Other:
      message = result == CURLE_ABORTED_BY_CALLBACK
                    ? fmt::format("{}: the http component stopped before the reply came", t.url)
                    : fmt::format("{} failed: {}", t.url, why);
      break;
  }
  t.exchange->setException(std::make_exception_ptr(HttpIoFailure(kind, message)));
}

void failStatus(Transfer& t, int status) {
  std::map<std::string, std::string> headers;
  std::string location;
  forEachResponseHeader(t, [&](std::string_view name, std::string_view value) {
    headers[std::string(name)] = std::string(value);
    if (equalsIgnoreCaseAscii(name, "Location")) location = std::string(value);
  });
  if (status < 300 || status >= 400) location.clear();
  t.exchange->setException(std::make_exception_ptr(HttpOperationFailedException(
      t.url, status, t.reason, std::move(location), std::move(headers),
      t.responseBody.takeText())));
}

// The reply onto the message: body, status, headers (Camel's populateResponse).
void populate(const EndpointConfig& config, Transfer& t, int status, std::string_view method) {
  Message& message = t.exchange->message();
  Headers& headers = message.headers();
  if (!config.copyHeaders) {
    headers.clear();
  } else {
    headers.removeIf([](std::string_view name) { return entityHeader(name); });
  }
  headers.set("CamelHttpResponseCode", Value(int64_t{status}));
  if (!t.reason.empty()) {
    headers.set("CamelHttpResponseText", Value(std::string_view(t.reason)));
  } else {
    headers.remove("CamelHttpResponseText");
  }
  if (!config.skipResponseHeaders) {
    const HeaderFilterStrategy& filter = *config.filter;
    // The names this reply set (views into the transfer's header text): a second header of
    // one name makes the value a list.
    static thread_local std::vector<std::string_view> set_here;
    set_here.clear();
    // The filter looks at each value as a Value: one kept by the thread (its text's capacity
    // reused), and the value copied into the header's own string, so that a reply's headers
    // allocate nothing once the exchange's entries are warm.
    static thread_local Value scratch{std::string()};
    forEachResponseHeader(t, [&](std::string_view name, std::string_view value) {
      if (equalsIgnoreCaseAscii(name, "Content-Type")) name = "Content-Type";
      scratch.setString(value);
      if (filter.applyFilterToExternalHeaders(name, scratch)) return;
      bool again = false;
      for (std::string_view s : set_here) again = again || equalsIgnoreCaseAscii(s, name);
      if (!again) {
        // A new entry takes the string a removed one left (its capacity with it).
        Value& slot = headers.contains(name) ? headers.slot(name) : headers.addUnchecked(name);
        slot.setString(value);
        set_here.push_back(name);
        return;
      }
      Value& existing = headers.slot(name);
      if (!existing.isList()) {
        ValueList list;
        list.push_back(std::move(existing));
        existing = Value(std::move(list));
      }
      existing.mutableList().push_back(scratch);
    });
  }
  bool no_body = method == "HEAD" || status == 204 || status == 304 || config.ignoreResponseBody;
  if (no_body) {
    message.setBody(Value());
  } else {
    // The reply's buffer becomes the body, the body's old string buffer the next reply's (or
    // the body is the spool file the reply went to).
    t.responseBody.moveInto(message.body());
  }
}

// The reply (or the failure) onto the transfer's exchange, and the transfer back to its pool.
void mapReply(Transfer& t, CURLcode result) noexcept {
  const auto& config = *static_cast<const EndpointConfig*>(t.owner);
  Exchange& exchange = *t.exchange;
  try {
    if (result != CURLE_OK) {
      failIo(config, t, result);
    } else {
      long status = t.status;
      std::string_view method = t.method;
      if (!t.direct) {
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        char* effective = nullptr;  // after redirects, what curl last sent
        curl_easy_getinfo(t.easy, CURLINFO_EFFECTIVE_METHOD, &effective);
        method = effective ? effective : "GET";
      }
      if (config.throwOnFailure && !statusIsOk(config.okRanges, static_cast<int>(status))) {
        failStatus(t, static_cast<int>(status));
      } else {
        populate(config, t, static_cast<int>(status), method);
      }
    }
  } catch (...) {
    exchange.setException(std::current_exception());
  }
  t.loop->release(&t);
}

void onDone(Transfer& t, CURLcode result) noexcept {
  const auto& config = *static_cast<const EndpointConfig*>(t.owner);
  Exchange& exchange = *t.exchange;
  mapReply(t, result);
  // A reply whose exchange goes on only through what cannot block is resumed right here: one
  // thread hop less per request. Anything that may block runs on a worker.
  if (!resumeMayBlock(exchange)) {
    exchange.resume();
  } else {
    config.context->submit({&resumeTask, &exchange});
  }
}

}  // namespace

// curl's options for the transfer's request, but for its method, body and headers.
void curlOptions(const EndpointConfig& config, Transfer& t) {
  CURL* e = t.easy;
  t.easyUsed = true;
  curl_easy_setopt(e, CURLOPT_URL, t.url.c_str());
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &onBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &onHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  if (config.cookies) {
    t.cookies = config.cookies.get();
    // The cookie engine on, reading no file. curl needs it per request (curl_easy_reset
    // clears it): one small curl allocation more per request, on top of its copy of the URL.
    curl_easy_setopt(e, CURLOPT_COOKIEFILE, "");
  }
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // Camel's client does not decompress unless asked; curl passes bodies through as sent.
  if (config.connectTimeoutMs > 0) curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, config.connectTimeoutMs);
  if (config.responseTimeoutMs > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, config.responseTimeoutMs);
  if (config.soTimeoutSeconds > 0) {
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, config.soTimeoutSeconds);
  }
  if (config.followRedirects) {
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, 50L);
  }
  if (config.authMask == CURLAUTH_BEARER) {
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
    curl_easy_setopt(e, CURLOPT_XOAUTH2_BEARER, config.bearerToken.c_str());
  } else if (config.authMask != 0) {
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, config.authMask);
    curl_easy_setopt(e, CURLOPT_USERPWD, config.userPassword.c_str());
  }
  if (!config.userAgent.empty()) curl_easy_setopt(e, CURLOPT_USERAGENT, config.userAgent.c_str());
  if (!config.caFile.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, config.caFile.c_str());
  if (!config.certFile.empty()) curl_easy_setopt(e, CURLOPT_SSLCERT, config.certFile.c_str());
  if (!config.keyFile.empty()) curl_easy_setopt(e, CURLOPT_SSLKEY, config.keyFile.c_str());
  if (!config.keyPassword.empty()) curl_easy_setopt(e, CURLOPT_KEYPASSWD, config.keyPassword.c_str());
  if (!config.verifyHost) curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  // No proxy unless the endpoint names one: curl would otherwise take http_proxy from the
  // environment, which Camel's client does not.
  curl_easy_setopt(e, CURLOPT_PROXY, config.proxy.c_str());
  if (!config.proxyUserPassword.empty()) {
    curl_easy_setopt(e, CURLOPT_PROXYUSERPWD, config.proxyUserPassword.c_str());
  }
}

bool buildRequest(const EndpointConfig& config, Exchange& exchange, Transfer& t) {
  Message& message = exchange.message();
  const bool has_query = hasQuery(config.target, message, config.bridge);
  std::string_view method = requestMethod(config.method, message, has_query);
  if (method.empty()) {
    const Value* m = message.headers().get("CamelHttpMethod");
    exchange.failWithDetail(
        ErrorCode::InvalidOption, "Invalid HTTP method",
        fmt::format("{}: the CamelHttpMethod header '{}' is not an HTTP method (GET, POST, PUT, "
                    "DELETE, HEAD, PATCH, TRACE, OPTIONS)",
                    config.uri, m ? m->toString() : ""));
    return false;
  }
  requestUrl(config.target, message, config.bridge, t.url);
  t.responseBody.reset(config.disableStreamCache ? nullptr
                                                 : &config.context->streamCaching());
  t.poolTimeoutMs = config.connectionRequestTimeoutMs;
  // On a server I/O thread a plain request goes out without curl (direct_lane.h).
  t.direct = config.direct && t.loop->sendsDirect() && DirectLane::takes(t.url);
  if (t.direct) {
    t.connectTimeoutMs = config.connectTimeoutMs;
    t.responseTimeoutMs = config.responseTimeoutMs;
    t.soTimeoutMs = config.soTimeoutSeconds * 1000;
    t.connectionClose = config.connectionClose;
    if (!config.userAgent.empty()) t.addHeader("User-Agent", config.userAgent);
  } else {
    curlOptions(config, t);
  }
  // The method and the body.
  const bool with_body = method == "POST" || method == "PUT" || method == "PATCH" ||
                         (method == "GET" && config.getWithBody) ||
                         (method == "DELETE" && config.deleteWithBody);
  CURL* e = t.easy;
  t.method = method;
  if (t.direct) {
  } else if (method == "GET") {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  } else if (method == "HEAD") {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  }
  if (with_body) {
    const Value& body = message.body();
    std::string_view data;
    if (body.isString()) {
      data = body.getString();
    } else if (body.isBytes()) {
      data = body.getBytes().view();
    } else if (!body.isNull()) {
      body.appendTo(t.requestBody);  // maps and lists as JSON, scalars as text
      data = t.requestBody;
    }
    // Sent from the message, which stays as it is while the exchange waits.
    t.requestData = data;
    t.sendsBody = true;
    if (!t.direct) {
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(data.size()));
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, data.data());
    }
    if (!message.headers().contains("Content-Type")) {
      // JSON for a map or a list; else none rather than curl's form type, as Camel sends none.
      if (body.isMap() || body.isList()) {
        t.addHeader("Content-Type", "application/json");
      } else {
        t.suppressHeader("Content-Type");
      }
    }
  }
  if (t.direct) {
  } else if (method != "GET" && method != "POST" && method != "HEAD") {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method.data());
  } else if (method == "GET" && with_body) {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "GET");
  }

  // The headers.
  t.suppressHeader("Expect");  // no 100-continue round trip before a body
  if (!config.skipRequestHeaders) {
    const HeaderFilterStrategy& filter = *config.filter;
    std::string_view bridged_query;
    if (config.bridge) {
      if (const Value* q = message.headers().get("CamelHttpQuery"); q && q->isString()) {
        bridged_query = q->getString();
      }
    }
    std::string text;
    for (const Headers::Entry& h : message.headers()) {
      std::string_view name = h.name;
      if (hopHeader(name) || filter.applyFilterToCamelHeaders(name, h.value)) continue;
      if (!bridged_query.empty() && isQueryParameter(bridged_query, name)) continue;
      auto add = [&](const Value& v) {
        if (!headerText(v, text)) return true;
        if (!safeHeaderName(name) || !safeHeaderValue(text)) {
          exchange.failWithDetail(
              ErrorCode::InvalidOption, "Invalid HTTP header",
              fmt::format("{}: the header '{}' cannot be sent: its name or value holds a line "
                          "break or a character HTTP forbids",
                          config.uri, name));
          return false;
        }
        t.addHeader(name, text);
        return true;
      };
      if (h.value.isList()) {
        for (const Value& item : h.value.getList()) {
          if (!add(item)) return false;
        }
      } else if (!add(h.value)) {
        return false;
      }
    }
  }
  if (!config.customHostHeader.empty()) {
    t.addHeader("Host", config.customHostHeader);
  } else if (config.preserveHostHeader) {
    if (const Value* host = message.headers().get("Host"); host && host->isString()) {
      if (safeHeaderValue(host->getString())) t.addHeader("Host", host->getString());
    }
  }
  if (config.connectionClose) t.addHeader("Connection", "close");
  if (!t.direct) curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headerList());
  t.ignoreBody = config.ignoreResponseBody;
  return true;
}

void HttpProducer::stop() noexcept { config_.pool->abortOwner(&config_); }

Status HttpProducer::process(Exchange& exchange) noexcept {
  Transfer* t = nullptr;
  try {
    t = config_.pool->acquire();
    if (!buildRequest(config_, exchange, *t)) {
      t->loop->release(t);
      return Status::Fail;
    }
  } catch (...) {
    if (t) t->loop->release(t);
    exchange.setException(std::current_exception());
    return Status::Fail;
  }
  t->exchange = &exchange;
  t->owner = const_cast<EndpointConfig*>(&config_);
  t->done = &onDone;
  // A thread that would wait for the exchange anyway sends the request and reads the reply
  // itself, when a connection is free: no hand-off to the pool's thread and back.
  if (callerWaits(exchange)) {
    CURLcode result = CURLE_OK;
    if (config_.pool->runHere(t, result)) {
      mapReply(*t, result);
      return exchange.failed() ? Status::Fail : Status::Continue;
    }
  }
  // The exchange belongs to the loop's thread from here until it is resumed.
  config_.pool->submit(t);
  return Status::Suspend;
}

}  // namespace dromedary::component::httpclient
