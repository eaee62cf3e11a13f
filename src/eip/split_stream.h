// SPDX-License-Identifier: Apache-2.0
#pragma once

// The tokens of a file read in chunks: split/tokenize of a file body (FileBody) in bounded
// memory. The buffer holds the item being cut and at most a chunk more, whatever the size of
// the file.

#include <dromedary/core/file_body.h>
#include <dromedary/core/value_stream.h>
#include <re2/re2.h>

#include <exception>
#include <optional>
#include <utility>
#include <string>
#include <string_view>

#include "eip/fan_out.h"

namespace dromedary::eip {

class FileTokenStream final : public detail::FanOutSource {
 public:
  // `regex` (may be null) cuts instead of `token`; `group` tokens make an item. Opens the
  // file: throws std::runtime_error naming it.
  // `chunk` is how much a read asks for (small in tests, to put every edge in a token).
  FileTokenStream(const FileBody& file, std::string_view token, const RE2* regex, int group,
                  size_t chunk = 64 * 1024);

  // The next item, valid until the next call; nullopt after the last. Throws naming the file.
  std::optional<std::string_view> next();
  // Leaves out one token (skipFirst).
  void skipOne();
  // No item is left (reads ahead as needed). A trailing delimiter ends the text.
  bool atEnd();

 private:
  // Finds the next delimiter at or after `from`: its place and length, or false when the
  // text so far has none (reading more as needed).
  bool findDelimiter(size_t& from, size_t& start, size_t& at, size_t& len);
  // Reads a chunk after what is buffered, first dropping what is before `keep`; returns the
  // number of bytes dropped (positions move back by it). False at the end of the file.
  bool fill(size_t keep, size_t& dropped);

  FileChunkReader reader_;
  std::string_view token_;
  const RE2* regex_;
  int group_;
  size_t chunk_;
  std::string buffer_;
  size_t pos_ = 0;  // the start of what is not yet cut
  bool eof_ = false;
};

// The items of a StreamBody (an sql StreamList ...), one read ahead so that the split knows
// which is the last. A failure to read an item is given in that item's turn.
class ValueStreamSource final : public detail::FanOutSource {
 public:
  explicit ValueStreamSource(const StreamBody& body) : stream_(body.stream()) { advance(); }

  // The next item into `out`; false after the last. Throws the failure to read it.
  bool next(Value& out) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    if (!has_) return false;
    out = std::move(ahead_);
    advance();
    return true;
  }
  bool atEnd() const noexcept { return !has_ && !error_; }

 private:
  void advance() noexcept {
    try {
      has_ = stream_.next(ahead_);
    } catch (...) {
      has_ = false;
      error_ = std::current_exception();
    }
  }

  ValueStream& stream_;
  Value ahead_;
  bool has_ = false;
  std::exception_ptr error_;
};

}  // namespace dromedary::eip
