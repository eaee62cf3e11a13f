// SPDX-License-Identifier: Apache-2.0
#include "file_consumer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/repeating_task.h>

#include "file_io.h"
#include "file_names.h"

namespace dromedary::component::file {

namespace fs = std::filesystem;

Result<std::vector<SortKey>> parseSortBy(std::string_view text) {
  std::vector<SortKey> keys;
  size_t start = 0;
  while (start < text.size()) {
    size_t semi = text.find(';', start);
    if (semi == std::string_view::npos) semi = text.size();
    std::string_view item = text.substr(start, semi - start);
    start = semi + 1;
    SortKey k;
    for (bool more = true; more;) {
      more = false;
      if (item.starts_with("reverse:")) {
        k.reverse = true;
        item.remove_prefix(8);
        more = true;
      }
      if (item.starts_with("ignoreCase:")) {
        k.ignoreCase = true;
        item.remove_prefix(11);
        more = true;
      }
    }
    if (item.starts_with("${") && item.ends_with("}")) item = item.substr(2, item.size() - 3);
    using By = SortKey::By;
    static const std::pair<std::string_view, By> kKeys[] = {
        {"file:name", By::Name},         {"file:onlyname", By::OnlyName},
        {"file:modified", By::Modified}, {"file:size", By::Size},
        {"file:length", By::Size},       {"file:ext", By::Ext},
        {"file:name.ext", By::Ext},      {"file:parent", By::Parent},
        {"file:path", By::Name},
    };
    auto found = std::find_if(std::begin(kKeys), std::end(kKeys),
                              [&](const auto& p) { return p.first == item; });
    if (found == std::end(kKeys)) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("sortBy: unknown key '{}' (expected file:name, file:onlyname, "
                                   "file:modified, file:size, file:ext or file:parent, each "
                                   "optionally after reverse: or ignoreCase:)",
                                   item));
    }
    k.by = found->second;
    keys.push_back(k);
  }
  return keys;
}

std::string moveExpressionText(std::string_view option) {
  if (option.find("${") != std::string_view::npos) return std::string(option);
  std::string folder(option);
  while (!folder.empty() && folder.back() == '/') folder.pop_back();
  if (!folder.empty() && folder.front() == '/') return folder + "/${file:onlyname}";
  return "${file:parent}/" + folder + "/${file:onlyname}";
}

