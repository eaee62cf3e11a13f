// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/file_body.h>
#include <dromedary/core/type_converter.h>
#include <fcntl.h>
#include <iconv.h>
#include <fmt/format.h>

#include <dromedary/core/charset.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dromedary {

namespace {
[[noreturn]] void failOn(const std::string& path, int error) {
  throw std::runtime_error(
      fmt::format("cannot read the file '{}': {}", path, std::strerror(error)));
}

// Text and bytes conversions through the registry (Value::as<std::string>(), tryAs ...),
// registered before main: a FileBody converts wherever a Value does.
const bool kConvertersRegistered = [] {
  registerTypeName<FileBody>("GenericFile");
  auto& registry = TypeConverterRegistry::global();
  registry.add(typeIdOf<FileBody>(), typeIdOf<std::string>(), [](const Value& in, Value& out) {
    const FileBody* f = in.getIf<FileBody>();
    if (!f) return false;
    std::string text;
    f->appendTo(text);
    out = Value(std::move(text));
    return true;
  });
  registry.add(typeIdOf<FileBody>(), typeIdOf<Bytes>(), [](const Value& in, Value& out) {
    const FileBody* f = in.getIf<FileBody>();
    if (!f) return false;
    std::string data;
    f->appendTo(data);
    out = Value(Bytes(std::move(data)));
    return true;
  });
  return true;
}();
}  // namespace

namespace detail {
void loadFileBodyObject(Value& body) {
  const FileBody* file = body.getIf<FileBody>();
  if (!file || file->temporary()) return;
  std::string text;
  file->appendTo(text);
  body = Value(std::move(text));
}
}  // namespace detail

FileBody::~FileBody() {
  if (temporary_) ::unlink(path_.c_str());  // gone already when the spool folder was removed
}

void FileBody::appendTo(std::string& out) const {
  FileChunkReader reader(path_, charset_);
  struct stat st {};
  if (::fstat(reader.fd(), &st) == 0 && st.st_size > 0) {
    out.reserve(out.size() + static_cast<size_t>(st.st_size));
  }
  char buffer[65536];
  while (size_t n = reader.read(buffer, sizeof buffer)) out.append(buffer, n);
}

FileChunkReader::FileChunkReader(const std::string& path, const std::string& charset)
    : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), path_(path), charset_(charset) {
  if (fd_ < 0) failOn(path_, errno);
  if (isUtf8Charset(charset_)) return;
  iconv_t cd = iconv_open("UTF-8", charset_.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    ::close(fd_);
    throw std::runtime_error(
        fmt::format("cannot read the file '{}': unknown charset '{}'", path_, charset_));
  }
  iconv_ = cd;
}

FileChunkReader::~FileChunkReader() {
  if (iconv_) iconv_close(static_cast<iconv_t>(iconv_));
  ::close(fd_);
}

size_t FileChunkReader::read(char* buffer, size_t n) {
  return iconv_ ? readConverted(buffer, n) : readRaw(buffer, n);
}

// Converts what is read: a character cut by a read's end waits in raw_ for the next read.
size_t FileChunkReader::readConverted(char* buffer, size_t n) {
  for (;;) {
    if (rawAt_ == raw_.size() || (!eof_ && raw_.size() - rawAt_ < 16)) {
      raw_.erase(0, rawAt_);
      offset_ += rawAt_;
      rawAt_ = 0;
      if (!eof_) {
        const size_t had = raw_.size();
        raw_.resize(had + 65536);
        const size_t got = readRaw(raw_.data() + had, 65536);
        raw_.resize(had + got);
        eof_ = got == 0;
      }
      if (raw_.empty()) return 0;
    }
    char* in = raw_.data() + rawAt_;
    size_t in_left = raw_.size() - rawAt_;
    char* out = buffer;
    size_t out_left = n;
    size_t r = iconv(static_cast<iconv_t>(iconv_), &in, &in_left, &out, &out_left);
    const int error = errno;
    rawAt_ = raw_.size() - in_left;
    const size_t made = n - out_left;
    if (r != static_cast<size_t>(-1) || error == E2BIG || (error == EINVAL && !eof_)) {
      if (made > 0) return made;
      if (error == E2BIG) {
        throw std::runtime_error(fmt::format("cannot read the file '{}': a buffer of {} bytes "
                                             "holds no character",
                                             path_, n));
      }
      continue;  // the rest of a character is still to be read
    }
    throw std::runtime_error(fmt::format(
        "cannot read the file '{}' as {}: {} at byte {}", path_, charset_,
        error == EILSEQ ? "bytes that are not text in it" : "an incomplete character at the end",
        offset_ + rawAt_));
  }
}

size_t FileChunkReader::readRaw(char* buffer, size_t n) {
  for (;;) {
    ssize_t got = ::read(fd_, buffer, n);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno != EINTR) failOn(path_, errno);
  }
}

}  // namespace dromedary
