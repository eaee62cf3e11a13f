// SPDX-License-Identifier: Apache-2.0
#include "run_command.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ctime>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <dromedary/dromedary.h>
#include <dromedary/management/management_server.h>
#include <dromedary/dsl/route_loader.h>
#include <dromedary/dsl/route_reloader.h>

#include "stop_signals.h"
#include "systemd_notify.h"

namespace dromedary::cli {

namespace {

using Clock = std::chrono::steady_clock;

// What every load of `options` needs in a context: with `fresh` the built-in components and
// the Kamelet folders too; always the --properties files (read again on each reload) and the
// --prop values. Both are pinned: what the command line gives wins over the properties files
// beside the route files, loaded after them (as Camel JBang's command line wins).
RouteReloader::Setup setupFor(const RunOptions& options) {
  return [&options](Context& context, bool fresh) -> Result<void> {
    if (fresh) registerBuiltinComponents(context);
    context.properties().set("camel.main.profile", options.profile);
    for (const std::string& file : options.properties) {
      DROMEDARY_TRY_VOID(context.properties().loadPinned(file));
    }
    for (const std::string& entry : options.overrides) {
      const size_t eq = entry.find('=');
      if (eq == 0 || eq == std::string::npos) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("--prop expects KEY=VALUE, not '{}'", entry));
      }
      context.properties().pin(entry.substr(0, eq), entry.substr(eq + 1));
    }
    if (fresh) setKameletFolders(context, options.kamelets);
    return {};
  };
}

// The routes of `options` loaded into `reloader`'s context. Prints the error and returns false
// when something does not load.
bool load(RouteReloader& reloader, const Logger& log, bool forReload) {
  auto report = reloader.load(forReload);
  if (!report) {
    std::fprintf(stderr, "dromedary: %s\n", report.error().toString().c_str());
    return false;
  }
  for (const std::string& note : report->notes) log.log(LoggingLevel::Info, note);
  log.log(LoggingLevel::Info, fmt::format("loaded {} route{} from {} file{}", report->routes,
                                          report->routes == 1 ? "" : "s", report->files.size(),
                                          report->files.size() == 1 ? "" : "s"));
  return true;
}

// camel.main.shutdownTimeout, messageHistory, tracing and camel.trace.* from the loaded
// properties (Context::applyMainProperties).
bool applyMainProperties(Context& context) {
  auto applied = context.applyMainProperties();
  if (!applied) {
    std::fprintf(stderr, "dromedary: %s\n", applied.error().toString().c_str());
    return false;
  }
  return true;
}

// The paths to load: those given, or the current folder.
std::vector<std::string> pathsOf(const RunOptions& options) {
  return options.paths.empty() ? std::vector<std::string>{"."} : options.paths;
}

}  // namespace

void setKameletFolders(Context& context, const std::vector<std::string>& folders) {
  std::string list;
  for (const std::string& folder : folders) {
    if (!list.empty()) list += ',';
    list += folder;
  }
  if (!list.empty()) context.properties().set("dromedary.kamelets", std::move(list));
}

namespace {

bool setLevel(const std::string& text) {
  auto level = parseLoggingLevel(text);
  if (!level) {
    std::fprintf(stderr, "dromedary: unknown log level '%s' (TRACE, DEBUG, INFO, WARN, ERROR, OFF)\n",
                 text.c_str());
    return false;
  }
  setLogLevel(*level);
  return true;
}

// Waits a moment for edits (the loop's tick); reloads when files changed.
void reloadOnChange(FileWatcher& watcher, RouteReloader& reloader, const Logger& log) {
  std::vector<std::string> changed = watcher.changes(std::chrono::milliseconds(50));
  if (changed.empty()) return;
  log.log(LoggingLevel::Info, fmt::format("--dev: {} changed", fmt::join(changed, ", ")));
  auto outcome = reloader.reload();
  if (!outcome) {
    log.log(LoggingLevel::Warn, fmt::format("--dev: the running routes are kept: {}",
                                            outcome.error().toString()));
    notifyStatus("reload failed: " + outcome.error().toString());
    return;
  }
  log.log(LoggingLevel::Info, "--dev: " + outcome->summary());
  if (outcome->changed) notifyStatus(outcome->summary());
}

}  // namespace

