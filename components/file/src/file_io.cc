// SPDX-License-Identifier: Apache-2.0
#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include <dromedary/core/file_body.h>

#include "file_names.h"

namespace dromedary::component::file {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void failOn(std::string_view what, const std::string& path, int error) {
  throw std::runtime_error(fmt::format("{} '{}': {}", what, path, std::strerror(error)));
}
}  // namespace

std::string absolutePath(const std::string& path) {
  if (!path.empty() && path.front() == '/') return normalizePath(path);
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  return normalizePath(cwd.string() + "/" + path);
}

void setFileHeaders(Exchange& ex, const FileFacts& f) {
  Message& m = ex.message();
  const std::string absolute = absolutePath(f.path);
  std::string_view only = onlyName(f.relative);
  std::string_view parent = parentOf(f.path);
  m.setHeader("CamelFileName", Value(std::string_view(f.relative)));
  m.setHeader("CamelFileNameOnly", Value(only));
  m.setHeader("CamelFileNameConsumed", Value(std::string_view(f.relative)));
  m.setHeader("CamelFileAbsolutePath", Value(std::string_view(absolute)));
  m.setHeader("CamelFileRelativePath", Value(std::string_view(f.relative)));
  m.setHeader("CamelFileParent", Value(parent));
  m.setHeader("CamelFilePath", Value(std::string_view(f.path)));
  m.setHeader("CamelFileAbsolute", Value(!f.directory.empty() && f.directory.front() == '/'));
  m.setHeader("CamelFileLength", Value(f.size));
  m.setHeader("CamelFileLastModified", Value(f.modified));
}

void setFileBody(Exchange& ex, const std::string& path, const std::string& charset) {
  // Not read now (Camel's lazy GenericFile body); a file that cannot be read fails here, as
  // a read would, rather than in whichever step first looks at the body.
  if (::access(path.c_str(), R_OK) != 0) failOn("cannot read the file", path, errno);
  ex.message().setBody(Value::makeObject<FileBody>(absolutePath(path), charset));
}

void createFolders(const std::string& folder, const std::string& mode) {
  if (folder.empty()) return;
  std::error_code ec;
  if (fs::is_directory(folder, ec)) return;
  fs::create_directories(folder, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create the folder '{}': {}", folder, ec.message()));
  if (!mode.empty()) ::chmod(folder.c_str(), static_cast<mode_t>(std::stoul(mode, nullptr, 8)));
}

void renameInto(const std::string& from, const std::string& to) {
  if (from == to) return;
  createFolders(std::string(parentOf(to)));
  if (::rename(from.c_str(), to.c_str()) == 0) return;
  if (errno != EXDEV) {
    throw std::runtime_error(
        fmt::format("cannot move '{}' to '{}': {}", from, to, std::strerror(errno)));
  }
  // Another file system: copy, then delete.
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot copy '{}' to '{}': {}", from, to, ec.message()));
  removeFile(from);
}

void removeFile(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) failOn("cannot delete", path, errno);
}

}  // namespace dromedary::component::file
