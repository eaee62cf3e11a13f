// SPDX-License-Identifier: Apache-2.0
#include <dromedary/dsl/route_reloader.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <dromedary/engine/context.h>

namespace dromedary {

namespace {

using Clock = std::chrono::steady_clock;

std::string joined(const std::vector<std::string>& ids) {
  return fmt::format("{}", fmt::join(ids, ", "));
}

}  // namespace

std::string ReloadOutcome::summary() const {
  auto ms = static_cast<double>(took.count()) / 1000.0;
  if (!changed) return fmt::format("checked in {:.1f} ms: no route changed ({} kept)", ms, kept);
  std::string text = fmt::format("reloaded in {:.1f} ms:", ms);
  if (!swapped.empty()) text += fmt::format(" changed {};", joined(swapped));
  if (!added.empty()) text += fmt::format(" added {};", joined(added));
  if (!removed.empty()) text += fmt::format(" removed {};", joined(removed));
  return text + fmt::format(" {} kept", kept);
}

RouteReloader::RouteReloader(Context& context, std::vector<std::string> paths, Setup setup)
    : context_(context), paths_(std::move(paths)), setup_(std::move(setup)) {}

RouteReloader::~RouteReloader() = default;

Result<LoadReport> RouteReloader::load(bool forReload) {
  if (setup_) DROMEDARY_TRY_VOID(setup_(context_, true));
  DROMEDARY_TRY(report, loadRoutes(context_, paths_));
  routes_.clear();
  forReload_ = forReload;
  if (forReload) {
    for (const LoadedRoute& r : report.loaded) routes_[r.key] = {r.id, r.fingerprint};
  }
  return report;
}

Result<ReloadOutcome> RouteReloader::reload() {
  if (!forReload_) {
    return makeError(ErrorCode::Internal,
                     "the routes were loaded with load(false): nothing was kept to tell what "
                     "changed; load them with load(true) to reload them");
  }
  const auto begin = Clock::now();
  ReloadOutcome outcome;
  // Everything is read and compiled in a context of its own first: a bad edit stops here.
  std::vector<LoadedRoute> next;
  {
    Context scratch(context_.name() + "-reload");
    if (setup_) DROMEDARY_TRY_VOID(setup_(scratch, true));
    DROMEDARY_TRY(report, loadRoutes(scratch, paths_));
    DROMEDARY_TRY_VOID(scratch.compileRoutes());
    next = std::move(report.loaded);
  }
  DROMEDARY_TRY_VOID(swap(next, outcome));
  outcome.took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin);
  return outcome;
}

Result<void> RouteReloader::swap(const std::vector<LoadedRoute>& next, ReloadOutcome& outcome) {
  std::set<std::string, std::less<>> changed;  // keys to add: new or different
  std::set<std::string, std::less<>> present;
  for (const LoadedRoute& r : next) {
    present.insert(r.key);
    auto it = routes_.find(r.key);
    if (it == routes_.end() || it->second.fingerprint != r.fingerprint) changed.insert(r.key);
  }
  std::vector<std::string> gone;
  for (const auto& [key, known] : routes_) {
    if (!present.count(key)) gone.push_back(key);
  }
  outcome.kept = next.size() - changed.size();
  if (changed.empty() && gone.empty()) return {};
  outcome.changed = true;

  // Stop and remove what changed or went, then add what is new or changed. A route the last
  // (failed) reload left under a key's own id is replaced too.
  std::vector<std::string> running = context_.routeIds();
  auto retire = [&](const std::string& id) -> Result<void> {
    if (std::find(running.begin(), running.end(), id) == running.end()) return {};
    DROMEDARY_TRY_VOID(context_.stopRoute(id));
    return context_.removeRoute(id);
  };
  std::set<std::string, std::less<>> replaced;  // the changed keys a running route had
  std::vector<std::string> stopped;             // and those routes' ids
  for (const std::string& key : changed) {
    auto it = routes_.find(key);
    const std::string& id = it != routes_.end() ? it->second.id : key;
    if (std::find(running.begin(), running.end(), id) == running.end()) continue;
    DROMEDARY_TRY_VOID(retire(id));
    replaced.insert(key);
    stopped.push_back(id);
  }
  for (const std::string& key : gone) {
    DROMEDARY_TRY_VOID(retire(routes_[key].id));
    outcome.removed.push_back(routes_[key].id);
    routes_.erase(key);
  }
  for (const std::string& key : changed) routes_.erase(key);

  if (setup_) DROMEDARY_TRY_VOID(setup_(context_, false));  // properties files read again
  LoadOptions options;
  options.reload = true;
  options.include = [&](const LoadedRoute& r) { return changed.count(r.key) > 0; };
  auto report = loadRoutes(context_, paths_, options);
  if (!report) {
    // The files loaded in the scratch context, so what failed here is the running context's
    // (a port taken ...): the routes stopped for the reload stay stopped until a save loads.
    Error e = report.error();
    if (!stopped.empty()) {
      e.message += fmt::format(
          " (route{} {} stopped for the reload and not running; the next save tries again)",
          stopped.size() == 1 ? "" : "s", fmt::join(stopped, ", "));
    }
    return e;
  }
  for (const LoadedRoute& r : report->loaded) {
    if (r.id.empty()) continue;
    routes_[r.key] = {r.id, r.fingerprint};
    (replaced.count(r.key) ? outcome.swapped : outcome.added).push_back(r.id);
  }
  return {};
}

std::vector<std::string> RouteReloader::watchedPaths(const std::vector<std::string>& extra) const {
  std::vector<std::string> paths = paths_;
  paths.insert(paths.end(), extra.begin(), extra.end());
  return paths;
}

}  // namespace dromedary
