// SPDX-License-Identifier: Apache-2.0
#pragma once

// File names as Camel's file component and File language see them: the only name, its
// extension (from the first dot, or the last with `single`), Ant path patterns, and the jail
// a producer's fileName must stay in.

#include <string>
#include <string_view>

namespace dromedary::component::file {

/// The name after the last '/'.
std::string_view onlyName(std::string_view name) noexcept;
/// The extension of the only name: after its first dot ("a.tar.gz" -> "tar.gz"), or after its
/// last with `single` ("gz"); empty without a dot.
std::string_view extensionOf(std::string_view name, bool single) noexcept;
/// `name` without the extension of its only name ("sub/a.tar.gz" -> "sub/a", or "sub/a.tar"
/// with `single`).
std::string_view withoutExtension(std::string_view name, bool single) noexcept;
/// The folder part of `name` ("sub/a.txt" -> "sub"), empty at the top.
std::string_view parentOf(std::string_view name) noexcept;

/// Whether `path` (relative, '/'-separated) matches the Ant pattern: `?` one character, `*`
/// any characters within a folder name, `**` any folders. Case-sensitive unless told.
bool antMatches(std::string_view pattern, std::string_view path, bool case_sensitive = true);
/// The same against any of a comma-separated list of patterns.
bool antMatchesAny(std::string_view patterns, std::string_view path, bool case_sensitive = true);

/// `pattern` with the File language tokens Camel allows in doneFileName and moveExisting
/// replaced for the file `name` (relative to its folder): ${file:name}, ${file:name.ext},
/// ${file:name.noext}, ${file:onlyname}, ${file:onlyname.noext}, ${file:ext}, ${file:parent}.
std::string replaceFileTokens(std::string_view pattern, std::string_view name);

/// `path` with "." and ".." folded and repeated '/' collapsed ("a/./b/../c" -> "a/c"); a
/// relative path that climbs above its start keeps its leading "..".
std::string normalizePath(std::string_view path);
/// Whether the relative `name` stays inside its starting folder once normalised (no leading
/// "..", not absolute).
bool staysInside(std::string_view name);

}  // namespace dromedary::component::file
