// SPDX-License-Identifier: Apache-2.0
// Stream caching: the spool directory and the buffer that moves a body from memory to a spool
// file once it passes the threshold (engine/stream_caching.h).
#include <dromedary/core/file_body.h>
#include <dromedary/core/value.h>
#include <dromedary/engine/stream_caching.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>

namespace dromedary {

namespace {

void replaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::string randomId() {
  std::random_device device;
  std::mt19937_64 engine((uint64_t{device()} << 32) ^ device());
  return fmt::format("{:016x}{:016x}", engine(), engine());
}

// Writes all of `data`, over short writes and signals.
bool writeAll(int fd, std::string_view data) noexcept {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

Result<std::shared_ptr<const StreamCaching>> StreamCaching::make(StreamCachingOptions options,
                                                                 std::string_view context_name) {
  if (options.bufferSize <= 0) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("camel.main.streamCachingBufferSize must be above 0, not {}",
                                 options.bufferSize));
  }
  auto caching = std::make_shared<StreamCaching>();
  std::string dir = options.spoolDirectory;
  const char* tmp = std::getenv("TMPDIR");
  replaceAll(dir, "${java.io.tmpdir}", tmp && *tmp ? tmp : "/tmp");
  replaceAll(dir, "#uuid#", randomId());
  replaceAll(dir, "#camelId#", context_name);
  replaceAll(dir, "#name#", context_name);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (options.spoolEnabled && dir.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     "camel.main.streamCachingSpoolDirectory must name a directory, not ''");
  }
  caching->directory_ = std::move(dir);
  caching->spools_ = options.enabled && options.spoolEnabled && options.spoolThreshold > 0;
  caching->options_ = std::move(options);
  return std::shared_ptr<const StreamCaching>(std::move(caching));
}

int StreamCaching::createSpoolFile(std::string& path) const {
  for (int attempt = 0;; ++attempt) {
    path = directory_ + "/cos-XXXXXX.tmp";
    int fd = ::mkostemps(path.data(), 4, O_CLOEXEC);
    if (fd >= 0) return fd;
    int error = errno;
    if (error == ENOENT && attempt == 0) {
      std::error_code ec;
      std::filesystem::create_directories(directory_, ec);
      if (!ec) {
        ::chmod(directory_.c_str(), 0700);
        continue;
      }
      error = ec.value();
    }
    throw std::runtime_error(
        fmt::format("cannot make a spool file in '{}' (stream caching's "
                    "spool directory): {}",
                    directory_, std::strerror(error)));
  }
}

void StreamCaching::countSpooled(uint64_t bytes) const noexcept {
  spooled_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void StreamCaching::removeDirectory() const noexcept {
  if (directory_.empty()) return;
  // Only the spool files this process names (cos-*.tmp), then the folder if that left it
  // empty: a spool directory set to a folder that holds other files keeps them.
  std::error_code ec;
  for (std::filesystem::directory_iterator it(directory_, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with("cos-") && name.ends_with(".tmp")) ::unlink(it->path().c_str());
  }
  ::rmdir(directory_.c_str());
}

SpoolBuffer::~SpoolBuffer() { discardFile(); }

void SpoolBuffer::reset(const StreamCaching* caching) noexcept {
  discardFile();
  caching_ = caching && caching->spools() ? caching : nullptr;
  memory_.clear();
  size_ = 0;
}

void SpoolBuffer::append(std::string_view data) {
  size_ += data.size();
  if (fd_ >= 0) {
    if (!writeAll(fd_, data)) {
      throw std::runtime_error(
          fmt::format("cannot write the spool file '{}': {}", path_, std::strerror(errno)));
    }
    return;
  }
  if (caching_ && size_ > static_cast<uint64_t>(caching_->options().spoolThreshold)) {
    spill(data);
    return;
  }
  memory_.append(data);
}

// Past the threshold: what is in memory, then `more`, to a new spool file.
void SpoolBuffer::spill(std::string_view more) {
  fd_ = caching_->createSpoolFile(path_);
  if (!writeAll(fd_, memory_) || !writeAll(fd_, more)) {
    std::string why = std::strerror(errno);
    discardFile();
    throw std::runtime_error(fmt::format("cannot write the spool file '{}': {}", path_, why));
  }
  memory_.clear();
}

void SpoolBuffer::moveInto(Value& body) {
  if (fd_ < 0) {
    std::string& text = body.resetString();
    text.swap(memory_);
    return;
  }
  ::close(fd_);
  fd_ = -1;
  caching_->countSpooled(size_);
  body = Value::makeObject<FileBody>(FileBody::Temporary{}, std::move(path_));
  path_.clear();
}

std::string SpoolBuffer::takeText() {
  if (fd_ < 0) return std::move(memory_);
  std::string text;
  FileBody(path_).appendTo(text);
  discardFile();
  return text;
}

void SpoolBuffer::discardFile() noexcept {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(path_.c_str());
  fd_ = -1;
  path_.clear();
}

}  // namespace dromedary
