// SPDX-License-Identifier: Apache-2.0
#pragma once

/// FileBody: a message body that is a file's content, read when something uses it (Camel's
/// GenericFile body). The file consumer gives its exchanges one, so a route that only moves
/// files never reads them.
///
/// Converting it to text or bytes (Simple's `${body}`, `convertBodyTo`, `log`, `marshal`,
/// the body of an http or kafka send ...) reads the whole file, each time. `split` with
/// `tokenize` and the file producer read it in chunks instead, so a file of any size is
/// split or copied in bounded memory. A read that fails (the file was moved or deleted
/// meanwhile) throws std::runtime_error naming the file.

#include <dromedary/core/value.h>

#include <cstddef>
#include <string>

namespace dromedary {

class FileBody {
 public:
  explicit FileBody(std::string path) : path_(std::move(path)) {}

  /// The file the content is read from.
  const std::string& path() const noexcept { return path_; }

  /// Appends the file's whole content to `out`.
  void appendTo(std::string& out) const;

  /// How logs and traces show it without reading it, as Camel's do:
  /// "[Body is file based: GenericFile[PATH]]".
  std::string logText() const { return "[Body is file based: GenericFile[" + path_ + "]]"; }

 private:
  std::string path_;
};

namespace detail {
void loadFileBodyObject(Value& body);
}  // namespace detail

/// Replaces a FileBody held by `body` with the file's content (text); any other value is left
/// as it is. For a copy that outlives its exchange (a seda hand-off, a wire tap, an
/// aggregation, a resequencer, a claim check): the consumer moves the file once the exchange
/// completes. Throws std::runtime_error naming the file when it cannot be read.
inline void loadFileBody(Value& body) {
  if (body.isObject()) detail::loadFileBodyObject(body);
}

/// Reads a file from its start in chunks (split, copies). Not copyable.
class FileChunkReader {
 public:
  /// Opens the file; throws std::runtime_error naming it when it cannot.
  explicit FileChunkReader(const std::string& path);
  ~FileChunkReader();
  FileChunkReader(const FileChunkReader&) = delete;
  FileChunkReader& operator=(const FileChunkReader&) = delete;

  /// Reads up to `n` bytes into `buffer`: the count read, 0 at the end of the file.
  /// Throws std::runtime_error naming the file on a read error.
  size_t read(char* buffer, size_t n);

  /// The open descriptor (for copies the kernel makes).
  int fd() const noexcept { return fd_; }

 private:
  int fd_;
  std::string path_;
};

}  // namespace dromedary
