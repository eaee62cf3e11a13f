// SPDX-License-Identifier: Apache-2.0
#include "get_command.h"

#include "management_client.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

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

int runGet(const GetOptions& options) {
  Url url;
  if (!parseUrl(options.url, url)) {
    std::fprintf(stderr, "dromedary: --url must be http://HOST:PORT, not '%s'\n",
                 options.url.c_str());
    return 2;
  }
  // The cluster: the routes whose consumer is a master: consumer, with their leadership.
  const bool cluster = options.what == "cluster";
  const std::string path = options.what == "context" ? "/api/context"
                           : cluster                 ? "/api/routes"
                                                     : "/api/" + options.what;
  int status = 0;
  std::string body, error;
  if (!fetch(url, path, status, body, error)) {
    std::fprintf(stderr, "dromedary: cannot reach %s: %s (is `dromedary run --management-port` "
                         "running there?)\n",
                 options.url.c_str(), error.c_str());
    return 1;
  }
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) {
    std::fprintf(stderr, "dromedary: %s%s answered %d with something that is not JSON\n",
                 options.url.c_str(), path.c_str(), status);
    return 1;
  }
  if (status >= 400 && options.what != "health") {
    std::fprintf(stderr, "dromedary: %s%s: %d %s\n", options.url.c_str(), path.c_str(), status,
                 doc.value("error", std::string()).c_str());
    return 1;
  }
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

}  // namespace dromedary::cli
