// SPDX-License-Identifier: Apache-2.0
// The Prometheus text exposition format (version 0.0.4): one family per metric, HELP and
// TYPE once, label values escaped, histogram buckets cumulative and ending with +Inf.
#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/management/management_server.h>

#include "core/text.h"

namespace dromedary {

namespace {

// A label value: escaped as the format says, and UTF-8 as it requires (a malformed byte, from
// a name no load checked, becomes U+FFFD rather than text promtool rejects).
std::string escape(std::string_view v) {
  std::string out;
  while (!v.empty()) {
    size_t n = utf8SequenceLength(v);
    char c = v.front();
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      n = 1;
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.append(v.substr(0, n));
    }
    v.remove_prefix(n);
  }
  return out;
}

class Writer {
 public:
  explicit Writer(std::string context) : context_(std::move(context)) {}

  void family(std::string_view name, std::string_view type, std::string_view help) {
    out_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }
  // A sample with the context label and `labels` (already formatted `k="v",...`).
  void sample(std::string_view name, std::string_view labels, double value) {
    out_ += fmt::format("{}{{context=\"{}\"{}{}}} {}\n", name, context_, labels.empty() ? "" : ",",
                        labels, value);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string context_;
  std::string out_;
};

}  // namespace

std::string prometheusMetrics(Context& context) {
  Writer w(escape(context.name()));
  std::vector<RouteStats> routes;
  for (const std::string& id : context.routeIds()) routes.push_back(*context.routeStatistics(id));
  auto route_label = [](const RouteStats& r) { return fmt::format("route_id=\"{}\"", escape(r.id)); };

  w.family("dromedary_context_uptime_seconds", "gauge", "Seconds since the context started.");
  w.sample("dromedary_context_uptime_seconds", "",
           static_cast<double>(context.uptimeMillis()) / 1000.0);
  // The context's counts: its routes' summed (an exchange counts in every route it passes).
  const ContextStats totals = sumRouteStatistics(routes);
  const std::pair<const char*, uint64_t> context_counts[] = {
      {"dromedary_context_exchanges_total", totals.exchangesTotal},
      {"dromedary_context_exchanges_completed_total", totals.exchangesCompleted},
      {"dromedary_context_exchanges_failed_total", totals.exchangesFailed},
      {"dromedary_context_failures_handled_total", totals.failuresHandled},
      {"dromedary_context_redeliveries_total", totals.redeliveries},
      {"dromedary_context_external_redeliveries_total", totals.externalRedeliveries},
  };
  for (const auto& [name, value] : context_counts) {
    w.family(name, "counter", "Summed over the context's routes.");
    w.sample(name, "", static_cast<double>(value));
  }
  w.family("dromedary_context_exchanges_inflight", "gauge", "Exchanges in the routes now.");
  w.sample("dromedary_context_exchanges_inflight", "",
           static_cast<double>(totals.exchangesInflight));

  struct Counter {
    const char* name;
    const char* type;
    const char* help;
    double (*value)(const RouteStats&);
  };
  const Counter counters[] = {
      {"dromedary_route_exchanges_total", "counter", "Exchanges that entered the route.",
       [](const RouteStats& r) { return static_cast<double>(r.exchangesTotal); }},
      {"dromedary_route_exchanges_completed_total", "counter", "Exchanges that completed.",
       [](const RouteStats& r) { return static_cast<double>(r.exchangesCompleted); }},
      {"dromedary_route_exchanges_failed_total", "counter", "Exchanges that failed.",
       [](const RouteStats& r) { return static_cast<double>(r.exchangesFailed); }},
      {"dromedary_route_exchanges_inflight", "gauge", "Exchanges in the route now.",
       [](const RouteStats& r) { return static_cast<double>(r.exchangesInflight); }},
      {"dromedary_route_failures_handled_total", "counter",
       "Failures handled by onException or a dead letter channel.",
       [](const RouteStats& r) { return static_cast<double>(r.failuresHandled); }},
      {"dromedary_route_redeliveries_total", "counter", "Redelivery attempts.",
       [](const RouteStats& r) { return static_cast<double>(r.redeliveries); }},
      {"dromedary_route_external_redeliveries_total", "counter",
       "Exchanges whose message a broker delivered again.",
       [](const RouteStats& r) { return static_cast<double>(r.externalRedeliveries); }},
      {"dromedary_route_up", "gauge", "1 when the route is started.",
       [](const RouteStats& r) { return r.state == "Started" ? 1.0 : 0.0; }},
  };
  for (const Counter& c : counters) {
    w.family(c.name, c.type, c.help);
    for (const RouteStats& r : routes) w.sample(c.name, route_label(r), c.value(r));
  }

  // Route latency: a histogram of the timed exchanges.
  const char* hist = "dromedary_route_processing_seconds";
  w.family(hist, "histogram", "Route processing time of the timed exchanges.");
  for (const RouteStats& r : routes) {
    std::string labels = route_label(r);
    uint64_t count = 0;
    for (const auto& [limit_ns, cumulative] : r.latencyBuckets) {
      w.sample(fmt::format("{}_bucket", hist),
               fmt::format("{},le=\"{}\"", labels, static_cast<double>(limit_ns) / 1e9),
               static_cast<double>(cumulative));
      count = cumulative;
    }
    w.sample(fmt::format("{}_bucket", hist), fmt::format("{},le=\"+Inf\"", labels),
             static_cast<double>(count));
    w.sample(fmt::format("{}_sum", hist), labels,
             r.timing.meanMillis * static_cast<double>(r.timing.timed) / 1000.0);
    w.sample(fmt::format("{}_count", hist), labels, static_cast<double>(count));
  }

  // Processors.
  struct ProcessorMetric {
    const char* name;
    const char* type;
    const char* help;
    double (*value)(const ProcessorStats&);
  };
  const ProcessorMetric processor_metrics[] = {
      {"dromedary_processor_exchanges_total", "counter", "Exchanges the processor ran on.",
       [](const ProcessorStats& p) { return static_cast<double>(p.exchangesTotal); }},
      {"dromedary_processor_exchanges_failed_total", "counter", "Runs that failed.",
       [](const ProcessorStats& p) { return static_cast<double>(p.exchangesFailed); }},
      {"dromedary_processor_mean_seconds", "gauge", "Mean processing time of the timed runs.",
       [](const ProcessorStats& p) { return p.timing.meanMillis / 1000.0; }},
      {"dromedary_processor_max_seconds", "gauge", "Longest timed run.",
       [](const ProcessorStats& p) { return p.timing.maxMillis / 1000.0; }},
  };
  for (const ProcessorMetric& m : processor_metrics) {
    w.family(m.name, m.type, m.help);
    for (const RouteStats& r : routes) {
      for (const ProcessorStats& p : r.processors) {
        w.sample(m.name, fmt::format("{},node_id=\"{}\"", route_label(r), escape(p.id)),
                 m.value(p));
      }
    }
  }
  return w.take();
}

}  // namespace dromedary
