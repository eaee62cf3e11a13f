// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Endpoint URIs: `scheme:path?option=value&...`.
///
/// Parsing splits the scheme, the path (a leading `//` is dropped, so `direct:a` and
/// `direct://a` are the same endpoint) and the options, percent-decoding option values
/// (`+` is a space; `RAW(...)` keeps a value verbatim). The normalised form, used as the
/// endpoint cache key, is `scheme://path?options` with options sorted by name:
///   Uri::parse("direct:a?timeout=5&block=false")->normalized() == "direct://a?block=false&timeout=5"
/// Parsing happens once, when a route starts; never per message.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>

namespace dromedary {

namespace detail {
/// A vector that is usually empty, held by a pointer: 8 bytes rather than 24 in what is kept
/// by the thousand (an endpoint's URI and options). Copies are deep.
template <class T>
class RareVector {
 public:
  RareVector() = default;
  RareVector(const RareVector& other)
      : v_(other.v_ ? std::make_unique<std::vector<T>>(*other.v_) : nullptr) {}
  RareVector(RareVector&&) noexcept = default;
  RareVector& operator=(const RareVector& other) {
    if (this != &other) v_ = other.v_ ? std::make_unique<std::vector<T>>(*other.v_) : nullptr;
    return *this;
  }
  RareVector& operator=(RareVector&&) noexcept = default;

  /// The elements (an empty vector when there are none).
  const std::vector<T>& get() const noexcept {
    static const std::vector<T> none;
    return v_ ? *v_ : none;
  }
  /// The vector to change, made on first use.
  std::vector<T>& edit() {
    if (!v_) v_ = std::make_unique<std::vector<T>>();
    return *v_;
  }

 private:
  std::unique_ptr<std::vector<T>> v_;
};
}  // namespace detail

class Uri {
 public:
  using Option = std::pair<std::string, std::string>;

  /// Parses `text`. Errors: a missing or malformed scheme, an empty option name,
  /// a bad percent escape. A repeated option is kept, in the order written (an option table
  /// refuses a repeated option it names).
  static Result<Uri> parse(std::string_view text);

  const std::string& text() const noexcept { return text_; }
  /// The scheme and the path: views of normalized(), for as long as the Uri lives.
  std::string_view scheme() const noexcept {
    return std::string_view(normalized_).substr(0, scheme_size_);
  }
  std::string_view path() const noexcept {
    return std::string_view(normalized_).substr(scheme_size_ + 3, path_size_);
  }
  /// Decoded options sorted by name.
  const std::vector<Option>& options() const noexcept { return options_.get(); }
  /// The decoded value of an option, or nullptr.
  const std::string* option(std::string_view name) const noexcept;
  /// `scheme://path?a=1&b=2`: the endpoint's identity.
  const std::string& normalized() const noexcept { return normalized_; }

 private:
  // The scheme and path are in normalized_ ("scheme://path?..."): an endpoint is kept for the
  // context's life, and a context may have tens of thousands.
  std::string text_, normalized_;
  uint32_t scheme_size_ = 0;
  uint32_t path_size_ = 0;
  detail::RareVector<Option> options_;  // most endpoints' URIs have none
};

/// Percent-encodes an option value for a normalised URI.
std::string encodeUriComponent(std::string_view text);

}  // namespace dromedary
