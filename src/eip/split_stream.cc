// SPDX-License-Identifier: Apache-2.0
#include "eip/split_stream.h"

#include <algorithm>

namespace dromedary::eip {

FileTokenStream::FileTokenStream(const FileBody& file, std::string_view token, const RE2* regex,
                                 int group, size_t chunk)
    : reader_(file.path(), file.charset()),
      token_(token),
      regex_(regex),
      group_(group > 1 ? group : 1),
      chunk_(chunk) {
  buffer_.reserve(2 * chunk_);
}

bool FileTokenStream::fill(size_t keep, size_t& dropped) {
  dropped = 0;
  if (eof_) return false;
  if (keep > 0) {
    buffer_.erase(0, keep);
    dropped = keep;
  }
  const size_t had = buffer_.size();
  buffer_.resize(had + chunk_);
  const size_t n = reader_.read(buffer_.data() + had, chunk_);
  buffer_.resize(had + n);
  if (n == 0) eof_ = true;
  return n > 0;
}

bool FileTokenStream::atEnd() {
  size_t dropped;
  while (pos_ >= buffer_.size()) {
    const bool more = fill(pos_, dropped);
    pos_ -= dropped;
    if (!more) return true;
  }
  return false;
}

bool FileTokenStream::findDelimiter(size_t& from, size_t& start, size_t& at, size_t& len) {
  for (;;) {
    if (regex_) {
      re2::StringPiece input(buffer_.data(), buffer_.size());
      re2::StringPiece match;
      // An empty match would never advance: such a pattern does not cut. A match that reaches
      // the end of what is buffered may go on in the next chunk: read it first.
      if (regex_->Match(input, from, buffer_.size(), RE2::UNANCHORED, &match, 1) &&
          !match.empty() && (eof_ || match.end() < input.end())) {
        at = static_cast<size_t>(match.data() - buffer_.data());
        len = match.size();
        return true;
      }
    } else {
      size_t found = buffer_.find(token_, from);
      if (found != std::string::npos) {
        at = found;
        len = token_.size();
        return true;
      }
    }
    if (eof_) return false;
    // Search again from where a delimiter could still begin, once more is read (or, at the
    // end of the file, once more: a regex match that reached the end now counts).
    const size_t resume =
        regex_ ? from : std::max(from, buffer_.size() - std::min(buffer_.size(), token_.size()));
    size_t dropped;
    fill(start, dropped);
    start -= dropped;
    from = resume - dropped;
  }
}

std::optional<std::string_view> FileTokenStream::next() {
  if (atEnd()) return std::nullopt;
  size_t start = pos_;
  size_t cursor = pos_;
  size_t end = pos_;
  for (int i = 0; i < group_; ++i) {
    size_t at, len;
    if (!findDelimiter(cursor, start, at, len)) {
      end = buffer_.size();
      cursor = end;
      break;
    }
    end = at;
    cursor = at + len;
    if (i + 1 == group_) break;
    // A group ends early at the end of the text (a trailing delimiter ends it too).
    bool more = true;
    while (more && cursor >= buffer_.size()) {
      size_t dropped;
      more = fill(start, dropped);
      start -= dropped;
      cursor -= dropped;
      end -= dropped;
    }
    if (!more) break;
  }
  pos_ = cursor;
  return std::string_view(buffer_.data() + start, end - start);
}

void FileTokenStream::skipOne() {
  if (atEnd()) return;
  size_t start = pos_;
  size_t cursor = pos_;
  size_t at, len;
  pos_ = findDelimiter(cursor, start, at, len) ? at + len : buffer_.size();
}

}  // namespace dromedary::eip
