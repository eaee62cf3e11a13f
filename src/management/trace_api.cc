// SPDX-License-Identifier: Apache-2.0
#include "management/trace_api.h"

#include <dromedary/core/uri.h>
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <charconv>
#include <map>

#include "management/management_json.h"

namespace dromedary {

namespace {

using nlohmann::json;

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

// The query of `target` read by the URI parser endpoints use (percent-decoding, `+`); a bad
// escape is an error naming it.
Result<Uri> queryOf(std::string_view target) {
  size_t q = target.find('?');
  return Uri::parse("api:trace" + std::string(q == std::string_view::npos ? "" : target.substr(q)));
}

ManagementResponse events(Context& context, const ManagementRequest& request) {
  auto parsed = queryOf(request.target);
  if (!parsed) return managementError(400, parsed.error().message);
  std::map<std::string, std::string, std::less<>> query;
  for (const auto& [name, value] : parsed->options()) query[name] = value;
  for (const auto& [key, value] : query) {
    if (key != "route" && key != "after" && key != "limit") {
      return managementError(
          400, fmt::format("unknown parameter '{}'; expected route, after or limit", key));
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
  auto parsed = queryOf(request.target);
  if (!parsed) return managementError(400, parsed.error().message);
  const std::string* given = parsed->option("tracer");
  std::string tracer = given ? *given : "backlog";
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