int validateRoutes(const RunOptions& options) {
  if (!setLevel(options.logLevel)) return 2;
  Context context("dromedary");
  Logger log = Logger::get("dromedary.validate");
  RouteReloader loader(context, pathsOf(options), setupFor(options));
  if (!load(loader, log, false) || !applyMainProperties(context)) return 1;
  auto compiled = context.compileRoutes();
  if (!compiled) {
    std::fprintf(stderr, "dromedary: %s\n", compiled.error().toString().c_str());
    return 1;
  }
  const size_t routes = context.routeCount();
  std::printf("valid: %zu route%s\n", routes, routes == 1 ? "" : "s");
  return 0;
}

int runRoutes(const RunOptions& options) {
  if (!setLevel(options.logLevel)) return 2;
  if (options.managementPort < 0 || options.managementPort > 65535) {
    std::fprintf(stderr, "dromedary: --management-port must be within 1..65535, not %d\n",
                 options.managementPort);
    return 2;
  }
  Context context("dromedary");
  Logger log = Logger::get("dromedary.run");
  RouteReloader reloader(context, pathsOf(options), setupFor(options));
  if (!load(reloader, log, options.dev) || !applyMainProperties(context)) return 1;
  std::unique_ptr<FileWatcher> watcher;
  if (options.dev) {
    std::vector<std::string> extra = options.properties;
    extra.insert(extra.end(), options.kamelets.begin(), options.kamelets.end());
    auto watching = FileWatcher::watch(reloader.watchedPaths(extra));
    if (!watching) {
      std::fprintf(stderr, "dromedary: --dev: %s\n", watching.error().toString().c_str());
      return 1;
    }
    watcher = std::move(*watching);
  }
  auto started = context.start();
  if (!started) {
    std::fprintf(stderr, "dromedary: %s\n", started.error().toString().c_str());
    return 1;
  }
  std::unique_ptr<ManagementServer> management;
  if (options.managementPort != 0) {
    ManagementOptions m;
    m.host = options.managementHost;
    m.port = static_cast<uint16_t>(options.managementPort);
    m.token = options.managementToken;
    if (m.token.empty()) {
      if (const char* env = std::getenv("DROMEDARY_MANAGEMENT_TOKEN")) m.token = env;
    }
    m.allowLoopbackControl = options.managementLoopbackControl;
    management = std::make_unique<ManagementServer>(context, m);
    auto serving = management->start();
    if (!serving) {
      std::fprintf(stderr, "dromedary: %s\n", serving.error().toString().c_str());
      context.stop();
      return 1;
    }
    log.log(LoggingLevel::Info,
            fmt::format("management API on http://{}:{} (route control {})", m.host,
                        management->port(),
                        !m.token.empty()           ? "with a token"
                        : m.allowLoopbackControl ? "allowed on loopback"
                                                 : "disabled"));
  }

  stopSignalsServing();
  onDumpSignal([&context] { context.logRecentExchanges(); });  // SIGUSR2: the flight recorder
  notifyReady(fmt::format("{} routes started", context.routeCount()));
  if (watcher) log.log(LoggingLevel::Info, "--dev: routes reload when their files change");

  // Wait for a stop signal, the message limit or the time limit; in --dev, for edits too.
  const auto begin = Clock::now();
  std::string reason;
  while (reason.empty()) {
    int sig = waitForStopSignal(std::chrono::milliseconds(watcher ? 0 : 50));
    if (sig != 0) {
      reason = sig == SIGINT ? "SIGINT" : "SIGTERM";
    } else if (options.maxMessages > 0 && context.exchangesDone() >= options.maxMessages) {
      reason = fmt::format("--max-messages {} reached", options.maxMessages);
    } else if (options.maxSeconds > 0 &&
               std::chrono::duration<double>(Clock::now() - begin).count() >= options.maxSeconds) {
      reason = fmt::format("--max-seconds {} reached", options.maxSeconds);
    } else if (watcher) {
      reloadOnChange(*watcher, reloader, log);
    }
  }
  stopSignalsStopping();
  onDumpSignal(nullptr);
  notifyStopping(fmt::format("stopping: {}", reason));
  log.log(LoggingLevel::Info, fmt::format("stopping: {}", reason));
  if (management) management->stop();
  StopReport report = context.stop();
  return report.graceful ? 0 : 1;
}

}  // namespace dromedary::cli
