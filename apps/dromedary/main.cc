// SPDX-License-Identifier: Apache-2.0
// The dromedary command: `version`, `components [SCHEME]`, `eval simple EXPR`. `run` and
// `validate` come with the route-file loaders.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include <dromedary/dromedary.h>

#include "eval_command.h"

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
  std::fputs(dromedary::describeOptions(component->scheme(), component->endpointOptions()).c_str(),
             stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Dromedary: a native integration engine (Camel routes, no JVM).\n"
               "exit codes: 0 success, 1 failure, 2 usage error"};
  app.require_subcommand(1);

  app.add_subcommand("version", "print the version");

  std::string scheme;
  CLI::App* components =
      app.add_subcommand("components", "list the components in this build, or one's options");
  components->add_option("scheme", scheme, "a component's scheme, e.g. direct");

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
  eval.has_body = eval_cmd->count("--body") > 0;
  return dromedary::cli::runEval(eval);
}
