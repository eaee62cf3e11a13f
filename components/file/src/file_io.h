// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the file component knows of a file and does to it: Camel's CamelFile* headers, the
// body read from it, moves that create the folders they need (and fall back to copy and
// delete across file systems), and paths made absolute.

#include <cstdint>
#include <string>

#include <dromedary/core/exchange.h>

namespace dromedary::component::file {

/// A file as a poll found it.
struct FileFacts {
  std::string directory;  ///< the endpoint's starting folder, as written in the URI
  std::string relative;   ///< its name under that folder ("sub/a.txt")
  std::string path;       ///< directory + "/" + relative
  int64_t size = 0;
  int64_t modified = 0;   ///< milliseconds since the epoch
};

/// Sets CamelFileName (the relative name), CamelFileNameOnly, CamelFileNameConsumed,
/// CamelFileAbsolutePath, CamelFileRelativePath, CamelFileParent, CamelFilePath,
/// CamelFileAbsolute, CamelFileLength and CamelFileLastModified, as Camel's file consumer.
void setFileHeaders(Exchange& exchange, const FileFacts& file);

/// The file as the body: a FileBody, read when something uses it. Throws naming the path
/// when the file cannot be read.
void setFileBody(Exchange& exchange, const std::string& path, const std::string& charset);

/// `path` made absolute against the working folder, normalised.
std::string absolutePath(const std::string& path);

/// Moves `from` to `to`, creating `to`'s folders; an existing `to` is replaced. Throws naming
/// both on failure.
void renameInto(const std::string& from, const std::string& to);

/// Deletes `path`; a file already gone is fine. Throws naming it on failure.
void removeFile(const std::string& path);

/// Creates `folder` and its parents (mode in octal text, empty for the default). Throws.
void createFolders(const std::string& folder, const std::string& mode = {});

}  // namespace dromedary::component::file
