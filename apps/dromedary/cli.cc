// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

namespace dromedary::cli {

namespace {

// The options `run` and `validate` share: route files, properties and Kamelet folders.
void addLoadOptions(CLI::App& command, RunOptions& options, const char* paths_help) {
  command.add_option("paths", options.paths, paths_help);
  command.add_option("--properties", options.properties,
                     "a .properties file, loaded before the routes; its keys win over "
                     "application.properties' (repeatable)");
  command.add_option("--prop,--property", options.overrides,
                     "a property as KEY=VALUE, winning over every file's (repeatable)");
  command.add_option("--profile", options.profile,
                     "the profile (Camel JBang's): application-PROFILE.properties beside the "
                     "route files is loaded after application.properties; default dev");
  command
      .add_option("--kamelets", options.kamelets,
                  "a folder of Kamelet files (NAME.kamelet.yaml), searched before the shipped "
                  "Kamelets (repeatable)")
      ->allow_extra_args(false);
}

void addRun(Cli& cli) {
  RunOptions& run = cli.runOptions;
  cli.run = cli.app.add_subcommand(
      "run", "run routes from Camel YAML/XML files until Ctrl-C, SIGTERM or a limit");
  addLoadOptions(*cli.run, run,
                 "route files (.yaml, .yml, .xml) and folders; none: the current folder");
  cli.run->add_flag("--dev", run.dev,
                    "reload routes when their files, properties or Kamelets change: a file "
                    "that does not load is reported and the running routes are kept");
  cli.run->add_option("--max-messages", run.maxMessages,
                      "stop after this many exchanges finished a route");
  cli.run->add_option("--max-seconds", run.maxSeconds, "stop after this many seconds");
  cli.run->add_option("--log-level", run.logLevel, "TRACE, DEBUG, INFO, WARN, ERROR or OFF")
      ->capture_default_str();
  cli.run->add_option("--management-port", run.managementPort,
                      "serve the management API and /metrics on this port (off by default)");
  cli.run->add_option("--management-host", run.managementHost,
                      "the address the management server binds")
      ->capture_default_str();
  cli.run->add_option("--management-token", run.managementToken,
                      "allow route control (POST) with 'Authorization: Bearer TOKEN'; "
                      "prefer $DROMEDARY_MANAGEMENT_TOKEN: a command line is visible in ps");
  cli.run->add_flag("--management-allow-loopback-control", run.managementLoopbackControl,
                    "allow route control without a token when bound to loopback");
  cli.run->footer(
      "examples:\n"
      "  dromedary run routes/ --properties app.properties\n"
      "  dromedary run routes/ --prop camel.main.shutdownTimeout=5\n"
      "  dromedary run --dev orders.yaml   # edit orders.yaml: its routes reload on save\n"
      "Under systemd (Type=notify) it reports readiness once the routes have started.");
}

void addEval(Cli& cli) {
  EvalOptions& eval = cli.evalOptions;
  cli.eval = cli.app.add_subcommand(
      "eval", "evaluate an expression on a message given on the command line");
  cli.eval->add_option("language", eval.language, "the language (simple)")->required();
  cli.eval->add_option("expression", eval.expression, "the expression text")->required();
  cli.eval->add_option("--body", eval.body, "the message body (text)");
  cli.eval->add_option("--header", eval.headers, "a header as key=value (repeatable)");
  cli.eval->add_option("--property", eval.properties,
                       "an exchange property as key=value (repeatable)");
  cli.eval->add_flag("--predicate", eval.predicate,
                     "evaluate as a predicate and print true or false");
  cli.eval->footer(
      "examples:\n"
      "  dromedary eval simple 'Hello ${body} from ${header.from}' --body World "
      "--header from=Camel\n"
      "  dromedary eval simple --predicate \"\\${header.n} > 3\" --header n=4");
}

void addListings(Cli& cli) {
  cli.version = cli.app.add_subcommand("version", "print the version (and how it was built)");
  cli.version->add_flag("--json", cli.versionJson,
                        "version, commit, compiler, build type and components as JSON, for "
                        "bug reports");

  cli.components =
      cli.app.add_subcommand("components", "list the components in this build, or one's options");
  cli.components->add_option("scheme", cli.scheme, "a component's scheme, e.g. direct");

  cli.eips = cli.app.add_subcommand(
      "eips", "list the EIPs route files may use, or one's keys and attributes");
  cli.eips->add_option("name", cli.eipName, "an EIP's key (or Camel's alias), e.g. setHeader");
  cli.eips->add_flag("--markdown", cli.eipsMarkdown,
                     "the whole reference (docs/eip-reference.md)");

  cli.kamelets = cli.app.add_subcommand(
      "kamelets", "list the Kamelets routes can use, or one's properties");
  cli.kamelets->add_option("name", cli.kameletName, "a Kamelet's name, e.g. timer-source");
  cli.kamelets
      ->add_option("--kamelets", cli.kameletFolders,
                   "a folder of Kamelet files (NAME.kamelet.yaml), searched first (repeatable)")
      ->allow_extra_args(false);
  cli.kamelets->add_option("--properties", cli.kameletProperties,
                           "a .properties file (camel.component.kamelet.location ...)");
}

void addTools(Cli& cli) {
  InitOptions& init = cli.initOptions;
  cli.init = cli.app.add_subcommand(
      "init", "write a small working route file to start from (YAML or XML, by its name)");
  cli.init->add_option("file", init.file, "the file to write: NAME.yaml or NAME.xml")
      ->required();
  cli.init->add_option("--directory", init.directory,
                       "the folder to write it in (made when missing)")
      ->capture_default_str();
  cli.init->add_flag("--force", init.force, "replace the file when it exists");
  cli.init->footer("example:\n  dromedary init hello.yaml && dromedary run --dev hello.yaml");

  cli.completion = cli.app.add_subcommand(
      "completion", "print a shell completion script (source it, or install it as "
                    "/usr/share/bash-completion/completions/dromedary)");
  cli.completion->add_option("shell", cli.completionShell, "the shell")
      ->required()
      ->check(CLI::IsMember({"bash"}));

  // Hidden (no group): the build writes the man pages with it.
  cli.man = cli.app.add_subcommand("man", "write the man pages into a folder");
  cli.man->group("");
  cli.man->add_option("folder", cli.manFolder, "where dromedary.1 and dromedary-*.1 go")
      ->required();
}

}  // namespace

Cli::Cli()
    : app("Dromedary: a native integration engine (Camel routes, no JVM).\n"
          "exit codes: 0 success, 1 failure, 2 usage error",
          "dromedary") {
  app.require_subcommand(1);
  addListings(*this);
  addRun(*this);

  GetOptions& g = getOptions;
  get = app.add_subcommand("get", "show a running instance's routes, endpoints, health, "
                                  "context, cluster leadership or exchanges in flight "
                                  "(management API)");
  get->add_option("what", g.what,
                  "routes, endpoints, health, context, cluster, inflight or circuit-breaker")
      ->required()
      ->check(CLI::IsMember({"routes", "endpoints", "health", "context", "cluster", "inflight",
                             "circuit-breaker"}));
  get->add_option("--url", g.url, "the management API of the instance")->capture_default_str();
  get->add_flag("--watch,-w", g.watch, "show it again every --interval seconds until interrupted");
  get->add_option("--interval", g.interval, "seconds between refreshes with --watch")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();

  TraceOptions& t = traceOptions;
  trace = app.add_subcommand("trace", "show a running instance's traced messages (its backlog "
                                      "tracer, camel.trace.enabled), or --follow them");
  trace->add_option("--route", t.route, "only this route's messages");
  auto* follow = trace->add_flag("--follow,-f", t.follow,
                                 "keep printing new messages until interrupted");
  trace->add_flag("--last", t.last,
                  "the flight recorder instead: each route's last completed and failed "
                  "exchanges (always on)")
      ->excludes(follow);
  trace->add_option("--url", t.url, "the management API of the instance")->capture_default_str();

  TopOptions& o = topOptions;
  top = app.add_subcommand("top", "show a running instance's routes and processors by time, "
                                  "refreshed like top (management API)");
  top->add_option("--url", o.url, "the management API of the instance")->capture_default_str();
  top->add_option("--interval", o.interval, "seconds between refreshes")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  top->add_option("--iterations,-n", o.iterations, "refresh this many times, then exit")
      ->check(CLI::NonNegativeNumber);
  top->add_option("--sort", o.sort, "mean, max, total or rate")
      ->check(CLI::IsMember({"mean", "max", "total", "rate"}))
      ->capture_default_str();

  validateOptions.logLevel = "WARN";
  validate = app.add_subcommand(
      "validate", "load and compile routes from files without starting them; exit 0 or 1");
  addLoadOptions(*validate, validateOptions,
                 "route files and folders; none: the current folder");

  addEval(*this);
  addTools(*this);
}

}  // namespace dromedary::cli
