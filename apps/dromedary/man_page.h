// SPDX-License-Identifier: Apache-2.0
#pragma once

// The man pages and the bash completion, printed from the command's own definition (cli.cc),
// so that they say what `--help` says.

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace dromedary::cli {

/// dromedary.1 and one dromedary-SUBCOMMAND.1 per visible subcommand: {file name, roff text}.
std::vector<std::pair<std::string, std::string>> manPages(const CLI::App& app);

/// Writes manPages(app) into `folder` (made when missing). Exit code 0, or 1 with the error.
int writeManPages(const CLI::App& app, const std::string& folder);

/// A bash completion script: subcommands, then each one's options (and files where a
/// subcommand takes paths).
std::string bashCompletion(const CLI::App& app);

}  // namespace dromedary::cli
