// SPDX-License-Identifier: Apache-2.0
#include <dromedary/dsl/route_loader.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "dsl/loaders.h"
#include "engine/resources.h"

namespace dromedary {

namespace {

namespace fs = std::filesystem;

bool isRouteFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".xml";
}

// Whether a file found in a folder is a Camel route file, as Camel JBang decides when it runs
// a folder: not a build, compose or README file; YAML that holds one of the route file's
// entries (or is a Pipe, a KameletBinding, an Integration or a Kamelet); XML whose root
// element is one of Camel's. Files named one by one are always read.
bool looksLikeCamel(const fs::path& path, const std::string& text) {
  std::string name = path.filename().string();
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.starts_with(".") || lower.starts_with("readme") || lower == "pom.xml" ||
      lower == "docker-compose.yml" || lower == "docker-compose.yaml" ||
      lower == "compose.yml" || lower == "compose.yaml") {
    return false;
  }
  if (path.extension() != ".xml") {
    for (std::string_view marker :
         {"- from:", "- route:", "- route-configuration:", "- routeConfiguration:", "- rest:",
          "- restConfiguration:", "- rest-configuration:", "- beans:", "- routeTemplate:",
          "- route-template:", "- templatedRoute:", "- templated-route:", "- errorHandler:",
          "- error-handler:", "KameletBinding", "Pipe", "kind: Integration", "kind: Kamelet"}) {
      if (text.find(marker) != std::string::npos) return true;
    }
    return false;
  }
  // The first element's name, past the prolog, comments, DOCTYPE and processing instructions.
  size_t at = 0;
  while ((at = text.find('<', at)) != std::string::npos) {
    if (text.compare(at, 4, "<!--") == 0) {
      at = text.find("-->", at);
    } else if (text.compare(at, 2, "<?") == 0 || text.compare(at, 2, "<!") == 0) {
      at = text.find('>', at);
    } else {
      break;
    }
    if (at == std::string::npos) return false;
  }
  if (at == std::string::npos) return false;
  size_t end = text.find_first_of(" \t\r\n/>", at + 1);
  std::string root = text.substr(at + 1, end == std::string::npos ? end : end - at - 1);
  if (size_t colon = root.find(':'); colon != std::string::npos) root = root.substr(colon + 1);
  for (std::string_view known : {"routes", "route", "routeConfiguration", "routeConfigurations",
                                 "rests", "rest", "routeTemplates", "routeTemplate",
                                 "templatedRoutes", "templatedRoute", "beans", "camel",
                                 "camelContext", "blueprint"}) {
    if (root == known) return true;
  }
  return false;
}

Result<std::string> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(ErrorCode::Io, fmt::format("cannot read '{}'", path.string()));
  // A regular file is read into a string of its size: grown as it is read, the string would
  // hold up to twice the file (and three times while it grows), the largest part of the peak
  // when loading a big file.
  std::error_code ec;
  const uintmax_t size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
  std::string text;
  if (!ec && size > 0) {
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<size_t>(in.gcount()));
    if (in.gcount() != static_cast<std::streamsize>(size)) return text;  // it shrank meanwhile
  }
  text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return text;
}

// Reads one file's routes (not yet added); `text_read` is its text when it was read already
// (an XML file's is parsed in place: changed).
Result<void> readRoutes(const fs::path& path, std::string* text_read,
                        dsl::FileSources& out, LoadReport& report) {
  std::string read;
  if (!text_read) {
    DROMEDARY_TRY(t, readFile(path));
    read = std::move(t);
    text_read = &read;
  }
  std::string& text = *text_read;
  std::string name = path.string();
  if (path.extension() == ".xml") {
    DROMEDARY_TRY_VOID(dsl::readXmlRoutes(text, name, out, report.notes));
  } else {
    DROMEDARY_TRY_VOID(dsl::readYamlRoutes(text, name, out));
  }
  report.files.push_back(name);
  return {};
}

Result<LoadReport> add(Context& context, dsl::FileSources& sources, LoadReport report,
                       const LoadOptions& options = {}) {
  DROMEDARY_TRY_VOID(dsl::includeRouteContexts(sources, report.notes));
  DROMEDARY_TRY_VOID(dsl::loadPropertyLocations(context, sources, report.notes));
  // Spring XML beans of classes no component makes (a JMS connection factory ...) are
  // reported and skipped; the others are made with the file's routes.
  std::erase_if(sources.beans, [&](const dsl::BeanSource& bean) {
    if (bean.springNote.empty() || dsl::beanFactoryFor(context, bean.type)) return false;
    report.notes.push_back(bean.springNote);
    return true;
  });
  DROMEDARY_TRY_VOID(dsl::addRouteSources(context, sources, options, report.loaded));
  report.routes = static_cast<size_t>(
      std::count_if(report.loaded.begin(), report.loaded.end(),
                    [](const LoadedRoute& r) { return !r.id.empty(); }));
  return report;
}

}  // namespace

