// SPDX-License-Identifier: Apache-2.0
// The management API: one request in, one JSON response out. No socket here (the server
// is management_server.cc), so every answer is testable directly and over HTTP.
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/management/management_server.h>
#include <dromedary/version.h>

#include "management/console_files.h"
#include "management/management_json.h"
#include "management/route_control.h"
#include "management/trace_api.h"

namespace dromedary {

namespace {

using nlohmann::json;

ManagementResponse jsonResponse(int status, const json& body) {
  return managementJson(status, body);
}

ManagementResponse error(int status, std::string_view message) {
  return managementError(status, message);
}

json timing(const TimingStats& t) {
  return json{{"timed", t.timed},          {"minMillis", t.minMillis},
              {"maxMillis", t.maxMillis},  {"meanMillis", t.meanMillis},
              {"lastMillis", t.lastMillis}};
}

// The counts, times and stamps a route and the context both have.
void putCounts(json& j, const ExchangeStats& s) {
  j["exchangesTotal"] = s.exchangesTotal;
  j["exchangesCompleted"] = s.exchangesCompleted;
  j["exchangesFailed"] = s.exchangesFailed;
  j["exchangesInflight"] = s.exchangesInflight;
  j["failuresHandled"] = s.failuresHandled;
  j["redeliveries"] = s.redeliveries;
  j["externalRedeliveries"] = s.externalRedeliveries;
  j["processingTime"] = timing(s.timing);
  j["firstExchangeCompletedMillis"] = s.firstCompletedMillis;
  j["lastExchangeCompletedMillis"] = s.lastCompletedMillis;
  j["firstExchangeFailedMillis"] = s.firstFailedMillis;
  j["lastExchangeFailedMillis"] = s.lastFailedMillis;
}

json routeJson(Context& context, const RouteStats& s, bool with_processors) {
  json r{{"id", s.id},
         {"from", s.from},
         {"state", s.state},
         {"uptimeMillis", s.uptimeMillis},
         {"latencyMillis", {{"p50", s.p50Millis}, {"p99", s.p99Millis}, {"p999", s.p999Millis}}},
         {"lastExchangeMillis", s.lastExchangeMillis}};
  putCounts(r, s);
  // What the consumer shows about itself (a master: consumer's role, leader and term).
  auto details = context.routeConsumerDetails(s.id);
  if (!details.empty()) {
    json consumer = json::object();
    for (auto& [name, value] : details) consumer[name] = std::move(value);
    r["consumer"] = std::move(consumer);
  }
  if (with_processors) {
    json processors = json::array();
    for (const ProcessorStats& p : s.processors) {
      processors.push_back(json{{"id", p.id},
                                {"processor", p.description},
                                {"depth", p.depth},
                                {"parent", p.parent},
                                {"branch", p.branch},
                                {"branchLabel", p.branchLabel},
                                {"clause", p.clause},
                                {"exchangesTotal", p.exchangesTotal},
                                {"exchangesCompleted", p.exchangesCompleted},
                                {"exchangesFailed", p.exchangesFailed},
                                {"exchangesInflight", p.exchangesInflight},
                                {"redeliveries", p.redeliveries},
                                {"externalRedeliveries", p.externalRedeliveries},
                                {"processingTime", timing(p.timing)},
                                {"firstExchangeCompletedMillis", p.firstCompletedMillis},
                                {"lastExchangeCompletedMillis", p.lastCompletedMillis},
                                {"firstExchangeFailedMillis", p.firstFailedMillis},
                                {"lastExchangeFailedMillis", p.lastFailedMillis}});
      if (!p.details.empty()) {
        json details = json::object();
        for (const auto& [name, value] : p.details) details[name] = value;
        processors.back()["details"] = std::move(details);
      }
    }
    r["processors"] = std::move(processors);
  }
  return r;
}

json recordedJson(const RecordedExchange& e) {
  json j{{"exchangeId", e.exchangeId},     {"createdMillis", e.createdMillis},
         {"endMillis", e.endMillis},       {"elapsedMillis", e.elapsedMillis},
         {"failed", e.failed},             {"bodyType", e.bodyType},
         {"body", e.body},                 {"headers", e.headers}};
  if (e.failed) {
    j["nodeId"] = e.nodeId;
    j["error"] = e.error;
  }
  return j;
}

// A route's flight recorder: {"completed": [...], "failed": [...]}, oldest first.
json recentJson(const RecentExchanges& recent) {
  json completed = json::array(), failed = json::array();
  for (const RecordedExchange& e : recent.completed) completed.push_back(recordedJson(e));
  for (const RecordedExchange& e : recent.failed) failed.push_back(recordedJson(e));
  return json{{"completed", completed}, {"failed", failed}};
}

std::string_view levelName(StatisticsLevel level) {
  switch (level) {
    case StatisticsLevel::Off: return "Off";
    case StatisticsLevel::RoutesOnly: return "RoutesOnly";
    default: return "Default";
  }
}

bool isLoopback(std::string_view host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.starts_with("127.");
}

// Does `sent` equal `secret`? In time that depends on the secret's length only, so that how
// long a wrong guess takes tells nothing about how much of it was right.
bool sameSecret(std::string_view sent, std::string_view secret) noexcept {
  unsigned char differ = sent.size() == secret.size() ? 0 : 1;
  for (size_t i = 0; i < secret.size(); ++i) {
    unsigned char c = i < sent.size() ? static_cast<unsigned char>(sent[i]) : 0;
    differ |= static_cast<unsigned char>(c ^ static_cast<unsigned char>(secret[i]));
  }
  return differ == 0;
}

// Why a control request may not run, or empty when it may.
std::string refusal(const ManagementOptions& options, const ManagementRequest& request) {
  if (!options.token.empty()) {
    constexpr std::string_view kBearer = "Bearer ";
    std::string_view sent = request.authorization;
    if (sent.starts_with(kBearer) && sameSecret(sent.substr(kBearer.size()), options.token)) {
      return {};
    }
    return request.authorization.empty() ? "this request needs 'Authorization: Bearer <token>'"
                                         : "the token is not valid";
  }
  if (options.allowLoopbackControl && isLoopback(options.host)) return {};
  return "route control is disabled: configure a token (--management-token), or allow it on "
         "loopback (--management-allow-loopback-control)";
}

ManagementResponse control(Context& context, const ManagementOptions& options,
                           const ManagementRequest& request, const std::string& id,
                           std::string_view action, RouteControl* background) {
  if (std::string why = refusal(options, request); !why.empty()) {
    return error(options.token.empty() || request.authorization.empty() ? 401 : 403, why);
  }
  if (!context.routeStatistics(id)) return error(404, fmt::format("no route '{}'", id));
  Result<void> done;
  if (action == "start") {
    done = context.startRoute(id);
  } else if ((action == "stop" || action == "suspend") && background) {
    // Waiting for in-flight exchanges may take up to the shutdown timeout: on a thread of its
    // own, answered 202 with the state it is in when it takes longer than a moment.
    auto finished = background->run(id, std::string(action), std::chrono::milliseconds(500));
    if (!finished) {
      return jsonResponse(202, json{{"route", id},
                                    {"action", action},
                                    {"state", context.routeStatistics(id)->state},
                                    {"inflight", context.inflight(id)}});
    }
    done = *finished;
  } else if (action == "stop") {
    auto r = context.stopRoute(id);
    if (!r) done = r.error();
  } else if (action == "suspend") {
    auto r = context.suspendRoute(id);
    if (!r) done = r.error();
  } else if (action == "resume") {
    done = context.resumeRoute(id);
  } else {
    done = context.resetStatistics(id);
  }
  if (!done) return error(409, done.error().message);
  return jsonResponse(200, json{{"route", id}, {"action", action},
                                {"state", context.routeStatistics(id)->state}});
}

ManagementResponse health(Context& context) {
  json checks = json::array();
  bool up = context.isStarted();
  if (!up) checks.push_back(json{{"check", "context"}, {"status", "DOWN"}, {"reason", "not started"}});
  for (const std::string& id : context.routeIds()) {
    RouteStats s = *context.routeStatistics(id);
    bool route_up = s.state == "Started" || !context.routeAutoStartup(id);
    up = up && route_up;
    json c{{"check", "route:" + id}, {"status", route_up ? "UP" : "DOWN"}, {"state", s.state}};
    if (!route_up) c["reason"] = "an auto-started route is " + s.state;
    checks.push_back(std::move(c));
    // As Camel's consumer health checks: a started route whose consumer cannot take
    // messages (its broker is away) is down too.
    if (s.state == "Started") {
      std::string problem = context.routeConsumerProblem(id);
      up = up && problem.empty();
      json consumer{{"check", "consumer:" + id}, {"status", problem.empty() ? "UP" : "DOWN"}};
      if (!problem.empty()) consumer["reason"] = std::move(problem);
      checks.push_back(std::move(consumer));
    }
  }
  return jsonResponse(up ? 200 : 503, json{{"status", up ? "UP" : "DOWN"}, {"checks", checks}});
}

}  // namespace

ManagementResponse managementJson(int status, const json& body) {
  return ManagementResponse{status, "application/json", managementJsonText(body)};
}

ManagementResponse managementError(int status, std::string_view message) {
  return ManagementResponse{status, "application/json", managementErrorBody(status, message)};
}

ManagementResponse handleManagementRequest(Context& context, const ManagementOptions& options,
                                           const ManagementRequest& request) {
  return handleManagementRequest(context, options, request, nullptr);
}

ManagementResponse handleManagementRequest(Context& context, const ManagementOptions& options,
                                           const ManagementRequest& request,
                                           RouteControl* background) {
  std::string path = request.target.substr(0, request.target.find('?'));
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const bool get = request.method == "GET" || request.method == "HEAD";
  auto only = [&](std::string_view method) {
    return error(405, fmt::format("{} {} is not supported; use {}", request.method, path, method));
  };
  try {
    if (path == "/console" || path.starts_with("/console/")) {
      for (const ConsoleFile& f : consoleFiles()) {
        if (f.path != path) continue;
        if (!get) return only("GET");
        return ManagementResponse{200, std::string(f.contentType), std::string(f.body)};
      }
      return error(404, fmt::format("no such path '{}'; the console is at /console", path));
    }
    if (path == "/metrics") {
      if (!get) return only("GET");
      return ManagementResponse{200, "text/plain; version=0.0.4; charset=utf-8",
                                prometheusMetrics(context)};
    }
    if (path == "/api/context") {
      if (!get) return only("GET");
      json c{{"name", context.name()},
             {"version", kVersion},
             {"state", context.isStarted() ? "Started" : "Stopped"},
             {"uptimeMillis", context.uptimeMillis()},
             {"statisticsLevel", levelName(context.statisticsLevel())},
             {"routes", context.routeCount()}};
      putCounts(c, context.contextStatistics());
      return jsonResponse(200, c);
    }
    if (path == "/api/routes") {
      if (!get) return only("GET");
      json routes = json::array();
      for (const std::string& id : context.routeIds()) {
        routes.push_back(routeJson(context, *context.routeStatistics(id), false));
      }
      return jsonResponse(200, routes);
    }
    if (path == "/api/endpoints") {
      if (!get) return only("GET");
      json endpoints = json::array();
      for (const std::string& uri : context.endpointUris()) endpoints.push_back(json{{"uri", uri}});
      return jsonResponse(200, endpoints);
    }
    if (path == "/api/health" || path == "/q/health" || path == "/q/health/ready") {
      if (!get) return only("GET");
      return health(context);  // readiness: a route or consumer down fails it, with why
    }
    if (path == "/q/health/live") {
      if (!get) return only("GET");
      // Liveness: the process answers. A route that is down is readiness's business: a
      // restart would not mend a broker that is away.
      return jsonResponse(200, json{{"status", "UP"},
                                    {"checks", json::array({json{{"check", "process"},
                                                                 {"status", "UP"}}})}});
    }
    if (path == "/api/trace" || path.starts_with("/api/trace/")) {
      return traceRequest(context, request, path, refusal(options, request));
    }
    constexpr std::string_view kRoutes = "/api/routes/";
    if (path.starts_with(kRoutes)) {
      std::string rest = path.substr(kRoutes.size());
      size_t slash = rest.find('/');
      std::string id = rest.substr(0, slash);
      if (slash == std::string::npos) {
        if (!get) return only("GET");
        auto s = context.routeStatistics(id);
        if (!s) return error(404, fmt::format("no route '{}'", id));
        return jsonResponse(200, routeJson(context, *s, true));
      }
      std::string action = rest.substr(slash + 1);
      if (action == "recent") {
        if (!get) return only("GET");
        auto recent = context.recentExchanges(id);
        if (!recent) return error(404, fmt::format("no route '{}'", id));
        return jsonResponse(200, recentJson(*recent));
      }
      for (std::string_view a : {"start", "stop", "suspend", "resume", "reset-stats"}) {
        if (action != a) continue;
        if (request.method != "POST") return only("POST");
        return control(context, options, request, id, action, background);
      }
      return error(404, fmt::format("no action '{}' on routes; expected recent, start, stop, "
                                    "suspend, resume or reset-stats",
                                    action));
    }
    return error(404, fmt::format("no such path '{}'; see /api/context, /api/routes, "
                                  "/api/endpoints, /api/health, /api/trace, /q/health/ready, "
                                  "/q/health/live, /metrics, /console",
                                  path));
  } catch (const std::exception& e) {
    return error(500, e.what());
  }
}

}  // namespace dromedary
