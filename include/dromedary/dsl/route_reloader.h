// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Reloading routes from their files while the context runs, as `dromedary run --dev` does
/// (Camel JBang's `camel run --dev`): the files are read again into a scratch context and
/// checked there first; only if everything loads are the routes an edit changed swapped
/// (the old one stopped gracefully, then removed, the new one added and started). Routes the
/// edit did not change keep running, with their statistics. A bad edit changes nothing.
///
/// Example:
///   RouteReloader reloader(context, {"routes/"}, setup);   // setup: components, properties
///   reloader.load().value();                              // the first load
///   context.start().value();
///   auto watcher = FileWatcher::watch(reloader.watchedPaths()).value();
///   for (;;) {
///     if (watcher->changes(std::chrono::milliseconds(100)).empty()) continue;
///     auto outcome = reloader.reload();   // an error leaves the running routes as they were
///   }
///
/// Messages: a direct: or seda: route swapped loses none (a direct: producer waits for the
/// new consumer, up to the endpoint's timeout; seda: messages wait in the queue).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/dsl/route_loader.h>

namespace dromedary {

class Context;

/// What one reload did.
struct ReloadOutcome {
  bool changed = false;              ///< some route was swapped, added or removed
  std::vector<std::string> swapped;  ///< ids of routes stopped and started again, changed
  std::vector<std::string> added;    ///< ids of new routes
  std::vector<std::string> removed;  ///< ids of routes no file declares any more
  size_t kept = 0;                   ///< routes left running as they were
  std::chrono::microseconds took{0};
  /// "reloaded in 4 ms: changed orders; added audit; 3 kept", or why nothing changed.
  std::string summary() const;
};

class RouteReloader {
 public:
  /// Prepares a context for a load: what `dromedary run` does before loading routes. With
  /// `fresh` (the first load, and each reload's scratch context) everything: components,
  /// --properties files, Kamelet folders; without (the running context, before the changed
  /// routes are added to it) what the files may have changed: the properties files.
  using Setup = std::function<Result<void>(Context& context, bool fresh)>;

  RouteReloader(Context& context, std::vector<std::string> paths, Setup setup);
  ~RouteReloader();
  RouteReloader(const RouteReloader&) = delete;
  RouteReloader& operator=(const RouteReloader&) = delete;

  /// The first load (setup, then every route of the files). `forReload` keeps each route's
  /// key and fingerprint, which reload() needs to tell what an edit changed; a load that will
  /// not be reloaded (`dromedary validate`, `run` without --dev) keeps nothing per route.
  Result<LoadReport> load(bool forReload = true);
  /// Reads the files again; swaps, adds and removes the routes that changed. An error (a file
  /// that does not load, with file:line:column) leaves the running routes as they were; so
  /// does a reload after load(false), which fails saying so.
  Result<ReloadOutcome> reload();

  /// What to watch (FileWatcher::watch): the route paths, and `extra` (the properties files,
  /// the Kamelet folders).
  std::vector<std::string> watchedPaths(const std::vector<std::string>& extra = {}) const;

 private:
  struct Known {
    std::string id;
    uint64_t fingerprint = 0;
  };
  Result<void> swap(const std::vector<LoadedRoute>& next, ReloadOutcome& outcome);

  Context& context_;
  std::vector<std::string> paths_;
  Setup setup_;
  std::map<std::string, Known, std::less<>> routes_;  // by LoadedRoute::key
  bool forReload_ = false;  // routes_ is kept (load(true))
};

/// Watches files and folders (inotify) for saves, renames and deletions of route files (.yaml,
/// .yml, .xml), .properties files and Kamelets; editors' swap and backup files are ignored.
class FileWatcher {
 public:
  /// Watches `paths`: a folder for the files in it, a file through its folder (editors save
  /// by replacing the file). Fails naming a path that cannot be watched.
  static Result<std::unique_ptr<FileWatcher>> watch(const std::vector<std::string>& paths);
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  /// Waits up to `timeout` for changes and returns the files that changed, once the
  /// changes have settled (`quiet` with no further event: an editor's save is several
  /// events); empty when none.
  std::vector<std::string> changes(std::chrono::milliseconds timeout,
                                   std::chrono::milliseconds quiet = std::chrono::milliseconds(15));

 private:
  FileWatcher() = default;
  int fd_ = -1;
  struct Folder {
    std::string path;
    bool whole = false;              // named as a folder: every relevant file in it counts
    std::vector<std::string> names;  // else the files named one by one (and the properties)
  };
  std::map<int, Folder> folders_;  // by inotify watch descriptor
};

}  // namespace dromedary