Result<LoadReport> loadRoutes(Context& context, const std::vector<std::string>& paths,
                              const LoadOptions& options) {
  LoadReport report;
  std::vector<fs::path> files;
  std::map<fs::path, std::string> texts;  // files of folders, read when they were sorted out
  std::set<fs::path> property_dirs;
  std::vector<fs::path> named_properties;  // other .properties files named with the routes
  std::optional<Error> not_routes;         // why a path named is not routes, if none are
  for (const std::string& p : paths) {
    fs::path path(p);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found, skipped;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        if (!entry.is_regular_file() || !isRouteFile(entry.path())) continue;
        // Read once: to tell a route file from another YAML or XML, and then for its routes.
        auto text = readFile(entry.path());
        if (!text) return text.error();
        if (looksLikeCamel(entry.path(), *text)) {
          found.push_back(entry.path());
          texts.emplace(entry.path(), std::move(*text));
        } else {
          skipped.push_back(entry.path());
        }
      }
      std::sort(found.begin(), found.end());
      std::sort(skipped.begin(), skipped.end());
      for (const fs::path& f : skipped) {
        report.notes.push_back(
            fmt::format("skipped {}: not a Camel route file (name it to read it anyway)",
                        f.string()));
      }
      if (found.empty()) {
        // Beside route files named with it (`dromedary run *`, as Camel JBang's `camel run *`)
        // a folder without routes (camel-mock/) is a resource; alone, it is an error.
        if (!not_routes) {
          not_routes = makeError(
              ErrorCode::NotFound,
              skipped.empty()
                  ? fmt::format("no route files (*.yaml, *.yml, *.xml) in '{}'", p)
                  : fmt::format("no route files in '{}': {} YAML or XML file(s) there hold no "
                                "routes (such as {})",
                                p, skipped.size(), skipped.front().string()));
        }
        report.notes.push_back(fmt::format("{} holds no route files: read as a resource", p));
        continue;
      }
      files.insert(files.end(), found.begin(), found.end());
      property_dirs.insert(path);
    } else if (fs::is_regular_file(path, ec)) {
      if (!isRouteFile(path)) {
        // As Camel JBang's: another file named with the routes (an OpenAPI document, a
        // properties file) is a resource: its folder is on the classpath; properties are read.
        if (!not_routes) {
          not_routes = makeError(
              ErrorCode::InvalidRoute,
              fmt::format("'{}' is not a route file: expected .yaml, .yml or .xml", p));
        }
        fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
        property_dirs.insert(dir);
        if (path.extension() == ".properties" && path.filename() != "application.properties") {
          named_properties.push_back(path);
        }
        continue;
      }
      files.push_back(path);
      property_dirs.insert(path.has_parent_path() ? path.parent_path() : fs::path("."));
    } else if (fs::exists(path, ec)) {
      // A FIFO or a device would block or never end: only regular files are read.
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("'{}' is not a regular file or a folder (a pipe, socket or "
                                   "device): route files are read from regular files",
                                   p));
    } else {
      return makeError(ErrorCode::NotFound, fmt::format("no such file or directory: '{}'", p));
    }
  }
  if (files.empty() && not_routes) return *not_routes;
  // Their folders are the classpath of resource:classpath: expressions (as Camel JBang's).
  for (const fs::path& dir : property_dirs) detail::addClasspathFolder(context, dir.string());
  // application.properties beside the route files, before the routes that use them, then
  // the profile's (camel.main.profile, Camel JBang's `dev` by default) over them.
  const std::string profile = context.properties().get("camel.main.profile").value_or("dev");
  for (const std::string& name :
       {std::string("application.properties"), fmt::format("application-{}.properties", profile)}) {
    for (const fs::path& dir : property_dirs) {
      fs::path props = dir / name;
      std::error_code ec;
      if (!fs::is_regular_file(props, ec)) continue;
      DROMEDARY_TRY_VOID(context.properties().load(props.string()));
      report.notes.push_back(fmt::format("loaded properties from {}", props.string()));
    }
  }
  for (const fs::path& props : named_properties) {
    DROMEDARY_TRY_VOID(context.properties().load(props.string()));
    report.notes.push_back(fmt::format("loaded properties from {}", props.string()));
  }
  dsl::FileSources sources;
  for (const fs::path& f : files) {
    auto it = texts.find(f);
    DROMEDARY_TRY_VOID(readRoutes(f, it == texts.end() ? nullptr : &it->second, sources, report));
    if (it != texts.end()) texts.erase(it);  // read: not held while the routes are added
  }
  DROMEDARY_TRY_VOID(dsl::templatedRoutesFromProperties(context, sources));
  return add(context, sources, std::move(report), options);
}

Result<LoadReport> loadYamlRoutes(Context& context, std::string_view text,
                                  const std::string& name) {
  dsl::FileSources sources;
  DROMEDARY_TRY_VOID(dsl::readYamlRoutes(text, name, sources));
  LoadReport report;
  report.files.push_back(name);
  return add(context, sources, std::move(report));
}

Result<LoadReport> loadXmlRoutes(Context& context, std::string_view text,
                                 const std::string& name) {
  LoadReport report;
  dsl::FileSources sources;
  std::string own(text);  // parsed in place
  DROMEDARY_TRY_VOID(dsl::readXmlRoutes(own, name, sources, report.notes));
  report.files.push_back(name);
  return add(context, sources, std::move(report));
}

}  // namespace dromedary
