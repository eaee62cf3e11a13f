// SPDX-License-Identifier: Apache-2.0
#include "get_command.h"

#include "management_client.h"
#include "stop_signals.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <vector>

namespace dromedary::cli {

namespace {

using nlohmann::json;

std::string millis(const json& v) { return fmt::format("{:.3f}", v.get<double>()); }

std::string age(double ms) {
  auto s = static_cast<int64_t>(ms / 1000);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{}s", s / 60, s % 60);
  return fmt::format("{}h{}m", s / 3600, (s % 3600) / 60);
}

}  // namespace

namespace {

// In flight now: each route with exchanges in it, and the steps they wait in (suspended: a
// delay, a request-reply). Exchanges are counted, not listed: nothing per exchange is kept.
int printInflight(const Url& url, const GetOptions& options) {
  json routes;
  if (!getJson(url, options.url, "/api/routes", false, routes)) return 1;
  std::vector<std::vector<std::string>> rows{{"ROUTE", "NODE", "PROCESSOR", "INFLIGHT"}};
  for (const json& summary : routes) {
    if (summary.value("exchangesInflight", uint64_t{0}) == 0) continue;
    const std::string id = summary.value("id", "");
    json route;
    if (!getJson(url, options.url, "/api/routes/" + id, false, route)) return 1;
    rows.push_back({id, "", route.value("from", ""),
                    std::to_string(route.value("exchangesInflight", uint64_t{0}))});
    for (const json& p : route["processors"]) {
      if (p.value("exchangesInflight", uint64_t{0}) == 0) continue;
      rows.push_back({"", p.value("id", ""), p.value("processor", ""),
                      std::to_string(p.value("exchangesInflight", uint64_t{0}))});
    }
  }
  printTable(rows);
  if (rows.size() == 1) std::printf("\nnothing in flight\n");
  return 0;
}

// Every circuit breaker, as Camel JBang's `get circuit-breaker` shows them: its state and the
// calls in its window.
int printCircuitBreakers(const Url& url, const GetOptions& options) {
  json routes;
  if (!getJson(url, options.url, "/api/routes", false, routes)) return 1;
  std::vector<std::vector<std::string>> rows{
      {"ROUTE", "ID", "STATE", "PENDING", "SUCCESS", "FAIL", "REJECT", "FAILURE(%)"}};
  for (const json& summary : routes) {
    const std::string id = summary.value("id", "");
    json route;
    if (!getJson(url, options.url, "/api/routes/" + id, false, route)) return 1;
    for (const json& p : route["processors"]) {
      if (!p.contains("details") || !p["details"].contains("circuitBreakerState")) continue;
      const json& d = p["details"];
      const std::string rate = d.value("failureRate", "-1");
      rows.push_back({id, p.value("id", ""), d.value("circuitBreakerState", ""),
                      d.value("bufferedCalls", "0"), d.value("successfulCalls", "0"),
                      d.value("failedCalls", "0"), d.value("notPermittedCalls", "0"),
                      rate == "-1" ? "" : rate});
    }
  }
  printTable(rows);
  if (rows.size() == 1) std::printf("\nno circuit breakers\n");
  return 0;
}

// One look at `options.what`: its exit code.
int printOnce(const Url& url, const GetOptions& options) {
  if (options.what == "inflight") return printInflight(url, options);
  if (options.what == "circuit-breaker") return printCircuitBreakers(url, options);
  // The cluster: the routes whose consumer is a master: consumer, with their leadership.
  const bool cluster = options.what == "cluster";
  const std::string path = options.what == "context" ? "/api/context"
                           : cluster                 ? "/api/routes"
                                                     : "/api/" + options.what;
  json doc;
  if (!getJson(url, options.url, path, options.what == "health", doc)) return 1;
  std::vector<std::vector<std::string>> rows;
  if (options.what == "routes") {
    rows.push_back({"ID", "FROM", "STATE", "AGE", "TOTAL", "FAILED", "INFLIGHT", "MEAN(ms)",
                    "MAX(ms)", "P99(ms)"});
    for (const json& r : doc) {
      rows.push_back({r["id"], r["from"], r["state"], age(r["uptimeMillis"].get<double>()),
                      std::to_string(r["exchangesTotal"].get<uint64_t>()),
                      std::to_string(r["exchangesFailed"].get<uint64_t>()),
                      std::to_string(r["exchangesInflight"].get<uint64_t>()),
                      millis(r["processingTime"]["meanMillis"]),
                      millis(r["processingTime"]["maxMillis"]), millis(r["latencyMillis"]["p99"])});
    }
  } else if (cluster) {
    rows.push_back({"ROUTE", "NAMESPACE", "ROLE", "MEMBER", "LEADER", "TERM", "SINCE"});
    for (const json& r : doc) {
      if (!r.contains("consumer") || !r["consumer"].contains("namespace")) continue;
      const json& c = r["consumer"];
      rows.push_back({r["id"], c["namespace"], c.value("role", ""), c.value("member", ""),
                      c.value("leader", ""), c.value("term", ""), c.value("since", "")});
    }
  } else if (options.what == "endpoints") {
    rows.push_back({"URI"});
    for (const json& e : doc) rows.push_back({e["uri"]});
  } else if (options.what == "health") {
    rows.push_back({"CHECK", "STATUS", "DETAIL"});
    for (const json& c : doc["checks"]) {
      rows.push_back({c["check"], c["status"], c.value("reason", c.value("state", ""))});
    }
    printTable(rows);
    std::printf("\n%s\n", doc["status"].get<std::string>().c_str());
    return doc["status"] == "UP" ? 0 : 1;
  } else {
    rows.push_back({"NAME", "VERSION", "STATE", "AGE", "ROUTES", "TOTAL", "FAILED", "INFLIGHT"});
    rows.push_back({doc["name"], doc["version"], doc["state"],
                    age(doc["uptimeMillis"].get<double>()),
                    std::to_string(doc["routes"].get<uint64_t>()),
                    std::to_string(doc["exchangesTotal"].get<uint64_t>()),
                    std::to_string(doc["exchangesFailed"].get<uint64_t>()),
                    std::to_string(doc["exchangesInflight"].get<uint64_t>())});
  }
  printTable(rows);
  return 0;
}

}  // namespace

int runGet(const GetOptions& options) {
  Url url;
  if (!parseUrlOrSay(options.url, url)) return 2;
  if (!options.watch) return printOnce(url, options);
  // --watch: again every interval until a stop signal (exit 0) or an error.
  const bool clear = isatty(STDOUT_FILENO) != 0;
  stopSignalsServing();
  do {
    if (clear) std::printf("\x1b[H\x1b[2J");
    int code = printOnce(url, options);
    std::fflush(stdout);
    if (code == 1 && options.what != "health") return code;
  } while (waitForStopSignal(std::chrono::milliseconds(
               static_cast<int64_t>(options.interval * 1000))) == 0);
  return 0;
}

}  // namespace dromedary::cli
