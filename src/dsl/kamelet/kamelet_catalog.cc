// SPDX-License-Identifier: Apache-2.0
#include "dsl/kamelet/kamelet_catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "core/text.h"
#include "dsl/loaders.h"

namespace dromedary::dsl {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSuffix = ".kamelet.yaml";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

KameletCatalog::KameletCatalog(Context& context, const std::vector<KameletSource>& own) {
  for (const KameletSource& k : own) found_.emplace(k.name.value, &k);
  bool shipped_listed = false;
  for (const char* key : {"dromedary.kamelets", "camel.component.kamelet.location"}) {
    auto location = context.properties().get(key);
    if (!location) continue;
    std::string_view rest = *location;
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view item = trimmed(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (item.empty()) continue;
      if (item.starts_with("classpath:")) {  // Camel's default, classpath:kamelets: ours
        shipped_listed = true;
        locations_.push_back(Location{});
        continue;
      }
      if (item.starts_with("file:")) item.remove_prefix(5);
      locations_.push_back(Location{std::string(item)});
    }
  }
  if (!shipped_listed) locations_.push_back(Location{});
}

std::string KameletCatalog::fileIn(const Location& location, std::string_view name) const {
  if (location.folder.empty()) return {};
  fs::path path = fs::path(location.folder) / (std::string(name) + std::string(kSuffix));
  std::error_code ec;
  return fs::is_regular_file(path, ec) ? path.string() : std::string();
}

Result<const KameletSource*> KameletCatalog::readFrom(std::string_view text,
                                                      const std::string& file,
                                                      std::string_view name) {
  auto sources = std::make_unique<FileSources>();
  DROMEDARY_TRY_VOID(readYamlRoutes(text, file, *sources));
  if (sources->kamelets.size() != 1 || !sources->routes.empty()) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("'{}' is not a Kamelet file (kind: Kamelet)", file));
  }
  const KameletSource& k = sources->kamelets.front();
  if (k.name.value != name) {
    return fileError(k.name.where, fmt::format("the Kamelet in {}{} is named '{}'", name,
                                               kSuffix, k.name.value),
                     fmt::format("name it '{}', as its file", name));
  }
  read_.push_back(std::move(sources));
  found_.emplace(std::string(name), &k);
  return &k;
}

Result<const KameletSource*> KameletCatalog::find(std::string_view name) {
  if (auto it = found_.find(name); it != found_.end()) return it->second;
  for (const Location& location : locations_) {
    if (location.folder.empty()) {
      for (const ShippedKamelet& k : shippedKamelets()) {
        if (k.name == name) return readFrom(k.text, fmt::format("shipped:{}{}", name, kSuffix), name);
      }
      continue;
    }
    std::string file = fileIn(location, name);
    if (file.empty()) continue;
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      return makeError(ErrorCode::Io, fmt::format("cannot read the Kamelet file '{}'", file));
    }
    return readFrom(text, file, name);
  }
  return static_cast<const KameletSource*>(nullptr);
}

std::vector<std::string> KameletCatalog::names() const {
  std::set<std::string> names;
  for (const auto& [name, k] : found_) names.insert(name);
  for (const Location& location : locations_) {
    if (location.folder.empty()) {
      for (const ShippedKamelet& k : shippedKamelets()) names.insert(std::string(k.name));
      continue;
    }
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(location.folder, ec)) {
      std::string file = entry.path().filename().string();
      if (file.size() > kSuffix.size() && file.ends_with(kSuffix)) {
        names.insert(file.substr(0, file.size() - kSuffix.size()));
      }
    }
  }
  return {names.begin(), names.end()};
}

std::string KameletCatalog::origin(std::string_view name) const {
  if (auto it = found_.find(name); it != found_.end()) return it->second->name.where.file.str();
  for (const Location& location : locations_) {
    if (location.folder.empty()) {
      for (const ShippedKamelet& k : shippedKamelets()) {
        if (k.name == name) return "shipped";
      }
      continue;
    }
    if (std::string file = fileIn(location, name); !file.empty()) return file;
  }
  return {};
}

}  // namespace dromedary::dsl
