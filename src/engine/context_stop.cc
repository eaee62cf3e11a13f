// SPDX-License-Identifier: Apache-2.0
// Stopping: a route (stopRoute, suspendRoute) or the whole context, in Camel's order, with the
// shutdown timeout holding (docs/stopping.md).
#include <dromedary/engine/context.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <dromedary/version.h>

#include "engine/compiled_route.h"
#include "engine/context_impl.h"

namespace dromedary {

namespace {

using Clock = std::chrono::steady_clock;
using detail::Route;

std::chrono::milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

// What a stopping route still has to finish: its exchanges in flight, those whose end its
// consumer still handles and, unless it completes only its current tasks, what its consumer
// has accepted and not yet started.
uint64_t unfinished(const Route& r) {
  uint64_t n = r.counters.inflight();
  if (!r.consumer) return n;
  // A consumer's completing exchanges include those of them still in the route.
  n = std::max<uint64_t>(n, r.consumer->completing());
  if (r.shutdownRunningTask == ShutdownRunningTask::CompleteAllTasks) {
    n += r.consumer->pendingExchanges();
  }
  return n;
}

// Waits until `routes` have nothing unfinished, or the deadline. Returns the stragglers.
std::vector<std::pair<std::string, uint64_t>> drain(const std::vector<Route*>& routes,
                                                    Clock::time_point deadline,
                                                    const Logger& log) {
  auto next_report = Clock::now() + std::chrono::seconds(1);
  for (;;) {
    uint64_t left = 0;
    for (Route* r : routes) left += unfinished(*r);
    if (left == 0) return {};
    if (Clock::now() >= deadline) break;
    if (Clock::now() >= next_report) {
      log.log(LoggingLevel::Info,
              fmt::format("Waiting as there are still {} inflight and pending exchanges to "
                          "complete before we can shutdown",
                          left));
      next_report += std::chrono::seconds(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::vector<std::pair<std::string, uint64_t>> forced;
  for (Route* r : routes) {
    if (uint64_t n = unfinished(*r)) forced.emplace_back(r->id, n);
  }
  return forced;
}

// The consumers of `routes` give up what they still hold (the timeout passed, or the route
// completes only its current tasks): what each left behind, by route.
std::vector<std::pair<std::string, uint64_t>> abandon(const std::vector<Route*>& routes) {
  std::vector<std::pair<std::string, uint64_t>> left;
  for (Route* r : routes) {
    if (!r->consumer) continue;
    if (size_t n = r->consumer->abandonPending()) left.emplace_back(r->id, n);
  }
  return left;
}

// The route's consumer takes no more work; one that completes only its current tasks gives
// up what it holds at once (said in `report`).
void stopIntake(Route& r, StopReport& report) {
  if (!r.consumer) return;
  r.consumer->stop();
  if (r.shutdownRunningTask == ShutdownRunningTask::CompleteCurrentTaskOnly) {
    for (auto& left : abandon({&r})) report.abandoned.push_back(std::move(left));
  }
}

// Past the timeout: what is queued is given up, and the log says what was cut short, by route.
void force(const std::vector<Route*>& routes, StopReport& report, const Logger& log) {
  for (auto& left : abandon(routes)) report.abandoned.push_back(std::move(left));
  log.log(LoggingLevel::Warn,
          "Timeout occurred during graceful shutdown. Forcing the shutdown now. Notice: some "
          "exchanges did not complete:");
  for (const auto& [id, n] : report.forced) {
    uint64_t left = 0;
    for (const auto& [abandoned_id, count] : report.abandoned) {
      if (abandoned_id == id) left += count;
    }
    log.log(LoggingLevel::Warn,
            left == 0 ? fmt::format("    route {} had {} inflight exchanges", id, n)
                      : fmt::format("    route {} had {} inflight and pending exchanges; {} "
                                    "queued were left unprocessed",
                                    id, n, left));
  }
}

// A route stopped on its own (stopRoute, suspendRoute): its consumer stops, what it holds
// finishes up to the timeout, the rest is given up and logged.
StopReport stopOne(Route& r, std::chrono::milliseconds timeout, const Logger& log) {
  auto begin = Clock::now();
  StopReport report;
  stopIntake(r, report);
  report.forced = drain({&r}, begin + timeout, log);
  report.graceful = report.forced.empty();
  if (!report.graceful) force({&r}, report, log);
  report.took = since(begin);
  return report;
}

}  // namespace

Result<StopReport> Context::stopRoute(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  if (r->status == RouteStatus::Stopping) {
    return makeError(ErrorCode::RouteNotStarted,
                     fmt::format("route '{}' is stopping already", r->id));
  }
  r->setStatus(RouteStatus::Stopping);
  StopReport report = stopOne(*r, impl_->shutdownTimeout, impl_->log);
  for (auto& step : r->steps) step->routeStopping();
  r->consumerGone();
  return report;
}

Result<StopReport> Context::suspendRoute(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  if (r->status != RouteStatus::Started) return StopReport{};
  r->setStatus(RouteStatus::Suspending);
  StopReport report = stopOne(*r, impl_->shutdownTimeout, impl_->log);
  // Suspended, the consumer takes nothing more: what comes meanwhile waits for resumeRoute.
  if (r->consumer && report.graceful) r->consumer->abandonPending();
  r->setStatus(RouteStatus::Suspended);
  impl_->log.log(LoggingLevel::Info, fmt::format("Route: {} suspended", r->id));
  return report;
}

StopReport Context::stop() {
  StopReport report;
  if (!impl_->started) return report;
  impl_->stopping.store(true, std::memory_order_relaxed);
  auto begin = Clock::now();
  const Logger& log = impl_->log;
  std::vector<Route*> routes;
  for (auto& r : impl_->routes) {
    routes.push_back(r.get());
    if (r->status != RouteStatus::Stopped) r->setStatus(RouteStatus::Stopping);
  }
  log.log(LoggingLevel::Info,
          fmt::format("Starting to graceful shutdown {} routes (timeout {}ms)", routes.size(),
                      impl_->shutdownTimeout.count()));
  // Camel's order: first the consumers that take work from outside, in reverse start order, so
  // that no new work comes in; then what is in flight and queued drains, up to the timeout,
  // while the consumers other routes feed (direct:, seda:, shutdownRoute=Defer) still take
  // it; then those stop and what they hold drains in the time left; then what is still
  // unfinished is forced, and said, by route.
  const auto deadline = begin + impl_->shutdownTimeout;
  // A route that completes only its current tasks stops taking work at once, deferred or not.
  auto deferred = [](const Route& r) {
    if (!r.consumer || r.shutdownRunningTask == ShutdownRunningTask::CompleteCurrentTaskOnly) {
      return false;
    }
    return r.consumer->internal() || r.shutdownRoute == ShutdownRoute::Defer;
  };
  auto stopConsumers = [&](bool of_deferred) {
    for (auto it = routes.rbegin(); it != routes.rend(); ++it) {
      if ((*it)->consumer && deferred(**it) == of_deferred) stopIntake(**it, report);
    }
  };
  stopConsumers(false);
  drain(routes, deadline, log);
  stopConsumers(true);
  report.forced = drain(routes, deadline, log);
  report.graceful = report.forced.empty();
  if (!report.graceful) force(routes, report, log);
  for (Route* r : routes) {
    for (auto& step : r->steps) step->routeStopping();
  }
  for (Route* r : routes) r->consumerGone();
  {
    std::lock_guard lock(impl_->mutex);
    for (auto& [endpoint, producer] : impl_->producers) producer->stop();
  }
  for (const auto& caching : impl_->replacedStreamCaching) {
    if (caching->options().removeSpoolDirectoryWhenStopping) caching->removeDirectory();
  }
  if (impl_->streamCaching->options().removeSpoolDirectoryWhenStopping) {
    impl_->streamCaching->removeDirectory();
  }
  impl_->started = false;
  impl_->stopping.store(false, std::memory_order_relaxed);
  impl_->stoppedBefore = true;
  report.took = since(begin);
  log.log(LoggingLevel::Info,
          fmt::format("Dromedary {} ({}) shutdown in {}ms (uptime {}ms)", kVersion, impl_->name,
                      report.took.count(), since(impl_->startedAt).count()));
  return report;
}

void Context::setShutdownTimeout(std::chrono::milliseconds timeout) noexcept {
  impl_->shutdownTimeout = timeout;
}

std::chrono::milliseconds Context::shutdownTimeout() const noexcept {
  return impl_->shutdownTimeout;
}

}  // namespace dromedary
