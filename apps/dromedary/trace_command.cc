// SPDX-License-Identifier: Apache-2.0
#include "trace_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "management_client.h"
#include "stop_signals.h"

namespace dromedary::cli {

namespace {

using nlohmann::json;

std::string clock(int64_t epoch_ms) {
  std::time_t secs = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  return fmt::format("{:02}:{:02}:{:02}.{:03}", tm.tm_hour, tm.tm_min, tm.tm_sec, epoch_ms % 1000);
}

std::string arrowOf(const json& e) {
  const std::string kind = e.value("kind", "");
  const bool first = e.value("first", false);
  if (kind == "routeIn") return first ? "*-->" : "--->";
  if (kind == "routeOut") return first ? "*<--" : "<---";
  return "    ";
}

std::string headersOf(const json& e) {
  std::string out;
  for (const auto& [k, v] : e["headers"].items()) {
    if (!out.empty()) out += ", ";
    out += k + "=" + v.get<std::string>();
  }
  return "{" + out + "}";
}

// One event as a line: time, arrow, route/node, label, where, elapsed, the message.
void print(const json& e) {
  std::string where = e.contains("location") ? " (" + e["location"].get<std::string>() + ")" : "";
  std::string line = fmt::format(
      "{} {} [{}/{}] [{}]{} +{}ms Exchange[Id: {}, Headers: {}, BodyType: {}, Body: {}]",
      clock(e.value("timestamp", int64_t{0})), arrowOf(e), e.value("routeId", ""),
      e.value("nodeId", ""), e.value("label", ""), where, e.value("elapsedMillis", int64_t{0}),
      e.value("exchangeId", ""), headersOf(e), e.value("bodyType", ""), e.value("body", ""));
  if (e.value("failed", false)) {
    line += " FAILED";
    if (e.contains("exception")) line += ": " + e["exception"].get<std::string>();
  }
  std::printf("%s\n", line.c_str());
}

// Asks for the events after `after`; prints them and moves `after` on. False on an error.
bool poll(const Url& url, const TraceOptions& options, uint64_t& after, bool& warned) {
  std::string path = fmt::format("/api/trace?after={}", after);
  if (!options.route.empty()) path += "&route=" + options.route;
  json doc;
  if (!getJson(url, options.url, path, false, doc)) return false;
  if (!doc.value("backlog", false) && !warned) {
    std::fprintf(stderr,
                 "dromedary: the backlog tracer is off there: set "
                 "camel.trace.enabled=true (or camel.trace.standby=true, then POST "
                 "/api/trace/enable)\n");
    warned = true;
  }
  for (const json& e : doc["events"]) {
    print(e);
    after = std::max(after, e.value("uid", uint64_t{0}));
  }
  std::fflush(stdout);
  return true;
}

// One recorded exchange as a line.
void printRecorded(const std::string& route, const json& e) {
  const std::string id = e.value("exchangeId", "");
  std::string line = fmt::format("{} {} [{}] {} +{:.3f}ms", clock(e.value("endMillis", int64_t{0})),
                                 e.value("failed", false) ? "FAILED" : "ok    ", route,
                                 id.empty() ? "-" : id, e.value("elapsedMillis", 0.0));
  if (e.value("failed", false)) {
    line += fmt::format(" at {}: {}", e.value("nodeId", ""), e.value("error", ""));
  }
  line += fmt::format(" Headers: {{{}}} BodyType: {} Body: {}", e.value("headers", ""),
                      e.value("bodyType", ""), e.value("body", ""));
  std::printf("%s\n", line.c_str());
}

// The flight recorder of one route or of all: completed, then failed, oldest first.
int printLast(const Url& url, const TraceOptions& options) {
  std::vector<std::string> routes;
  if (options.route.empty()) {
    json list;
    if (!getJson(url, options.url, "/api/routes", false, list)) return 1;
    for (const json& r : list) routes.push_back(r.value("id", ""));
  } else {
    routes.push_back(options.route);
  }
  for (const std::string& route : routes) {
    json doc;
    if (!getJson(url, options.url, "/api/routes/" + route + "/recent", false, doc)) return 1;
    for (const char* kind : {"completed", "failed"}) {
      for (const json& e : doc[kind]) printRecorded(route, e);
    }
  }
  return 0;
}

}  // namespace

int runTrace(const TraceOptions& options) {
  Url url;
  if (!parseUrlOrSay(options.url, url)) return 2;
  if (options.last) return printLast(url, options);
  uint64_t after = 0;
  bool warned = false;
  if (!poll(url, options, after, warned)) return 1;
  if (!options.follow) return 0;
  // Following until a stop signal, which ends it as a normal exit.
  stopSignalsServing();
  while (waitForStopSignal(std::chrono::milliseconds(500)) == 0) {
    if (!poll(url, options, after, warned)) return 1;
  }
  return 0;
}

}  // namespace dromedary::cli
