// SPDX-License-Identifier: Apache-2.0
// The REST DSL's C++ front end, and how a verb becomes a route (shared with route files).
#include <dromedary/engine/rest_definition.h>

#include <cctype>

#include <fmt/format.h>

#include <dromedary/engine/route_builder.h>

namespace dromedary {

RestConfigurationDefinition& RestConfigurationDefinition::component(std::string name) {
  settings_.component = std::move(name);
  return *this;
}
RestConfigurationDefinition& RestConfigurationDefinition::host(std::string host) {
  settings_.host = std::move(host);
  return *this;
}
RestConfigurationDefinition& RestConfigurationDefinition::port(int port) {
  settings_.port = port;
  return *this;
}
RestConfigurationDefinition& RestConfigurationDefinition::contextPath(std::string path) {
  settings_.contextPath = std::move(path);
  return *this;
}
RestConfigurationDefinition& RestConfigurationDefinition::bindingMode(std::string mode) {
  settings_.bindingMode = std::move(mode);
  return *this;
}

RestDefinition& RestDefinition::verb(std::string method, std::string path) {
  for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  verbs_.push_back(Verb{std::move(method), std::move(path), {}, {}, consumes_, produces_});
  return *this;
}

RestDefinition::Verb* RestDefinition::current(const char* option) {
  if (verbs_.empty()) {
    if (misuse_.empty()) {
      misuse_ = fmt::format("{}() needs a verb first: rest(\"{}\").get(...).{}(...)", option,
                            path_, option);
    }
    return nullptr;
  }
  return &verbs_.back();
}

RestDefinition& RestDefinition::to(std::string uri) {
  if (Verb* v = current("to")) v->to = std::move(uri);
  return *this;
}

RestDefinition& RestDefinition::id(std::string id) {
  if (Verb* v = current("id")) v->id = std::move(id);
  return *this;
}

RestDefinition& RestDefinition::consumes(std::string types) {
  (verbs_.empty() ? consumes_ : verbs_.back().consumes) = std::move(types);
  return *this;
}

RestDefinition& RestDefinition::produces(std::string types) {
  (verbs_.empty() ? produces_ : verbs_.back().produces) = std::move(types);
  return *this;
}

RestDefinition& RestDefinition::description(std::string) { return *this; }

RestDefinition& RestDefinition::rest(std::string path) { return builder_.rest(std::move(path)); }

std::string joinRestPath(std::string_view contextPath, std::string_view restPath,
                         std::string_view verbPath) {
  std::string out;
  for (std::string_view part : {contextPath, restPath, verbPath}) {
    size_t i = 0;
    while (i < part.size()) {
      size_t end = part.find('/', i);
      if (end == std::string_view::npos) end = part.size();
      if (end > i) {
        out.push_back('/');
        out.append(part.substr(i, end - i));
      }
      i = end + 1;
    }
  }
  if (out.empty()) out.push_back('/');
  return out;
}

}  // namespace dromedary
