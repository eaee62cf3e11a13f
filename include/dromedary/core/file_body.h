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
#include <cstdint>
#include <string>

namespace dromedary {

class FileBody {
 public:
  /// `charset` is the file's (the consumer's `charset`): its text is read as UTF-8. Empty:
  /// the bytes as they are.
  explicit FileBody(std::string path, std::string charset = {})
      : path_(std::move(path)), charset_(std::move(charset)) {}
  /// A temporary file that is the body (a spooled stream, engine/stream_caching.h): deleted
  /// when this goes, that is when the last Value holding it goes.
  struct Temporary {};
  FileBody(Temporary, std::string path) : path_(std::move(path)), temporary_(true) {}
  ~FileBody();
  FileBody(const FileBody&) = delete;
  FileBody& operator=(const FileBody&) = delete;

  /// The file the content is read from.
  const std::string& path() const noexcept { return path_; }
  const std::string& charset() const noexcept { return charset_; }
  /// Whether the file is a temporary one this body owns.
  bool temporary() const noexcept { return temporary_; }

  /// Appends the file's whole content to `out`.
  void appendTo(std::string& out) const;

  /// How logs and traces show it without reading it, as Camel's do:
  /// "[Body is file based: GenericFile[PATH]]"; a spooled stream as Camel's log shows a
  /// stream cache it does not read, "[Body is instance of org.apache.camel.StreamCache]".
  std::string logText() const {
    if (temporary_) return "[Body is instance of org.apache.camel.StreamCache]";
    return "[Body is file based: GenericFile[" + path_ + "]]";
  }

 private:
  std::string path_;
  std::string charset_;
  bool temporary_ = false;
};

namespace detail {
void loadFileBodyObject(Value& body);
}  // namespace detail

/// Replaces a FileBody held by `body` with the file's content (text); any other value, and a
/// temporary file (it lives as long as a copy holds it), is left as it is. For a copy that
/// outlives its exchange (a seda hand-off, a wire tap, an aggregation, a resequencer, a claim
/// check): the consumer moves the file once the exchange completes. Throws std::runtime_error
/// naming the file when it cannot be read.
inline void loadFileBody(Value& body) {
  if (body.isObject()) detail::loadFileBodyObject(body);
}

/// Reads a file from its start in chunks (split, copies), its text converted from `charset`
/// to UTF-8 when one is given. Not copyable.
class FileChunkReader {
 public:
  /// Opens the file; throws std::runtime_error naming it when it cannot.
  explicit FileChunkReader(const std::string& path, const std::string& charset = {});
  ~FileChunkReader();
  FileChunkReader(const FileChunkReader&) = delete;
  FileChunkReader& operator=(const FileChunkReader&) = delete;

  /// Reads up to `n` bytes (n >= 8) into `buffer`: the count read, 0 at the end of the file.
  /// Throws std::runtime_error naming the file on a read error or, with a charset, on bytes
  /// that are not text in it.
  size_t read(char* buffer, size_t n);

  /// The open descriptor.
  int fd() const noexcept { return fd_; }

 private:
  size_t readRaw(char* buffer, size_t n);
  size_t readConverted(char* buffer, size_t n);

  int fd_;
  std::string path_;
  std::string charset_;
  void* iconv_ = nullptr;  // iconv_t, when converting
  std::string raw_;        // bytes read, not yet converted
  size_t rawAt_ = 0;
  uint64_t offset_ = 0;    // of raw_'s start in the file, for errors
  bool eof_ = false;
};

}  // namespace dromedary
