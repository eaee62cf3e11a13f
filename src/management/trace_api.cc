// SPDX-License-Identifier: Apache-2.0
#include "management/trace_api.h"

#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <charconv>
#include <map>

#include "management/management_json.h"

namespace dromedary {

namespace {

using nlohmann::json;

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hexDigit(text[i + 1]) >= 0 &&
        hexDigit(text[i + 2]) >= 0) {
      out += static_cast<char>(hexDigit(text[i + 1]) * 16 + hexDigit(text[i + 2]));
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

std::map<std::string, std::string, std::less<>> queryOf(std::string_view target) {
  std::map<std::string, std::string, std::less<>> out;
  size_t q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    size_t eq = pair.find('=');
    out[decoded(pair.substr(0, eq))] =
        eq == std::string_view::npos ? std::string() : decoded(pair.substr(eq + 1));
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
  }
  return out;
}

std::string_view kindName(TraceEvent::Kind kind) {
  switch (kind) {
    case TraceEvent::Kind::RouteIn:
      return "routeIn";
    case TraceEvent::Kind::RouteOut:
      return "routeOut";
    case TraceEvent::Kind::Node:
      break;
  }
  return "node";
}

json pairs(const std::vector<std::pair<std::string, std::string>>& list) {
  json out = json::object();
  for (const auto& [k, v] : list) out[k] = v;
  return out;
}

json eventJson(const TraceEvent& e) {
  json j{{"uid", e.uid},
         {"kind", kindName(e.kind)},
         {"first", e.first},
         {"timestamp", e.timestampMillis},
         {"elapsedMillis", e.elapsedMillis},
         {"exchangeId", e.exchangeId},
         {"routeId", e.routeId},
         {"nodeId", e.nodeId},
         {"label", e.label},
         {"headers", pairs(e.headers)},
         {"properties", pairs(e.properties)},
         {"bodyType", e.bodyType},
         {"body", e.body},
         {"failed", e.failed}};
  if (!e.location.empty()) j["location"] = e.location;
  if (!e.exception.empty()) j["exception"] = e.exception;
  return j;
}

// A whole number in `query[key]`, or `fallback` when absent; nullopt when not a number.
std::optional<uint64_t> number(const std::map<std::string, std::string, std::less<>>& query,
                               std::string_view key, uint64_t fallback) {
  auto it = query.find(key);
  if (it == query.end()) return fallback;
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
  if (ec != std::errc() || end != it->second.data() + it->second.size()) return std::nullopt;
  return n;
}

ManagementResponse events(Context& context, const ManagementRequest& request) {
  auto query = queryOf(request.target);
  for (const auto& [key, value] : query) {
    if (key != "route" && key != "after" && key != "limit") {
      return managementError(400,
                     fmt::format("unknown parameter '{}'; expected route, after or limit", key));
    }
  }
  TraceQuery q;
  if (auto it = query.find("route"); it != query.end()) q.routeId = it->second;
  auto after = number(query, "after", 0);
  auto limit = number(query, "limit", 0);
  if (!after || !limit) return managementError(400, "after and limit must be whole numbers");
  q.afterUid = *after;
  q.limit = static_cast<size_t>(*limit);
  json list = json::array();
  for (const TraceEvent& e : context.traceEvents(q)) list.push_back(eventJson(e));
  auto [logging, backlog] = context.tracingEnabled();
  return managementJson(200, json{{"logging", logging}, {"backlog", backlog}, {"events", list}});
}

}  // namespace

ManagementResponse traceRequest(Context& context, const ManagementRequest& request,
                                std::string_view path, const std::string& refusal) {
  const bool get = request.method == "GET" || request.method == "HEAD";
  if (path == "/api/trace") {
    if (!get)
      return managementError(405, fmt::format("{} {} is not supported; use GET", request.method, path));
    return events(context, request);
  }
  const bool enable = path == "/api/trace/enable";
  if (!enable && path != "/api/trace/disable") {
    return managementError(404, fmt::format("no such path '{}'; see /api/trace, /api/trace/enable, "
                                    "/api/trace/disable",
                                    path));
  }
  if (request.method != "POST") {
    return managementError(405, fmt::format("{} {} is not supported; use POST", request.method, path));
  }
  if (!refusal.empty()) return managementError(request.authorization.empty() ? 401 : 403, refusal);
  auto query = queryOf(request.target);
  std::string tracer = query.contains("tracer") ? query["tracer"] : "backlog";
  if (tracer != "backlog" && tracer != "log") {
    return managementError(400, fmt::format("tracer must be backlog or log, not '{}'", tracer));
  }
  auto [logging, backlog] = context.tracingEnabled();
  (tracer == "log" ? logging : backlog) = enable;
  context.setTracingEnabled(logging, backlog);
  auto now = context.tracingEnabled();
  return managementJson(200, json{{"logging", now.first}, {"backlog", now.second}});
}

}  // namespace dromedary