namespace {

// One file a poll found.
struct Candidate {
  FileFacts facts;
  int depth = 1;
  std::string doneFile;  // its done file's path, when doneFileName is set
};

// What readLock=changed saw of a file at an earlier poll.
struct Seen {
  int64_t size;
  int64_t modified;
  std::chrono::steady_clock::time_point since;  // first seen with this size and time
};

bool sameText(std::string_view a, std::string_view b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(),
                    [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

// a < b by the keys (ties keep the listing's order, which is by name).
bool sortsBefore(const std::vector<SortKey>& keys, const Candidate& a, const Candidate& b) {
  for (const SortKey& k : keys) {
    int c = 0;
    auto text = [&](std::string_view x, std::string_view y) {
      if (sameText(x, y, k.ignoreCase)) return 0;
      if (!k.ignoreCase) return x < y ? -1 : 1;
      std::string lx(x), ly(y);
      for (char& ch : lx) ch = static_cast<char>(std::tolower(ch));
      for (char& ch : ly) ch = static_cast<char>(std::tolower(ch));
      return lx < ly ? -1 : 1;
    };
    switch (k.by) {
      case SortKey::By::Name: c = text(a.facts.relative, b.facts.relative); break;
      case SortKey::By::OnlyName:
        c = text(onlyName(a.facts.relative), onlyName(b.facts.relative));
        break;
      case SortKey::By::Ext:
        c = text(extensionOf(a.facts.relative, false), extensionOf(b.facts.relative, false));
        break;
      case SortKey::By::Parent:
        c = text(parentOf(a.facts.relative), parentOf(b.facts.relative));
        break;
      case SortKey::By::Modified:
        c = a.facts.modified == b.facts.modified ? 0 : a.facts.modified < b.facts.modified ? -1 : 1;
        break;
      case SortKey::By::Size:
        c = a.facts.size == b.facts.size ? 0 : a.facts.size < b.facts.size ? -1 : 1;
        break;
    }
    if (k.reverse) c = -c;
    if (c != 0) return c < 0;
  }
  return false;
}

// A done file's name for `relative`: the tokens stand for the file's own name in its folder,
// and the done file sits beside it.
std::string doneNameFor(std::string_view pattern, std::string_view relative) {
  std::string name = replaceFileTokens(pattern, onlyName(relative));
  std::string_view parent = parentOf(relative);
  return parent.empty() ? name : fmt::format("{}/{}", parent, name);
}

// One folder's polls: a RepeatingTask (its scheduling and reference counting), each run one
// listing and its files, the next poll scheduled once the last file's exchange completed.
class PollState final : public RepeatingTask {
 public:
  PollState(Context& context, Processor& processor, std::shared_ptr<ConsumerSettings> settings)
      : RepeatingTask(context),
        processor_(processor),
        s_(std::move(settings)),
        log_(Logger::get("dromedary.file")) {}

  Result<void> start() {
    std::error_code ec;
    if (!fs::is_directory(s_->directory, ec)) {
      if (s_->startingDirectoryMustExist) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("the starting folder '{}' does not exist (file consumer, "
                                     "startingDirectoryMustExist=true)",
                                     s_->directory));
      }
      if (s_->autoCreate) fs::create_directories(s_->directory, ec);
    }
    if (s_->readLock == ReadLock::MarkerFile && s_->deleteOrphanLockFiles) deleteOrphanLocks();
    RepeatingTask::start(context().scheduler().now() + s_->initialDelay);
    return {};
  }

  size_t completing() const noexcept { return completing_.load(std::memory_order_acquire); }

 private:
  // On a worker (listing a folder is I/O): list the folder, then feed the files one after
  // another.
  void run() noexcept override {
    pollStart_ = context().scheduler().now();
    try {
      batch_ = list();
    } catch (const std::exception& e) {
      pollError(fmt::format("listing '{}' failed: {}", s_->directory, e.what()));
      batch_.clear();
    }
    index_ = 0;
    next();
  }

  // The next file of the batch, or the next poll when the batch is done. A loop, not
  // recursion: an exchange that completes before begin() returns (a route that never waits)
  // only says so in done(), and this loop goes on to the next file. done() calling next()
  // itself nested frames per file, and a folder of 10,000 files overflowed the stack (under
  // ASan). Of done() and this loop, the one that comes second continues (handoff_).
  void next() noexcept {
    while (index_ < batch_.size() && !stopping()) {
      Candidate& c = batch_[index_];
      handoff_.store(kSending, std::memory_order_relaxed);
      if (!begin(c)) {
        ++index_;  // skipped
        continue;
      }
      int expected = kSending;
      if (handoff_.compare_exchange_strong(expected, kInRoute, std::memory_order_acq_rel)) {
        return;  // its exchange is in the route; done() continues
      }  // done() came first (it has counted the file): on to the next one here
    }
    batch_.clear();
    Scheduler::TimePoint now = context().scheduler().now();
    scheduleAt(s_->useFixedDelay ? now + s_->delay : std::max(now, pollStart_ + s_->delay));
    release();  // this poll's reference; the next one holds its own
  }

  // Takes the file and sends its exchange; false when it was skipped.
  bool begin(Candidate& c) noexcept {
    FileFacts& f = c.facts;
    std::string lock_file;
    if (s_->readLock == ReadLock::MarkerFile) {
      lock_file = f.path + ".camelLock";
      int fd = ::open(lock_file.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
      if (fd < 0) return false;  // another consumer has it
      ::close(fd);
    } else if (!acquireReadLock(f)) {
      return false;
    }
    ExchangePtr ex = context().createExchange();
    std::string key;
    try {
      setFileHeaders(*ex, f);
      ex->setProperty("CamelBatchIndex", Value(static_cast<int64_t>(index_)));
      ex->setProperty("CamelBatchSize", Value(static_cast<int64_t>(batch_.size())));
      ex->setProperty("CamelBatchComplete", Value(index_ + 1 == batch_.size()));
      if (s_->idempotent) {
        // The key is stored when the exchange completes, not now: a process killed
        // mid-route must find the file new again, even with a repository that persists.
        key = idempotentKey(*ex, f);
        if (s_->idempotent->contains(key)) {  // consumed meanwhile (a shared repository)
          if (!lock_file.empty()) ::unlink(lock_file.c_str());
          return false;
        }
      }
      if (s_->preMove) {
        std::string to = target(*ex, *s_->preMove, "preMove");
        renameInto(f.path, to);
        f = factsAfterMove(f, to);
        setFileHeaders(*ex, f);
      }
      setFileBody(*ex, f.path, s_->charset);
    } catch (const std::exception& e) {
      ex->failWithDetail(ErrorCode::Io, "Cannot consume file", e.what());
    }
    current_ = InFlight{std::move(key), std::move(lock_file), c.doneFile, f};
    retain();  // held by the exchange until done()
    completing_.fetch_add(1, std::memory_order_relaxed);
    processAsync(*ex.release(), processor_, &done, this);
    return true;
  }

  static void done(Exchange& ex, void* arg) {
    auto* self = static_cast<PollState*>(arg);
    self->finish(ex);
    ExchangeRecycler{}(&ex);
    self->completing_.fetch_sub(1, std::memory_order_release);  // the file is committed
    ++self->index_;
    self->release();  // the exchange's reference (the poll's is still held)
    int expected = kSending;
    if (self->handoff_.compare_exchange_strong(expected, kDoneFirst, std::memory_order_acq_rel)) {
      return;  // begin() has not returned: next()'s loop goes on
    }
    self->next();
  }

  // After the exchange: commit (move, delete, keep) or roll back (moveFailed, or leave it).
  void finish(Exchange& ex) noexcept {
    InFlight& f = current_;
    try {
      if (!ex.failed()) {
        if (s_->deleteFile) {
          removeFile(f.facts.path);
        } else if (s_->move) {
          renameInto(f.facts.path, target(ex, *s_->move, "move"));
        }
        if (!f.doneFile.empty()) ::unlink(f.doneFile.c_str());
        if (s_->idempotent && !f.key.empty()) {
          s_->idempotent->add(f.key);
          s_->idempotent->confirm(f.key);
        }
      } else {
        warnFailed(ex, f.facts);
        if (s_->moveFailed) {
          renameInto(f.facts.path, target(ex, *s_->moveFailed, "moveFailed"));
          if (!f.doneFile.empty()) ::unlink(f.doneFile.c_str());
        }  // else it stays, and the next poll tries it again
      }
    } catch (const std::exception& e) {
      log(LoggingLevel::Error,
          fmt::format("file '{}': after its exchange: {}", f.facts.path, e.what()));
    }
    if (!f.lockFile.empty()) ::unlink(f.lockFile.c_str());
    changedSeen_.erase(f.facts.relative);
  }

  // --- listing ------------------------------------------------------------------------

  std::vector<Candidate> list() {
    std::vector<Candidate> out;
    std::set<std::string> done_files;
    const size_t limit = s_->eagerMaxMessagesPerPoll && s_->maxMessagesPerPoll > 0
                             ? static_cast<size_t>(s_->maxMessagesPerPoll)
                             : SIZE_MAX;
    walk(s_->directory, "", 1, out, limit);
    if (!s_->doneFileName.empty()) {
      // A file waits for its done file; done files are not files to consume.
      std::set<std::string> present;
      for (const Candidate& c : out) present.insert(c.facts.relative);
      std::vector<Candidate> ready;
      for (Candidate& c : out) {
        std::string done = doneNameFor(s_->doneFileName, c.facts.relative);
        if (done == c.facts.relative) continue;
        if (!present.count(done)) continue;
        done_files.insert(done);
        c.doneFile = s_->directory + "/" + done;
        ready.push_back(std::move(c));
      }
      out.clear();
      for (Candidate& c : ready) {
        if (!done_files.count(c.facts.relative)) out.push_back(std::move(c));
      }
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      return a.facts.relative < b.facts.relative;
    });
    if (!s_->sortBy.empty()) {
      std::stable_sort(out.begin(), out.end(), [&](const Candidate& a, const Candidate& b) {
        return sortsBefore(s_->sortBy, a, b);
      });
    }
    if (s_->maxMessagesPerPoll > 0 && out.size() > static_cast<size_t>(s_->maxMessagesPerPoll)) {
      out.resize(static_cast<size_t>(s_->maxMessagesPerPoll));
    }
    return out;
  }

  void walk(const std::string& folder, const std::string& relative, int depth,
            std::vector<Candidate>& out, size_t limit) {
    std::error_code ec;
    // A folder that cannot be read is reported (never skipped in silence); the rest is walked.
    fs::directory_iterator it(folder, ec);
    if (ec) {
      if (ec != std::errc::no_such_file_or_directory || depth > 1) {
        pollError(fmt::format("cannot read the folder '{}': {}", folder, ec.message()));
      }
      return;
    }
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        pollError(fmt::format("cannot read the folder '{}': {}", folder, ec.message()));
        break;
      }
      entries.push_back(*it);
    }
    // By name, so that eager maxMessagesPerPoll takes the same files each time.
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return a.path().filename() < b.path().filename();
    });
    for (const fs::directory_entry& e : entries) {
      if (out.size() >= limit) return;
      std::string name = e.path().filename().string();
      if (name.starts_with(".") || name.ends_with(".camelLock")) continue;  // hidden, locks
      std::string rel = relative.empty() ? name : relative + "/" + name;
      std::error_code sec;
      if (e.is_directory(sec)) {
        if (!s_->recursive || depth + 1 > s_->maxDepth) continue;
        if (s_->filterDirectory && !directoryAccepted(folder + "/" + name, rel)) continue;
        walk(folder + "/" + name, rel, depth + 1, out, limit);
        continue;
      }
      if (!e.is_regular_file(sec)) continue;
      if (depth < s_->minDepth) continue;
      Candidate c;
      c.depth = depth;
      c.facts.directory = s_->directory;
      c.facts.relative = rel;
      c.facts.path = folder + "/" + name;
      struct stat st {};
      if (::stat(c.facts.path.c_str(), &st) != 0) continue;  // gone meanwhile
      c.facts.size = st.st_size;
      c.facts.modified = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
      if (accepted(c)) out.push_back(std::move(c));
    }
  }

  bool accepted(const Candidate& c) {
    const std::string& rel = c.facts.relative;
    std::string only(onlyName(rel));
    if (s_->include && !std::regex_match(only, *s_->include)) return false;
    if (s_->exclude && std::regex_match(only, *s_->exclude)) return false;
    std::string_view ext = extensionOf(only, false);
    auto in = [&](const std::vector<std::string>& list) {
      return std::any_of(list.begin(), list.end(), [&](const std::string& x) {
        return sameText(x, ext, true) || sameText(x, extensionOf(only, true), true);
      });
    };
    if (!s_->includeExt.empty() && !in(s_->includeExt)) return false;
    if (!s_->excludeExt.empty() && in(s_->excludeExt)) return false;
    if (!s_->antInclude.empty() && !antMatchesAny(s_->antInclude, rel, s_->antCaseSensitive)) {
      return false;
    }
    if (!s_->antExclude.empty() && antMatchesAny(s_->antExclude, rel, s_->antCaseSensitive)) {
      return false;
    }
    if (s_->fileName || s_->filterFile || s_->idempotent) {
      ExchangePtr probe = context().createExchange();
      setFileHeaders(*probe, c.facts);
      if (s_->fileName) {
        Value scratch;
        const Value* v = s_->fileName->evaluate(*probe, scratch);
        if (!v || v->toString() != only) return false;
      }
      if (s_->filterFile && !s_->filterFile->matches(*probe)) return false;
      if (s_->idempotent && s_->idempotent->contains(idempotentKey(*probe, c.facts))) return false;
    }
    if (s_->readLock == ReadLock::Changed && !steady(c.facts)) return false;
    return true;
  }

  bool directoryAccepted(const std::string& path, const std::string& rel) {
    ExchangePtr probe = context().createExchange();
    FileFacts d;
    d.directory = s_->directory;
    d.relative = rel;
    d.path = path;
    setFileHeaders(*probe, d);
    return s_->filterDirectory->matches(*probe);
  }

  // readLock=changed, across polls: a file is ready once its size and time have stayed the
  // same for readLockCheckInterval (or, with readLockMinAge, once it is that old), so no poll
  // waits on a file that is still being written.
  bool steady(const FileFacts& f) {
    if (f.size < s_->readLockMinLength) return false;
    const auto now = std::chrono::steady_clock::now();
    if (s_->readLockMinAge.count() > 0) {
      return context().scheduler().epochMillis() - f.modified >= s_->readLockMinAge.count();
    }
    auto [it, fresh] = changedSeen_.try_emplace(f.relative, Seen{f.size, f.modified, now});
    if (fresh) return s_->readLockCheckInterval.count() <= 0;
    Seen& seen = it->second;
    if (seen.size != f.size || seen.modified != f.modified) {
      seen = Seen{f.size, f.modified, now};
      return false;
    }
    return now - seen.since >= s_->readLockCheckInterval;
  }

  bool acquireReadLock(const FileFacts& f) {
    if (s_->readLock == ReadLock::FileLock) {
      // A writer holding an flock() on the file keeps it; we only test.
      int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return false;
      bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      ::close(fd);
      return free;
    }
    if (s_->readLock == ReadLock::Rename) {
      std::string probe = f.path + ".camelExclusiveReadLock";
      if (::rename(f.path.c_str(), probe.c_str()) != 0) return false;
      return ::rename(probe.c_str(), f.path.c_str()) == 0;
    }
    return true;
  }

  void deleteOrphanLocks() {
    std::error_code ec;
    auto opts = fs::directory_options::skip_permission_denied;
    for (fs::recursive_directory_iterator it(s_->directory, opts, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().filename().string().ends_with(".camelLock")) fs::remove(it->path(), ec);
    }
  }

  // --- helpers --------------------------------------------------------------------------------

  std::string idempotentKey(Exchange& ex, const FileFacts& f) {
    if (!s_->idempotentKey) return absolutePath(f.path);
    Value scratch;
    const Value* v = s_->idempotentKey->evaluate(ex, scratch);
    return v ? v->toString() : absolutePath(f.path);
  }

  // Where a move option sends the file: its Simple value, relative to the starting folder
  // unless absolute or already under it (as ${file:parent} is).
  std::string target(Exchange& ex, const Expression& expr, std::string_view option) {
    Value scratch;
    const Value* v = expr.evaluate(ex, scratch);
    if (!v) {
      throw std::runtime_error(fmt::format("{}: the expression failed: {}", option,
                                           ex.error().message()));
    }
    std::string to = v->toString();
    if (to.empty()) throw std::runtime_error(fmt::format("{}: the expression gave ''", option));
    if (to.front() == '/') return normalizePath(to);
    if (to.starts_with(s_->directory + "/")) return normalizePath(to);
    return normalizePath(s_->directory + "/" + to);
  }

  FileFacts factsAfterMove(const FileFacts& before, const std::string& to) {
    FileFacts f = before;
    f.path = to;
    const std::string prefix = normalizePath(s_->directory) + "/";
    f.relative = to.starts_with(prefix) ? to.substr(prefix.size()) : std::string(onlyName(to));
    return f;
  }

  void log(LoggingLevel level, const std::string& line) noexcept {
    if (log_.enabled(level)) log_.log(level, line);
  }

  void pollError(const std::string& what) noexcept {
    if (!s_->bridgeErrorHandler) return log(LoggingLevel::Warn, fmt::format("file consumer: {}", what));
    // Bridged: an exchange carrying the failure goes to the route's error handler.
    Exchange* ex = context().createExchange().release();
    try {
      ex->failWithDetail(ErrorCode::Io, "File consumer poll failed", what);
    } catch (...) {
      ex->fail(ErrorCode::Io, "File consumer poll failed", s_->directory);
    }
    processAndWait(*ex, processor_);
    ExchangeRecycler{}(ex);
  }

  void warnFailed(const Exchange& ex, const FileFacts& f) noexcept {
    if (!log_.enabled(LoggingLevel::Warn)) return;
    try {
      log_.log(LoggingLevel::Warn,
               fmt::format("file '{}': its exchange failed ({}); {}", f.path, ex.error().message(),
                           s_->moveFailed ? "moving it to moveFailed"
                                          : "it stays and is tried again at the next poll"));
    } catch (...) {
    }
  }

  struct InFlight {
    std::string key;
    std::string lockFile;
    std::string doneFile;
    FileFacts facts;
  };

  Processor& processor_;
  std::shared_ptr<ConsumerSettings> s_;
  Logger log_;
  Scheduler::TimePoint pollStart_;
  // Touched by one poll at a time (a poll schedules the next only when its batch is done).
  std::vector<Candidate> batch_;
  size_t index_ = 0;
  InFlight current_;
  // Who continues after a file's exchange is sent: next() once begin() returned (kInRoute:
  // the exchange is still in the route), or done() when it came first (kDoneFirst).
  enum : int { kSending, kInRoute, kDoneFirst };
  std::atomic<int> handoff_{kSending};
  // The file whose exchange is sent and whose move (or delete, or rollback) is not yet done:
  // a stopping context waits for it (Consumer::completing).
  std::atomic<size_t> completing_{0};
  std::map<std::string, Seen> changedSeen_;
};

class FileConsumer final : public Consumer {
 public:
  FileConsumer(Context& context, Processor& processor, std::shared_ptr<ConsumerSettings> s)
      : state_(new PollState(context, processor, std::move(s))) {}
  ~FileConsumer() override {
    state_->stop();
    state_->release();
  }
  Result<void> start() override { return state_->start(); }
  void stop() noexcept override { state_->stop(); }
  size_t completing() const noexcept override { return state_->completing(); }

 private:
  PollState* state_;
};

}  // namespace

std::unique_ptr<Consumer> makeFileConsumer(Context& context, Processor& processor,
                                           std::shared_ptr<ConsumerSettings> settings) {
  return std::make_unique<FileConsumer>(context, processor, std::move(settings));
}

}  // namespace dromedary::component::file
