// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Stream caching (Camel's StreamCachingStrategy) for bodies that arrive as a stream, such as
/// the reply of an `http:` call. Such a body is kept in memory, unless spooling is on and it
/// grows past `spoolThreshold`: then it goes on in a temporary file of the spool directory,
/// and the body is a FileBody of that file (read when a step uses it, copied in chunks by the
/// file producer), deleted when the last message holding it lets go. So a 1 GB download
/// saved by a route takes a few hundred KB of memory.
///
/// Set from the properties Camel's main reads (Context::applyMainProperties):
///   camel.main.streamCachingEnabled=true                     (default true)
///   camel.main.streamCachingSpoolEnabled=true                (default false, as Camel 4's)
///   camel.main.streamCachingSpoolThreshold=131072            (bytes; 0 or less: never spool)
///   camel.main.streamCachingSpoolDirectory=/var/spool/x-#uuid#
///       (default ${java.io.tmpdir}/camel/camel-tmp-#uuid#; ${java.io.tmpdir} is $TMPDIR or
///        /tmp, #uuid# a random id, #camelId# and #name# the context's name)
///   camel.main.streamCachingRemoveSpoolDirectoryWhenStopping=true   (default true)
///   camel.main.streamCachingBufferSize=4096                  (accepted: writes are unbuffered)

#include <dromedary/core/result.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace dromedary {

class Value;

struct StreamCachingOptions {
  bool enabled = true;
  bool spoolEnabled = false;
  std::string spoolDirectory = "${java.io.tmpdir}/camel/camel-tmp-#uuid#";
  int64_t spoolThreshold = 128 * 1024;
  int64_t bufferSize = 4096;
  bool removeSpoolDirectoryWhenStopping = true;
  bool operator==(const StreamCachingOptions&) const = default;
};

/// A context's stream caching: its options, the spool directory resolved, and counts of what
/// was spooled. Thread-safe.
class StreamCaching {
 public:
  /// Checks the options (an error names the option and its value) and resolves the
  /// directory's pattern; the directory itself is made on the first spool.
  static Result<std::shared_ptr<const StreamCaching>> make(StreamCachingOptions options,
                                                           std::string_view context_name);

  const StreamCachingOptions& options() const noexcept { return options_; }
  /// Whether a body past the threshold goes to a file (enabled, spoolEnabled, threshold > 0).
  bool spools() const noexcept { return spools_; }
  /// The spool directory, its pattern resolved.
  const std::string& directory() const noexcept { return directory_; }
  /// How many bodies went to a file, and their bytes, since the context was made.
  uint64_t spooledCount() const noexcept { return spooled_.load(std::memory_order_relaxed); }
  uint64_t spooledBytes() const noexcept { return bytes_.load(std::memory_order_relaxed); }

  /// A new temporary file in the spool directory (the directory made, mode 0700, when
  /// missing): its open descriptor, `path` set to its name. Throws std::runtime_error naming
  /// the directory when the file cannot be made.
  int createSpoolFile(std::string& path) const;
  /// Counts a body that went to a file.
  void countSpooled(uint64_t bytes) const noexcept;
  /// Removes the spool files left in the spool directory, then the directory when that left
  /// it empty (the context's stop, when removeSpoolDirectoryWhenStopping): other files in it
  /// are kept. Bodies still holding a spool file then fail to read it.
  void removeDirectory() const noexcept;

 private:
  StreamCachingOptions options_;
  std::string directory_;
  bool spools_ = false;
  mutable std::atomic<uint64_t> spooled_{0};
  mutable std::atomic<uint64_t> bytes_{0};
};

/// Collects a body that arrives in pieces: in memory up to the spool threshold, then in a
/// spool file. Reused from body to body (its buffer keeps its capacity). Not thread-safe.
class SpoolBuffer {
 public:
  SpoolBuffer() = default;
  ~SpoolBuffer();
  SpoolBuffer(const SpoolBuffer&) = delete;
  SpoolBuffer& operator=(const SpoolBuffer&) = delete;

  /// Starts a new body (a spool file of the last one not handed over is deleted). `caching`
  /// decides whether it may spool; nullptr: memory only.
  void reset(const StreamCaching* caching) noexcept;
  /// Adds bytes. Throws std::runtime_error naming the spool file when it cannot be written.
  void append(std::string_view data);
  /// The bytes so far.
  uint64_t size() const noexcept { return size_; }
  /// Whether the body went to a file.
  bool spooled() const noexcept { return fd_ >= 0; }
  /// The body into `body`: the bytes as a string (buffers swapped: no copy), or a FileBody of
  /// the spool file, deleted when the last Value holding it goes.
  void moveInto(Value& body);
  /// The whole body as text (a spool file read back and deleted): for an error's body.
  std::string takeText();

 private:
  void spill(std::string_view more);
  void discardFile() noexcept;

  const StreamCaching* caching_ = nullptr;
  std::string memory_;
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace dromedary
