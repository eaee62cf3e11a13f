// SPDX-License-Identifier: Apache-2.0
// The context's statistics as the API gives them: per route (with its processors), summed for
// the context, reset; and the statistics level and timing sample that decide what is counted.
#include <dromedary/engine/context.h>

#include <algorithm>

#include "engine/context_impl.h"
#include "engine/compiled_route.h"
#include "engine/statistics.h"

namespace dromedary {

using detail::Route;

void Context::setStatisticsLevel(StatisticsLevel level) noexcept {
  impl_->statisticsLevel.store(static_cast<uint8_t>(level), std::memory_order_relaxed);
}

StatisticsLevel Context::statisticsLevel() const noexcept {
  return static_cast<StatisticsLevel>(impl_->statisticsLevel.load(std::memory_order_relaxed));
}

void Context::setStatisticsTimingSample(uint32_t every) noexcept {
  impl_->timingSample.store(every, std::memory_order_relaxed);
}

namespace {

TimingStats timingOf(const detail::TimingTotals& t) {
  TimingStats s;
  s.timed = t.timed;
  if (t.timed == 0) return s;
  s.minMillis = static_cast<double>(t.minNanos) / 1e6;
  s.maxMillis = static_cast<double>(t.maxNanos) / 1e6;
  s.meanMillis = static_cast<double>(t.nanos) / static_cast<double>(t.timed) / 1e6;
  s.lastMillis = static_cast<double>(t.lastNanos) / 1e6;
  return s;
}


// Where a block sits, as ProcessorStats tells it.
struct Place {
  std::string parent;
  uint32_t branch = 0;
  std::string label;
  bool clause = false;
};

// The route's processors depth-first: a step, then the blocks it owns; then the clauses.
void listProcessors(const Route& route, const detail::Block& block, uint32_t depth,
                    const Place& place, std::vector<ProcessorStats>& out) {
  for (const Step* step : block.steps) {
    if (step->origin.known()) {
      ProcessorStats p;
      p.id = step->id();
      p.description = step->label();
      p.depth = depth;
      p.parent = place.parent;
      p.branch = place.branch;
      p.branchLabel = place.label;
      p.clause = place.clause;
      detail::TimingTotals t = route.statistics->stepTotals(step->statsIndex);
      detail::StepExtraTotals x = route.statistics->stepExtras(step->statsIndex);
      p.exchangesTotal = t.total;
      p.exchangesFailed = t.failed;
      p.exchangesInflight = x.inflight;
      // Read apart, the counts may disagree by a racing exchange: never below zero.
      p.exchangesCompleted = t.total > t.failed + x.inflight ? t.total - t.failed - x.inflight : 0;
      p.redeliveries = x.redeliveries;
      p.externalRedeliveries = x.externalRedeliveries;
      p.timing = timingOf(t);
      p.firstCompletedMillis = x.firstCompleted;
      p.lastCompletedMillis = x.lastCompleted;
      p.firstFailedMillis = x.firstFailed;
      p.lastFailedMillis = x.lastFailed;
      step->describeState(p.details);
      out.push_back(std::move(p));
    }
    uint32_t branch = 0;
    for (const auto& child : route.blocks) {
      if (child->parent != step) continue;
      Place inner{std::string(step->id()), branch, std::string(route.branchLabel(*step, branch)),
                  place.clause};
      listProcessors(route, *child, depth + 1, inner, out);
      ++branch;
    }
  }
}

}  // namespace

std::optional<RouteStats> Context::routeStatistics(std::string_view route_id) const {
  const Route* r = impl_->findRoute(route_id);
  if (!r) return std::nullopt;
  RouteStats s;
  s.id = r->id;
  s.from = r->fromUri;
  s.state = std::string(routeStatusName(r->status));
  const auto& b = r->baseline();
  uint64_t completed = r->counters.completed_total();
  uint64_t failed = r->counters.failed_total();
  s.exchangesInflight = r->counters.inflight();
  s.exchangesCompleted = completed - std::min(completed, b.completed);
  s.exchangesFailed = failed - std::min(failed, b.failed);
  s.exchangesTotal = s.exchangesCompleted + s.exchangesFailed + s.exchangesInflight;
  uint64_t handled = r->counters.failures_handled_total();
  uint64_t redeliveries = r->counters.redeliveries_total();
  s.failuresHandled = handled - std::min(handled, b.handled);
  s.redeliveries = redeliveries - std::min(redeliveries, b.redeliveries);
  uint64_t external = r->counters.external_redeliveries_total();
  s.externalRedeliveries = external - std::min(external, b.externalRedeliveries);
  if (r->status != RouteStatus::Stopped) {
    auto up = std::chrono::steady_clock::now() - r->startedAt;
    s.uptimeMillis = std::chrono::duration<double, std::milli>(up).count();
  }
  if (r->statistics) {
    detail::TimingTotals t = r->statistics->routeTotals();
    s.timing = timingOf(t);
    s.lastExchangeMillis = t.lastMillis;
    auto stamps = r->statistics->stamps();
    s.firstCompletedMillis = stamps.firstCompleted;
    s.lastCompletedMillis = stamps.lastCompleted;
    s.firstFailedMillis = stamps.firstFailed;
    s.lastFailedMillis = stamps.lastFailed;
    s.p50Millis = static_cast<double>(r->statistics->quantile(0.5)) / 1e6;
    s.p99Millis = static_cast<double>(r->statistics->quantile(0.99)) / 1e6;
    s.p999Millis = static_cast<double>(r->statistics->quantile(0.999)) / 1e6;
    s.latencyBuckets = r->statistics->cumulativeBuckets();
    if (r->top) listProcessors(*r, *r->top, 0, Place{}, s.processors);
    for (const auto& block : r->blocks) {
      if (!block->parent && block.get() != r->top) {
        Place clause;
        clause.clause = true;
        listProcessors(*r, *block, 0, clause, s.processors);
      }
    }
  }
  return s;
}

Result<void> Context::resetStatistics(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  Route::Baseline& b = r->rareParts().baseline;
  b.started = r->counters.started_total();
  b.completed = r->counters.completed_total();
  b.failed = r->counters.failed_total();
  b.handled = r->counters.failures_handled_total();
  b.redeliveries = r->counters.redeliveries_total();
  b.externalRedeliveries = r->counters.external_redeliveries_total();
  if (r->statistics) r->statistics->reset();
  return {};
}

ContextStats sumRouteStatistics(const std::vector<RouteStats>& routes) {
  ContextStats c;
  double timed_millis = 0;
  int64_t last_at = 0;
  for (const RouteStats& r : routes) {
    c.exchangesTotal += r.exchangesTotal;
    c.exchangesCompleted += r.exchangesCompleted;
    c.exchangesFailed += r.exchangesFailed;
    c.exchangesInflight += r.exchangesInflight;
    c.failuresHandled += r.failuresHandled;
    c.redeliveries += r.redeliveries;
    c.externalRedeliveries += r.externalRedeliveries;
    c.firstCompletedMillis = detail::earliestStamp(c.firstCompletedMillis, r.firstCompletedMillis);
    c.firstFailedMillis = detail::earliestStamp(c.firstFailedMillis, r.firstFailedMillis);
    c.lastCompletedMillis = std::max(c.lastCompletedMillis, r.lastCompletedMillis);
    c.lastFailedMillis = std::max(c.lastFailedMillis, r.lastFailedMillis);
    const TimingStats& t = r.timing;
    if (t.timed == 0) continue;
    c.timing.minMillis =
        c.timing.timed == 0 ? t.minMillis : std::min(c.timing.minMillis, t.minMillis);
    c.timing.maxMillis = std::max(c.timing.maxMillis, t.maxMillis);
    c.timing.timed += t.timed;
    timed_millis += t.meanMillis * static_cast<double>(t.timed);
    if (r.lastExchangeMillis >= last_at) {
      last_at = r.lastExchangeMillis;
      c.timing.lastMillis = t.lastMillis;
    }
  }
  if (c.timing.timed > 0) c.timing.meanMillis = timed_millis / static_cast<double>(c.timing.timed);
  return c;
}

ContextStats Context::contextStatistics() const {
  std::vector<RouteStats> routes;
  for (const std::string& id : routeIds()) {
    if (auto r = routeStatistics(id)) routes.push_back(std::move(*r));
  }
  return sumRouteStatistics(routes);
}

uint64_t Context::exchangesDone() const {
  uint64_t total = 0;
  std::shared_lock lock(impl_->routesMutex);
  // Removed routes count too: what they finished was finished.
  for (const auto* list : {&impl_->routes, &impl_->removedRoutes}) {
    for (const auto& r : *list) total += r->counters.completed_total() + r->counters.failed_total();
  }
  return total;
}

}  // namespace dromedary
