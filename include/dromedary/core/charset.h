// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Character sets of text read from and written to files (the file component's `charset`),
/// converted with the C library's iconv. Text inside Dromedary is UTF-8.

#include <string>
#include <string_view>

namespace dromedary {

/// True when `charset` is empty or names UTF-8: text passes as it is.
bool isUtf8Charset(std::string_view charset) noexcept;

/// True when the C library converts between `charset` and UTF-8 (Java's names such as
/// ISO-8859-1, windows-1252, US-ASCII or UTF-16 are among them).
bool isKnownCharset(const std::string& charset) noexcept;

/// `text` (UTF-8) written in `charset`. Throws std::runtime_error naming the charset and the
/// offset of the first character it cannot hold.
std::string encodeText(std::string_view text, const std::string& charset);

}  // namespace dromedary
