// SPDX-License-Identifier: Apache-2.0
#include "man_page.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include <dromedary/version.h>

#include "text_file.h"

namespace dromedary::cli {

namespace {

// Text as roff shows it literally: backslashes escaped, a leading '.' or '\'' kept from
// being read as a request, hyphens in option names kept from becoming dashes.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::vector<const CLI::App*> visibleSubcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> positionals(const CLI::App& command) {
  return command.get_options([](const CLI::Option* o) { return !o->nonpositional(); });
}

std::vector<const CLI::Option*> namedOptions(const CLI::App& command) {
  return command.get_options([](const CLI::Option* o) { return o->nonpositional(); });
}

// "--properties TEXT" or "--dev" (a flag takes no value).
std::string optionSynopsis(const CLI::Option& option) {
  std::string names = option.get_name(false, true);
  if (option.get_expected_max() == 0) return names;
  return fmt::format("{} {}", names, option.get_type_name());
}

std::string positionalSynopsis(const CLI::Option& option) {
  std::string name = option.get_name(true);
  if (option.get_items_expected_max() > 1) name += "...";
  return option.get_required() ? name : "[" + name + "]";
}

std::string header(std::string_view name, std::string_view summary) {
  std::string title(name);
  for (char& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return fmt::format(".TH {} 1 \"\" \"dromedary {}\" \"Dromedary Manual\"\n.SH NAME\n{} \\- {}\n",
                     roff(title), kVersion, roff(name), roff(summary));
}

std::string subcommandPage(const CLI::App& app, const CLI::App& sub) {
  std::string page = header(fmt::format("dromedary-{}", sub.get_name()), sub.get_description());
  page += fmt::format(".SH SYNOPSIS\n.B dromedary {}\n", roff(sub.get_name()));
  for (const CLI::Option* p : positionals(sub)) page += roff(positionalSynopsis(*p)) + "\n";
  if (namedOptions(sub).size() > 1) page += "[OPTIONS]\n";
  page += fmt::format(".SH DESCRIPTION\n{}.\n", roff(sub.get_description()));
  if (!positionals(sub).empty()) {
    page += ".SH ARGUMENTS\n";
    for (const CLI::Option* p : positionals(sub)) {
      page += fmt::format(".TP\n.I {}\n{}\n", roff(p->get_name(true)), roff(p->get_description()));
    }
  }
  page += ".SH OPTIONS\n";
  for (const CLI::Option* o : namedOptions(sub)) {
    std::string description = o->get_description();
    if (!o->get_default_str().empty())
      description += fmt::format(" (default: {})", o->get_default_str());
    page += fmt::format(".TP\n.B {}\n{}\n", roff(optionSynopsis(*o)), roff(description));
  }
  std::string footer = sub.get_footer();
  while (!footer.empty() && (footer.front() == '\n')) footer.erase(0, 1);
  if (!footer.empty()) page += fmt::format(".SH NOTES\n.nf\n{}\n.fi\n", roff(footer));
  page += ".SH EXIT STATUS\n0 success, 1 failure, 2 usage error.\n";
  page += fmt::format(".SH SEE ALSO\n.BR {} (1)\n", roff(app.get_name()));
  return page;
}

std::string mainPage(const CLI::App& app) {
  std::string page = header("dromedary", "a native integration engine (Camel routes, no JVM)");
  page += ".SH SYNOPSIS\n.B dromedary\n.I COMMAND\n[OPTIONS]\n";
  page += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
  page += ".SH COMMANDS\n";
  for (const CLI::App* sub : visibleSubcommands(app)) {
    page += fmt::format(".TP\n.B {}\n{} (see\n.BR dromedary\\-{} (1))\n", roff(sub->get_name()),
                        roff(sub->get_description()), roff(sub->get_name()));
  }
  page +=
      ".SH ENVIRONMENT\n.TP\n.B DROMEDARY_MANAGEMENT_TOKEN\nthe bearer token the management "
      "API takes for route control (run \\-\\-management\\-token)\n"
      ".SH FILES\n.TP\n.I /etc/dromedary/routes/\nthe routes the dromedary service runs\n"
      ".TP\n.I /etc/dromedary/application.properties\nthe service's properties\n";
  page += ".SH SEE ALSO\n";
  std::string sep;
  for (const CLI::App* sub : visibleSubcommands(app)) {
    page += fmt::format("{}.BR dromedary\\-{} (1)", sep, roff(sub->get_name()));
    sep = ",\n";
  }
  return page + "\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> manPages(const CLI::App& app) {
  std::vector<std::pair<std::string, std::string>> pages;
  pages.emplace_back("dromedary.1", mainPage(app));
  for (const CLI::App* sub : visibleSubcommands(app)) {
    pages.emplace_back(fmt::format("dromedary-{}.1", sub->get_name()), subcommandPage(app, *sub));
  }
  return pages;
}

int writeManPages(const CLI::App& app, const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(folder, ec);
  for (const auto& [name, text] : manPages(app)) {
    if (!writeTextFile(fs::path(folder) / name, text)) return 1;
  }
  return 0;
}

std::string bashCompletion(const CLI::App& app) {
  std::string subcommands;
  std::string cases;
  for (const CLI::App* sub : visibleSubcommands(app)) {
    subcommands += (subcommands.empty() ? "" : " ") + sub->get_name();
    std::string words;
    for (const CLI::Option* o : namedOptions(*sub)) {
      for (const std::string& name : o->get_lnames()) words += " --" + name;
    }
    // Positional values: files for the commands that read them, the choices of `get`.
    std::string values = "-f";
    if (sub->get_name() == "get") values = "-W 'routes endpoints health context cluster'";
    if (sub->get_name() == "completion") values = "-W bash";
    if (sub->get_name() == "eval") values = "-W simple";
    cases += fmt::format(
        "    {})\n"
        "      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '{}' -- \"$cur\"))\n"
        "      else COMPREPLY=($(compgen {} -- \"$cur\")); fi ;;\n",
        sub->get_name(), words.substr(words.empty() ? 0 : 1), values);
  }
  return fmt::format(
      "# bash completion for dromedary (printed by `dromedary completion bash`)\n"
      "_dromedary() {{\n"
      "  local cur=${{COMP_WORDS[COMP_CWORD]}}\n"
      "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
      "    COMPREPLY=($(compgen -W '{} --help' -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  case ${{COMP_WORDS[1]}} in\n"
      "{}"
      "  esac\n"
      "}}\n"
      "complete -o filenames -o bashdefault -F _dromedary dromedary\n",
      subcommands, cases);
}

}  // namespace dromedary::cli
