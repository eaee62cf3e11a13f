// SPDX-License-Identifier: Apache-2.0
#include "dsl/yaml/yaml_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "dsl/file_source.h"

namespace dromedary::dsl {

namespace {

// The line (1-based) of a document marker that starts a second document, or 0. Found in the
// text, not by parsing on: yaml-cpp 0.7's LoadAll never returns on some malformed input (the
// fuzzer found one). A `---` or `...` at the start of a line is always a document marker (it
// ends a block scalar too), so the text says where documents start.
size_t secondDocumentLine(std::string_view text) {
  auto marker = [](std::string_view line, std::string_view m) {
    return line.starts_with(m) && (line.size() == m.size() || line[m.size()] == ' ' ||
                                   line[m.size()] == '\t' || line[m.size()] == '\r');
  };
  bool content = false;  // the first document has begun
  bool ended = false;    // ... and a `...` ended it
  size_t number = 0;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (marker(line, "---")) {
      if (content) return number;
      content = true;  // the first document's own start (`--- ` may hold content)
      continue;
    }
    if (marker(line, "...")) {
      ended = content;
      continue;
    }
    std::string_view t = line.substr(std::min(line.find_first_not_of(" \t\r"), line.size()));
    if (t.empty() || t.front() == '#' || (!content && t.front() == '%')) continue;
    if (ended) return number;
    content = true;
  }
  return 0;
}

// yaml-cpp takes a quoted value whose closing quote never comes to the end of the file (the
// rest of the route became a URI): refused where the value starts.
Result<void> closedQuote(const YAML::Node& node, std::string_view text, int first_line,
                         const std::string& file) {
  if (node.Tag() != "!") return {};  // a plain value
  const size_t pos = static_cast<size_t>(node.Mark().pos);
  if (pos >= text.size() || (text[pos] != '"' && text[pos] != '\'')) return {};
  const char quote = text[pos];
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;  // an escape: the next character is not the end
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside single quotes
        continue;
      }
      return {};
    }
  }
  return fileError(markRef(file, node.Mark(), first_line),
                   fmt::format("a value opened with {} is never closed", quote),
                   fmt::format("add the closing {}", quote));
}

}  // namespace

SourceRef markRef(const std::string& file, const YAML::Mark& m, int first_line) {
  SourceRef where;
  where.file = file;
  if (m.line >= 0) {
    where.line = static_cast<uint32_t>(first_line + m.line + 1);
    where.column = static_cast<uint32_t>(m.column + 1);
  }
  return where;
}

Result<void> refuseSecondDocument(std::string_view text, const std::string& file) {
  size_t line = secondDocumentLine(text);
  if (line == 0) return {};
  SourceRef where;
  where.file = file;
  where.line = static_cast<uint32_t>(line);
  where.column = 1;
  return fileError(where, "a second YAML document (after '---')",
                   "a route file holds one list of routes: join the lists, or give each its own "
                   "file");
}

// What yaml-cpp takes in silence and the reader must not: a key twice in one map (Camel's
// parser refuses it; the last one won here), nesting past kMaxFileDepth, and aliases that
// expand a small file into millions of nodes (an "alias bomb": a 1 KB file took 15 GB).
// One walk without recursion, counting every node as the reader would visit it.
YamlNodeBudget::YamlNodeBudget(std::string_view file_text)
    : total(std::max<size_t>(100000, 64 * file_text.size())), left(total) {}

Result<void> checkYamlShape(const YAML::Node& root, std::string_view text, int first_line,
                            const std::string& file, YamlNodeBudget& budget) {
  auto at = [&](const YAML::Node& node) { return markRef(file, node.Mark(), first_line); };
  std::vector<std::pair<YAML::Node, size_t>> pending{{root, 1}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (budget.left == 0) {
      return fileError(at(node),
                       fmt::format("the file expands to more than {} nodes", budget.total),
                       "its aliases (*name) repeat anchored nodes too often");
    }
    --budget.left;
    if (depth > kMaxFileDepth) {
      return fileError(at(node),
                       fmt::format("collections nested deeper than {} levels", kMaxFileDepth));
    }
    if (node.IsScalar()) DROMEDARY_TRY_VOID(closedQuote(node, text, first_line, file));
    if (node.IsSequence()) {
      for (const YAML::Node& item : node) pending.emplace_back(item, depth + 1);
    } else if (node.IsMap()) {
      std::map<std::string, YAML::Mark, std::less<>> keys;
      for (const auto& kv : node) {
        if (kv.first.IsScalar()) {
          DROMEDARY_TRY_VOID(closedQuote(kv.first, text, first_line, file));
          auto [it, added] = keys.emplace(kv.first.Scalar(), kv.first.Mark());
          if (!added) {
            return fileError(at(kv.first), fmt::format("duplicate key '{}'", it->first),
                             fmt::format("it is given first at line {}",
                                         first_line + it->second.line + 1));
          }
        } else {
          return fileError(at(kv.first), "a key must be a plain value, not a list or map");
        }
        pending.emplace_back(kv.second, depth + 1);
      }
    }
  }
  return {};
}

}  // namespace dromedary::dsl
