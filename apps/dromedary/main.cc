// SPDX-License-Identifier: Apache-2.0
// The dromedary command: `run`, `validate`, `eval simple EXPR`, `components [SCHEME]`,
// `eips [NAME]`, `kamelets [NAME]`, `version`. Exit codes: 0 success, 1 failure (a route that does not load or
// start, an expression that fails), 2 usage error.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include <dromedary/dromedary.h>
#include <dromedary/dsl/kamelets.h>
#include <dromedary/dsl/route_loader.h>

#include "eval_command.h"
#include "get_command.h"
#include "run_command.h"

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
  // Before any thread starts: `run` waits for these signals itself.
  dromedary::cli::blockStopSignals();
  CLI::App app{"Dromedary: a native integration engine (Camel routes, no JVM).\n"
               "exit codes: 0 success, 1 failure, 2 usage error"};
  app.require_subcommand(1);

  app.add_subcommand("version", "print the version");

  std::string scheme;
  CLI::App* components =
      app.add_subcommand("components", "list the components in this build, or one's options");
  components->add_option("scheme", scheme, "a component's scheme, e.g. direct");

  std::string eip_name;
  bool eips_markdown = false;
  CLI::App* eips = app.add_subcommand(
      "eips", "list the EIPs route files may use, or one's keys and attributes");
  eips->add_option("name", eip_name, "an EIP's key (or Camel's alias), e.g. setHeader");
  eips->add_flag("--markdown", eips_markdown, "the whole reference (docs/eip-reference.md)");

  std::string kamelet_name;
  std::vector<std::string> kamelet_folders;
  std::vector<std::string> kamelet_properties;
  CLI::App* kamelets = app.add_subcommand(
      "kamelets", "list the Kamelets routes can use, or one's properties");
  kamelets->add_option("name", kamelet_name, "a Kamelet's name, e.g. timer-source");
  kamelets->add_option("--kamelets", kamelet_folders,
                       "a folder of Kamelet files (NAME.kamelet.yaml), searched first (repeatable)")
      ->allow_extra_args(false);
  kamelets->add_option("--properties", kamelet_properties,
                       "a .properties file (camel.component.kamelet.location ...)");

  dromedary::cli::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand(
      "run", "run routes from Camel YAML/XML files until Ctrl-C, SIGTERM or a limit");
  run_cmd->add_option("paths", run.paths, "route files (.yaml, .yml, .xml) and directories")
      ->required();
  run_cmd->add_option("--properties", run.properties,
                      "a .properties file, loaded before the routes (repeatable)");
  run_cmd->add_option("--kamelets", run.kamelets,
                      "a folder of Kamelet files (NAME.kamelet.yaml), searched before the "
                      "shipped Kamelets (repeatable)")
      ->allow_extra_args(false);
  run_cmd->add_option("--max-messages", run.maxMessages,
                      "stop after this many exchanges finished a route");
  run_cmd->add_option("--max-seconds", run.maxSeconds, "stop after this many seconds");
  run_cmd->add_option("--log-level", run.logLevel, "TRACE, DEBUG, INFO, WARN, ERROR or OFF")
      ->capture_default_str();
  run_cmd->add_option("--management-port", run.managementPort,
                      "serve the management API and /metrics on this port (off by default)");
  run_cmd->add_option("--management-host", run.managementHost,
                      "the address the management server binds")
      ->capture_default_str();
  run_cmd->add_option("--management-token", run.managementToken,
                      "allow route control (POST) with 'Authorization: Bearer TOKEN'; "
                      "prefer $DROMEDARY_MANAGEMENT_TOKEN: a command line is visible in ps");
  run_cmd->add_flag("--management-allow-loopback-control", run.managementLoopbackControl,
                    "allow route control without a token when bound to loopback");

  dromedary::cli::GetOptions get;
  CLI::App* get_cmd = app.add_subcommand(
      "get", "show a running instance's routes, endpoints, health, context or cluster "
             "leadership (management API)");
  get_cmd->add_option("what", get.what, "routes, endpoints, health, context or cluster")
      ->required()
      ->check(CLI::IsMember({"routes", "endpoints", "health", "context", "cluster"}));
  get_cmd->add_option("--url", get.url, "the management API of the instance")
      ->capture_default_str();

  dromedary::cli::RunOptions validate;
  validate.logLevel = "WARN";
  CLI::App* validate_cmd = app.add_subcommand(
      "validate", "load and compile routes from files without starting them; exit 0 or 1");
  validate_cmd->add_option("paths", validate.paths, "route files and directories")->required();
  validate_cmd->add_option("--properties", validate.properties, "a .properties file");
  validate_cmd->add_option("--kamelets", validate.kamelets,
                           "a folder of Kamelet files, searched first (repeatable)")
      ->allow_extra_args(false);

  dromedary::cli::EvalOptions eval;
  CLI::App* eval_cmd = app.add_subcommand(
      "eval", "evaluate an expression on a message given on the command line");
  eval_cmd->add_option("language", eval.language, "the language (simple)")->required();
  eval_cmd->add_option("expression", eval.expression, "the expression text")->required();
  eval_cmd->add_option("--body", eval.body, "the message body (text)");
  eval_cmd->add_option("--header", eval.headers, "a header as key=value (repeatable)");
  eval_cmd->add_option("--property", eval.properties,
                       "an exchange property as key=value (repeatable)");
  eval_cmd->add_flag("--predicate", eval.predicate,
                     "evaluate as a predicate and print true or false");
  eval_cmd->footer(
      "example:\n"
      "  dromedary eval simple 'Hello ${body} from ${header.from}' --body World "
      "--header from=Camel\n"
      "  dromedary eval simple --predicate \"\\${header.n} > 3\" --header n=4");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (app.got_subcommand("version")) {
    std::printf("dromedary %s\n", dromedary::kVersion);
    return 0;
  }
  if (app.got_subcommand(components)) return listComponents(scheme);
  if (app.got_subcommand(eips)) return listEips(eip_name, eips_markdown);
  if (app.got_subcommand(kamelets)) {
    return listKamelets(kamelet_name, kamelet_folders, kamelet_properties);
  }
  if (app.got_subcommand(run_cmd)) return dromedary::cli::runRoutes(run);
  if (app.got_subcommand(validate_cmd)) return dromedary::cli::validateRoutes(validate);
  if (app.got_subcommand(get_cmd)) return dromedary::cli::runGet(get);
  eval.hasBody = eval_cmd->count("--body") > 0;
  return dromedary::cli::runEval(eval);
}
