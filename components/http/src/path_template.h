// SPDX-License-Identifier: Apache-2.0
#pragma once

// A consumer's path with Camel's REST parameters: "/users/{id}/orders" matches
// "/users/42/orders" and binds id=42. Parsed once when the consumer is created; matching a
// request walks the segments without allocating beyond the bound values.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>

namespace dromedary::component::http {

class PathTemplate {
 public:
  /// Parses `path` ("/a/{b}/c"; leading and trailing slashes do not matter). Errors name the
  /// path: an unclosed or empty {}, a parameter inside a segment's text ("a{b}"), a
  /// parameter named twice.
  static Result<PathTemplate> parse(std::string_view path);

  /// Does `path` (a request's path, still percent-encoded) match? With `prefix`, a longer
  /// path whose first segments match does too (Camel's matchOnUriPrefix). Bound parameters
  /// go to `params` (decoded) when it is given.
  bool match(std::string_view path, bool prefix,
             std::vector<std::pair<std::string, std::string>>* params) const;

  /// "/a/{b}/c": the canonical text, for messages and to find two consumers on one path.
  const std::string& text() const noexcept { return text_; }
  size_t parameterCount() const noexcept { return parameters_; }
  /// Same segments, parameters compared by position only ("/a/{x}" and "/a/{y}" are one path).
  bool samePath(const PathTemplate& other) const noexcept;

 private:
  struct Segment {
    std::string text;  // the literal, or the parameter's name
    bool parameter;
  };
  std::vector<Segment> segments_;
  std::string text_;
  size_t parameters_ = 0;
};

/// Percent-decodes `text` ('+' stays '+' in a path, is a space in a query: `plusIsSpace`).
/// Malformed escapes are kept as written.
std::string percentDecode(std::string_view text, bool plusIsSpace);

}  // namespace dromedary::component::http
