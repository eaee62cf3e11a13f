// SPDX-License-Identifier: Apache-2.0
#pragma once

/// StreamBody: a body whose items are read one at a time, once (Camel's Iterator body, such as
/// the sql component's `outputType=StreamList`). `split` walks it item by item, so a result of
/// any size goes through in bounded memory; converting it to a list or to text reads what is
/// left of it. Logs and traces show it without reading it. What it holds (a database
/// connection ...) is let go when the last message holding it does.

#include <dromedary/core/value.h>

#include <memory>
#include <string>

namespace dromedary {

/// The source of a StreamBody's items. Used by one thread at a time.
class ValueStream {
 public:
  virtual ~ValueStream() = default;
  /// The next item into `out`: false after the last. Throws std::runtime_error saying why
  /// an item could not be read.
  virtual bool next(Value& out) = 0;
};

class StreamBody {
 public:
  /// `type` names the stream for logs, as Camel's log names a body it does not read.
  StreamBody(std::shared_ptr<ValueStream> stream, std::string type)
      : stream_(std::move(stream)), type_(std::move(type)) {}

  ValueStream& stream() const noexcept { return *stream_; }
  /// "[Body is instance of TYPE]".
  std::string logText() const { return "[Body is instance of " + type_ + "]"; }
  /// Reads the items that are left into a list (what converting the body to a list or to
  /// text does). Throws as ValueStream::next.
  ValueList readRest() const;

 private:
  std::shared_ptr<ValueStream> stream_;
  std::string type_;
};

}  // namespace dromedary
