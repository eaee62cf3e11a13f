// SPDX-License-Identifier: Apache-2.0
#pragma once

// The dromedary command's definition: every subcommand, option and help text, in one place.
// `--help`, the man pages (`dromedary man`) and the bash completion are all printed from it,
// so they cannot drift apart.

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "eval_command.h"
#include "get_command.h"
#include "top_command.h"
#include "trace_command.h"
#include "init_command.h"
#include "run_command.h"

namespace dromedary::cli {

/// The parsed command line: the app, its subcommands, and the options they fill in.
struct Cli {
  Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  CLI::App app;

  CLI::App* version = nullptr;
  bool versionJson = false;

  CLI::App* components = nullptr;
  std::string scheme;

  CLI::App* eips = nullptr;
  std::string eipName;
  bool eipsMarkdown = false;

  CLI::App* kamelets = nullptr;
  std::string kameletName;
  std::vector<std::string> kameletFolders;
  std::vector<std::string> kameletProperties;

  CLI::App* run = nullptr;
  RunOptions runOptions;

  CLI::App* validate = nullptr;
  RunOptions validateOptions;

  CLI::App* get = nullptr;
  GetOptions getOptions;

  CLI::App* top = nullptr;
  TopOptions topOptions;

  CLI::App* trace = nullptr;
  TraceOptions traceOptions;

  CLI::App* eval = nullptr;
  EvalOptions evalOptions;

  CLI::App* init = nullptr;
  InitOptions initOptions;

  CLI::App* completion = nullptr;
  std::string completionShell;

  CLI::App* man = nullptr;  ///< hidden: the build writes the man pages with it
  std::string manFolder;
};

}  // namespace dromedary::cli
