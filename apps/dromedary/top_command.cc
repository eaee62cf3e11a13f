// SPDX-License-Identifier: Apache-2.0
#include "top_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "management_client.h"
#include "stop_signals.h"

namespace dromedary::cli {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// One row: a route (node empty) or one of its processors.
struct Row {
  std::string route;
  std::string node;
  std::string what;
  uint64_t total = 0;
  uint64_t failed = 0;
  uint64_t inflight = 0;
  double mean = 0;
  double max = 0;
  double last = 0;
  double rate = 0;  // exchanges a second since the last refresh
};

Row rowOf(const json& j, std::string route, std::string node, std::string what) {
  Row r;
  r.route = std::move(route);
  r.node = std::move(node);
  r.what = std::move(what);
  r.total = j.value("exchangesTotal", uint64_t{0});
  r.failed = j.value("exchangesFailed", uint64_t{0});
  r.inflight = j.value("exchangesInflight", uint64_t{0});
  const json& t = j["processingTime"];
  r.mean = t.value("meanMillis", 0.0);
  r.max = t.value("maxMillis", 0.0);
  r.last = t.value("lastMillis", 0.0);
  return r;
}

// Every route and processor now; false when the instance could not be asked.
bool sample(const Url& url, const TopOptions& options, std::vector<Row>& rows) {
  json routes;
  if (!getJson(url, options.url, "/api/routes", false, routes)) return false;
  for (const json& summary : routes) {
    const std::string id = summary.value("id", "");
    json route;
    if (!getJson(url, options.url, "/api/routes/" + id, false, route)) return false;
    rows.push_back(rowOf(route, id, "", route.value("from", "")));
    for (const json& p : route["processors"]) {
      rows.push_back(rowOf(p, id, p.value("id", ""),
                           std::string(2 * p.value("depth", 0), ' ') + p.value("processor", "")));
    }
  }
  return true;
}

std::string ms(double v) { return fmt::format("{:.3f}", v); }

void show(std::vector<Row> rows, const TopOptions& options, bool clear) {
  auto key = [&](const Row& r) {
    if (options.sort == "max") return r.max;
    if (options.sort == "total") return static_cast<double>(r.total);
    if (options.sort == "rate") return r.rate;
    return r.mean;
  };
  // Routes by the key, each followed by its processors by the key.
  std::map<std::string, double> route_key;
  for (const Row& r : rows) {
    if (r.node.empty()) route_key[r.route] = key(r);
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (a.route != b.route) {
      return route_key[a.route] != route_key[b.route] ? route_key[a.route] > route_key[b.route]
                                                      : a.route < b.route;
    }
    if (a.node.empty() != b.node.empty()) return a.node.empty();
    return key(a) > key(b);
  });
  std::vector<std::vector<std::string>> table{{"ROUTE", "NODE", "PROCESSOR", "TOTAL", "FAILED",
                                               "INFLIGHT", "RATE/s", "MEAN(ms)", "MAX(ms)",
                                               "LAST(ms)"}};
  for (const Row& r : rows) {
    table.push_back({r.node.empty() ? r.route : "", r.node, r.what, std::to_string(r.total),
                     std::to_string(r.failed), std::to_string(r.inflight),
                     fmt::format("{:.1f}", r.rate), ms(r.mean), ms(r.max), ms(r.last)});
  }
  if (clear) std::printf("\x1b[H\x1b[2J");
  std::printf("dromedary top  %s  sorted by %s\n\n", options.url.c_str(), options.sort.c_str());
  printTable(table);
  std::fflush(stdout);
}

}  // namespace

int runTop(const TopOptions& options) {
  Url url;
  if (!parseUrlOrSay(options.url, url)) return 2;
  const bool clear = isatty(STDOUT_FILENO) != 0;
  const auto pause = std::chrono::milliseconds(static_cast<int64_t>(options.interval * 1000));
  std::map<std::pair<std::string, std::string>, uint64_t> before;
  Clock::time_point then = Clock::now();
  stopSignalsServing();  // a signal ends it as a normal exit
  for (int n = 0; options.iterations == 0 || n < options.iterations; ++n) {
    std::vector<Row> rows;
    if (!sample(url, options, rows)) return 1;
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - then).count();
    for (Row& r : rows) {
      auto it = before.find({r.route, r.node});
      if (it != before.end() && seconds > 0 && r.total >= it->second) {
        r.rate = static_cast<double>(r.total - it->second) / seconds;
      }
      before[{r.route, r.node}] = r.total;
    }
    then = now;
    show(std::move(rows), options, clear);
    if (options.iterations != 0 && n + 1 == options.iterations) break;
    if (waitForStopSignal(pause) != 0) break;
  }
  return 0;
}

}  // namespace dromedary::cli
