// SPDX-License-Identifier: Apache-2.0
// FileWatcher on Linux's inotify. Folders are watched rather than files: editors save by
// writing a new file and renaming it over the old one, which a watch on the old file misses.
#include <dromedary/dsl/route_reloader.h>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

namespace dromedary {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Whether a change to a file of this name matters: route files, properties and Kamelets;
// not an editor's swap file (.x.swp), backup (x~), or vim's write test (4913).
bool relevant(std::string_view name) {
  if (name.empty() || name.starts_with('.') || name.starts_with('#') || name.ends_with('~')) {
    return false;
  }
  for (std::string_view ext : {".yaml", ".yml", ".xml", ".properties"}) {
    if (name.ends_with(ext)) return true;
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<FileWatcher>> FileWatcher::watch(const std::vector<std::string>& paths) {
  std::unique_ptr<FileWatcher> watcher(new FileWatcher());
  watcher->fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (watcher->fd_ < 0) {
    return makeError(ErrorCode::Io, fmt::format("cannot watch files: {}", std::strerror(errno)));
  }
  constexpr uint32_t kEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE;
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::path path(p);
    bool whole = fs::is_directory(path, ec);
    fs::path folder = whole ? path : path.has_parent_path() ? path.parent_path() : fs::path(".");
    int wd = inotify_add_watch(watcher->fd_, folder.c_str(), kEvents);
    if (wd < 0) {
      return makeError(ErrorCode::Io,
                       fmt::format("cannot watch '{}': {}", folder.string(), std::strerror(errno)));
    }
    Folder& f = watcher->folders_[wd];  // the same folder twice: the same descriptor
    f.path = folder.string();
    f.whole = f.whole || whole;
    if (!whole) f.names.push_back(path.filename().string());
  }
  return watcher;
}

FileWatcher::~FileWatcher() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<std::string> FileWatcher::changes(std::chrono::milliseconds timeout,
                                              std::chrono::milliseconds quiet) {
  std::vector<std::string> changed;
  auto wait = timeout;
  std::optional<Clock::time_point> first;  // the first event: a stream of them ends here + 250 ms
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0) break;  // quiet: the change is in
    if (!first) first = Clock::now();
    if (Clock::now() - *first > std::chrono::milliseconds(250)) break;
    alignas(inotify_event) char buffer[16384];
    ssize_t n = ::read(fd_, buffer, sizeof buffer);
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      auto folder = folders_.find(event->wd);
      if (event->len == 0 || folder == folders_.end()) continue;
      std::string_view name(event->name);
      if (!relevant(name)) continue;
      const Folder& f = folder->second;
      // Beside a file named one by one, only it counts, and the application.properties the
      // load reads from its folder.
      bool counts = f.whole || name == "application.properties" ||
                    std::find(f.names.begin(), f.names.end(), name) != f.names.end();
      if (!counts) continue;
      std::string file = (fs::path(f.path) / name).string();
      if (std::find(changed.begin(), changed.end(), file) == changed.end()) changed.push_back(file);
    }
    wait = quiet;
  }
  return changed;
}

}  // namespace dromedary
