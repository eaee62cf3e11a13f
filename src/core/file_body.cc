// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/file_body.h>
#include <dromedary/core/type_converter.h>
#include <fcntl.h>
#include <fmt/format.h>
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
  if (!file) return;
  std::string text;
  file->appendTo(text);
  body = Value(std::move(text));
}
}  // namespace detail

void FileBody::appendTo(std::string& out) const {
  FileChunkReader reader(path_);
  struct stat st {};
  if (::fstat(reader.fd(), &st) == 0 && st.st_size > 0) {
    out.reserve(out.size() + static_cast<size_t>(st.st_size));
  }
  char buffer[65536];
  while (size_t n = reader.read(buffer, sizeof buffer)) out.append(buffer, n);
}

FileChunkReader::FileChunkReader(const std::string& path)
    : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), path_(path) {
  if (fd_ < 0) failOn(path_, errno);
}

FileChunkReader::~FileChunkReader() { ::close(fd_); }

size_t FileChunkReader::read(char* buffer, size_t n) {
  for (;;) {
    ssize_t got = ::read(fd_, buffer, n);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno != EINTR) failOn(path_, errno);
  }
}

}  // namespace dromedary
