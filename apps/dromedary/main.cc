// SPDX-License-Identifier: Apache-2.0
// The dromedary command: `run`, `validate`, `eval simple EXPR`, `components [SCHEME]`,
// `eips [NAME]`, `kamelets [NAME]`, `get`, `trace`, `top`, `init`, `completion`, `version`
// (defined in cli.cc).
// Exit codes: 0 success, 1 failure (a route that does not load or start, an expression that
// fails), 2 usage error.
#include <cstdio>
#include <string>

#include <dromedary/dromedary.h>
#include <dromedary/dsl/kamelets.h>
#include <dromedary/dsl/route_loader.h>

#include "cli.h"
#include "component_modules.h"
#include "man_page.h"
#include "stop_signals.h"
#include "version_command.h"

namespace {

int listComponents(const std::string& scheme) {
  dromedary::setLogLevel(dromedary::LoggingLevel::Warn);
  dromedary::Context context;
  dromedary::registerBuiltinComponents(context);
  if (scheme.empty()) {
    for (const std::string& s : context.componentSchemes()) std::printf("%s\n", s.c_str());
    return 0;
  }
  dromedary::Component* component = context.component(scheme);
  if (!component) {
    std::fprintf(stderr, "dromedary: unknown component '%s'\n", scheme.c_str());
    return 1;
  }
  // A module's component tells its options once its module is loaded.
  if (auto loaded = dromedary::modules::loadModuleOf(*component); !loaded) {
    std::fprintf(stderr, "dromedary: %s\n", loaded.error().message.c_str());
    return 1;
  }
  if (!component->syntax().empty()) {
    // The path's parts may also be given as parameters in route files.
    std::printf("Syntax: `%.*s`\n\n", static_cast<int>(component->syntax().size()),
                component->syntax().data());
  }
  std::fputs(dromedary::describeOptions(component->scheme(), component->endpointOptions()).c_str(),
             stdout);
  return 0;
}

// `dromedary eips`: every EIP route files may use with a line each; `--markdown` the whole
// reference (docs/eip-reference.md); `eips NAME` one EIP's keys and attributes.
int listEips(const std::string& name, bool markdown) {
  if (markdown) {
    std::fputs(dromedary::eipReference().c_str(), stdout);
    return 0;
  }
  if (name.empty()) {
    for (const auto& [key, description] : dromedary::eipSummaries()) {
      std::printf("%-20s %s\n", key.c_str(), description.c_str());
    }
    return 0;
  }
  auto reference = dromedary::eipReference(name);
  if (!reference) {
    std::fprintf(stderr, "dromedary: %s\n", reference.error().message.c_str());
    return 1;
  }
  std::fputs(reference->c_str(), stdout);
  return 0;
}

// `dromedary kamelets`: every Kamelet routes can use; `kamelets NAME` one's properties.
int listKamelets(const std::string& name, const std::vector<std::string>& folders,
                 const std::vector<std::string>& properties) {
  dromedary::setLogLevel(dromedary::LoggingLevel::Warn);
  dromedary::Context context;
  for (const std::string& file : properties) {
    if (auto loaded = context.properties().load(file); !loaded) {
      std::fprintf(stderr, "dromedary: %s\n", loaded.error().toString().c_str());
      return 1;
    }
  }
  dromedary::cli::setKameletFolders(context, folders);
  auto text = name.empty() ? dromedary::kameletList(context)
                           : dromedary::kameletReference(context, name);
  if (!text) {
    std::fprintf(stderr, "dromedary: %s\n", text.error().toString().c_str());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread starts: one thread takes SIGINT and SIGTERM for the whole process.
  dromedary::cli::blockStopSignals();
  dromedary::cli::Cli cli;
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = cli.app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (cli.app.got_subcommand(cli.version)) return dromedary::cli::printVersion(cli.versionJson);
  if (cli.app.got_subcommand(cli.components)) return listComponents(cli.scheme);
  if (cli.app.got_subcommand(cli.eips)) return listEips(cli.eipName, cli.eipsMarkdown);
  if (cli.app.got_subcommand(cli.kamelets)) {
    return listKamelets(cli.kameletName, cli.kameletFolders, cli.kameletProperties);
  }
  if (cli.app.got_subcommand(cli.run)) return dromedary::cli::runRoutes(cli.runOptions);
  if (cli.app.got_subcommand(cli.validate)) {
    return dromedary::cli::validateRoutes(cli.validateOptions);
  }
  if (cli.app.got_subcommand(cli.get)) return dromedary::cli::runGet(cli.getOptions);
  if (cli.app.got_subcommand(cli.trace)) return dromedary::cli::runTrace(cli.traceOptions);
  if (cli.app.got_subcommand(cli.top)) return dromedary::cli::runTop(cli.topOptions);
  if (cli.app.got_subcommand(cli.init)) return dromedary::cli::runInit(cli.initOptions);
  if (cli.app.got_subcommand(cli.completion)) {
    std::fputs(dromedary::cli::bashCompletion(cli.app).c_str(), stdout);
    return 0;
  }
  if (cli.app.got_subcommand(cli.man)) return dromedary::cli::writeManPages(cli.app, cli.manFolder);
  cli.evalOptions.hasBody = cli.eval->count("--body") > 0;
  return dromedary::cli::runEval(cli.evalOptions);
}
