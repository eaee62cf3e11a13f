// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/charset.h>

#include <iconv.h>

#include <cerrno>
#include <stdexcept>

#include <fmt/format.h>

#include "core/text.h"

namespace dromedary {

bool isUtf8Charset(std::string_view charset) noexcept {
  return charset.empty() || equalsIgnoreCaseAscii(charset, "UTF-8") ||
         equalsIgnoreCaseAscii(charset, "UTF8");
}

bool isKnownCharset(const std::string& charset) noexcept {
  if (isUtf8Charset(charset)) return true;
  iconv_t cd = iconv_open("UTF-8", charset.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  iconv_close(cd);
  return true;
}

std::string encodeText(std::string_view text, const std::string& charset) {
  if (isUtf8Charset(charset)) return std::string(text);
  iconv_t cd = iconv_open(charset.c_str(), "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    throw std::runtime_error(fmt::format("unknown charset '{}'", charset));
  }
  std::string out(text.size() + 16, '\0');
  char* in = const_cast<char*>(text.data());  // iconv's signature; the input is not written
  size_t in_left = text.size();
  size_t used = 0;
  while (in_left > 0) {
    char* to = out.data() + used;
    size_t out_left = out.size() - used;
    size_t r = iconv(cd, &in, &in_left, &to, &out_left);
    used = out.size() - out_left;
    if (r != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    const size_t at = text.size() - in_left;
    iconv_close(cd);
    throw std::runtime_error(fmt::format("the text cannot be written in {}: {} at byte {}",
                                         charset,
                                         errno == EILSEQ ? "a character it cannot hold"
                                                         : "an incomplete UTF-8 sequence",
                                         at));
  }
  iconv_close(cd);
  out.resize(used);
  return out;
}

}  // namespace dromedary
