// SPDX-License-Identifier: Apache-2.0
#include "file_producer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include <dromedary/core/charset.h>
#include <dromedary/core/file_body.h>

#include "file_io.h"
#include "file_names.h"

namespace dromedary::component::file {

namespace {

std::string evaluateText(Exchange& ex, const Expression& expr, std::string_view what) {
  Value scratch;
  const Value* v = expr.evaluate(ex, scratch);
  if (!v) throw std::runtime_error(fmt::format("{}: {}", what, ex.error().message()));
  return v->toString();
}

// Writes `data` then `tail` (appendChars) in one system call when the kernel takes them whole.
void writeAll(int fd, std::string_view data, const std::string& path, std::string_view tail = {}) {
  while (!data.empty() || !tail.empty()) {
    iovec parts[2] = {{const_cast<char*>(data.data()), data.size()},
                      {const_cast<char*>(tail.data()), tail.size()}};
    ssize_t n = data.empty() ? ::writev(fd, parts + 1, 1) : ::writev(fd, parts, 2);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    }
    size_t done = static_cast<size_t>(n);
    size_t from_data = std::min(done, data.size());
    data.remove_prefix(from_data);
    tail.remove_prefix(done - from_data);
  }
}

// A file body is copied in chunks: a file of any size in bounded memory.
void copyAll(int fd, const FileBody& from, const std::string& path) {
  FileChunkReader reader(from.path(), from.charset());
  constexpr size_t kChunk = 256 * 1024;
  auto buffer = std::make_unique<char[]>(kChunk);
  while (size_t n = reader.read(buffer.get(), kChunk)) writeAll(fd, {buffer.get(), n}, path);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

class FileProducer final : public Producer {
 public:
  explicit FileProducer(std::shared_ptr<ProducerSettings> s) : s_(std::move(s)) {}

  Status process(Exchange& ex) override {
    try {
      write(ex);
    } catch (const std::exception& e) {
      ex.failWithDetail(ErrorCode::Io, "Cannot write file", e.what());
      return Status::Fail;
    }
    return ex.failed() ? Status::Fail : Status::Continue;
  }

 private:
  void write(Exchange& ex) {
    std::string name = s_->fileName ? evaluateText(ex, *s_->fileName, "fileName") : "";
    if (name.empty()) {
      const Value* header = ex.message().getHeader("CamelFileName");
      name = header && !header->isNull() ? header->toString() : ex.exchangeId();
    }
    if (s_->flatten) name = std::string(onlyName(name));
    if (s_->jail && !staysInside(name)) {
      throw std::runtime_error(fmt::format(
          "the file name '{}' leaves the folder '{}' (jailStartingDirectory=true)", name,
          s_->directory));
    }
    const std::string target = normalizePath(name.front() == '/' ? name : s_->directory + "/" + name);
    const std::string folder(parentOf(target));

    // Only the choices that depend on the target being there look for it: Override and a plain
    // Append are the open's own flags (O_TRUNC, O_APPEND|O_CREAT). A line per exchange into
    // one file costs open, write and close (it was six system calls).
    const bool temp_wanted = s_->tempFileName || !s_->tempPrefix.empty();
    const bool look = s_->fileExist == FileExist::Fail || s_->fileExist == FileExist::Ignore ||
                      s_->fileExist == FileExist::Move ||
                      (s_->fileExist == FileExist::Append && temp_wanted);
    bool append = s_->fileExist == FileExist::Append && !look;
    if (look && exists(target)) {
      switch (s_->fileExist) {
        case FileExist::Override:
        case FileExist::TryRename: break;
        case FileExist::Append: append = true; break;
        case FileExist::Ignore: return;
        case FileExist::Fail:
          throw std::runtime_error(
              fmt::format("the file '{}' exists already (fileExist=Fail)", target));
        case FileExist::Move: {
          // A plain name is a folder beside the file; the File tokens stand for the file.
          std::string to = s_->moveExisting.find("${") == std::string::npos
                               ? s_->moveExisting + "/" + std::string(onlyName(target))
                               : replaceFileTokens(s_->moveExisting, onlyName(target));
          if (to.front() != '/') to = folder + "/" + to;
          renameInto(target, normalizePath(to));
          break;
        }
      }
    }

    std::string temp;
    if (!append && s_->tempFileName) {
      temp = normalizePath(folder + "/" + evaluateText(ex, *s_->tempFileName, "tempFileName"));
    } else if (!append && !s_->tempPrefix.empty()) {
      temp = folder + "/" + s_->tempPrefix + std::string(onlyName(target));
    }
    const std::string& written = temp.empty() ? target : temp;
    writeBody(ex, written, append);
    if (!temp.empty()) {
      if (s_->fileExist == FileExist::TryRename) {
        // Only a rename, never a delete first: it fails when the target is there.
        if (exists(target)) {
          throw std::runtime_error(fmt::format("cannot rename '{}' to '{}': the target exists "
                                               "(fileExist=TryRename)", temp, target));
        }
      } else if (s_->eagerDeleteTargetFile) {
        removeFile(target);
      }
      renameInto(temp, target);
    }
    if (s_->keepLastModified) keepModified(ex, target);
    if (!s_->doneFileName.empty()) writeDoneFile(target);
    ex.message().setHeader("CamelFileNameProduced", Value(std::string_view(absolutePath(target))));
  }

  void writeBody(Exchange& ex, const std::string& path, bool append) {
    // In a charset: the text is made first (in memory, as Camel does), so a body it cannot
    // hold fails before the file is touched.
    std::string encoded;
    const bool convert = !s_->charset.empty();
    if (convert) {
      std::string text;
      std::as_const(ex).message().body().appendTo(text);
      text += s_->appendChars;
      encoded = encodeText(text, s_->charset);
    }
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
    mode_t mode = s_->chmod < 0 ? 0644 : static_cast<mode_t>(s_->chmod);
    int fd = ::open(path.c_str(), flags, mode);
    if (fd < 0 && errno == ENOENT && s_->autoCreate) {
      // The folder is made when the first write finds it missing, not looked for each time.
      createFolders(std::string(parentOf(path)), s_->chmodDirectory);
      fd = ::open(path.c_str(), flags, mode);
    }
    if (fd < 0) {
      throw std::runtime_error(fmt::format("cannot open '{}' for writing: {}", path,
                                           std::strerror(errno)));
    }
    try {
      const Value& body = std::as_const(ex).message().body();
      const std::string_view tail = s_->appendChars;
      if (convert) {
        writeAll(fd, encoded, path);
      } else if (body.isBytes()) {
        writeAll(fd, body.getBytes().view(), path, tail);
      } else if (body.isString()) {
        writeAll(fd, body.getString(), path, tail);
      } else if (const FileBody* file = body.getIf<FileBody>()) {
        copyAll(fd, *file, path);
        writeAll(fd, {}, path, tail);
      } else {
        std::string text;
        if (!body.isNull()) body.appendTo(text);
        writeAll(fd, text, path, tail);
      }
      if (s_->forceWrites && ::fsync(fd) != 0) {
        throw std::runtime_error(fmt::format("cannot sync '{}': {}", path, std::strerror(errno)));
      }
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (s_->chmod >= 0) ::fchmod(fd, mode);  // the umask does not apply to what was asked
    ::close(fd);
  }

  void keepModified(Exchange& ex, const std::string& path) {
    const Value* v = ex.message().getHeader("CamelFileLastModified");
    if (!v || v->isNull()) return;
    auto millis = v->tryAs<int64_t>();
    if (!millis) return;
    timespec times[2];
    times[0].tv_sec = 0;
    times[0].tv_nsec = UTIME_OMIT;
    times[1].tv_sec = *millis / 1000;
    times[1].tv_nsec = (*millis % 1000) * 1000000;
    ::utimensat(AT_FDCWD, path.c_str(), times, 0);
  }

  void writeDoneFile(const std::string& target) {
    std::string name = replaceFileTokens(s_->doneFileName, onlyName(target));
    std::string done = std::string(parentOf(target)) + "/" + name;
    int fd = ::open(done.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      throw std::runtime_error(fmt::format("cannot write the done file '{}': {}", done,
                                           std::strerror(errno)));
    }
    ::close(fd);
  }

  std::shared_ptr<ProducerSettings> s_;
};

}  // namespace

std::unique_ptr<Producer> makeFileProducer(std::shared_ptr<ProducerSettings> settings) {
  return std::make_unique<FileProducer>(std::move(settings));
}

}  // namespace dromedary::component::file
