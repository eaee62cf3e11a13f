// SPDX-License-Identifier: Apache-2.0
#include "language/simple/file_functions.h"

#include <algorithm>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

enum class Part {
  Name, NameExt, NameExtSingle, NameNoExt, NameNoExtSingle, OnlyName, OnlyNameNoExt,
  OnlyNameNoExtSingle, Parent, Path, Absolute, AbsolutePath, Length, Modified,
};

struct Known {
  std::string_view text;
  Part part;
  std::string_view header;  // what it reads
};

constexpr Known kKnown[] = {
    {"name", Part::Name, "CamelFileName"},
    {"name.ext", Part::NameExt, "CamelFileName"},
    {"ext", Part::NameExt, "CamelFileName"},
    {"name.ext.single", Part::NameExtSingle, "CamelFileName"},
    {"name.noext", Part::NameNoExt, "CamelFileName"},
    {"name.noext.single", Part::NameNoExtSingle, "CamelFileName"},
    {"onlyname", Part::OnlyName, "CamelFileNameOnly"},
    {"onlyname.noext", Part::OnlyNameNoExt, "CamelFileNameOnly"},
    {"onlyname.noext.single", Part::OnlyNameNoExtSingle, "CamelFileNameOnly"},
    {"parent", Part::Parent, "CamelFileParent"},
    {"path", Part::Path, "CamelFilePath"},
    {"absolute", Part::Absolute, "CamelFileAbsolute"},
    {"absolute.path", Part::AbsolutePath, "CamelFileAbsolutePath"},
    {"length", Part::Length, "CamelFileLength"},
    {"size", Part::Length, "CamelFileLength"},
    {"modified", Part::Modified, "CamelFileLastModified"},
};

std::string_view onlyNameOf(std::string_view name) {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

// The extension of the name's last part: from its first dot, or its last with `single`.
size_t extensionDot(std::string_view name, bool single) {
  std::string_view only = onlyNameOf(name);
  size_t dot = single ? only.rfind('.') : only.find('.');
  return dot == std::string_view::npos ? std::string_view::npos : name.size() - only.size() + dot;
}

class FileNode final : public Expression {
 public:
  FileNode(Part part, std::string_view header) : part_(part), header_(header) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    const Value* v = ex.message().getHeader(header_);
    if (!v || v->isNull()) return &nullValue();
    switch (part_) {
      case Part::Name:
      case Part::OnlyName:
      case Part::Parent:
      case Part::Path:
      case Part::Absolute:
      case Part::AbsolutePath:
      case Part::Length:
      case Part::Modified: return v;
      default: break;
    }
    try {
      std::string text = v->toString();
      const bool single = part_ == Part::NameExtSingle || part_ == Part::NameNoExtSingle ||
                          part_ == Part::OnlyNameNoExtSingle;
      size_t dot = extensionDot(text, single);
      if (part_ == Part::NameExt || part_ == Part::NameExtSingle) {
        if (dot == std::string::npos) return &nullValue();
        scratch.setString(std::string_view(text).substr(dot + 1));
      } else {
        scratch.setString(std::string_view(text).substr(0, dot));
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }

 private:
  Part part_;
  std::string header_;
};

}  // namespace

ExprPtr parseFileFunction(Parser& parser, std::string_view what) {
  auto found = std::find_if(std::begin(kKnown), std::end(kKnown),
                            [&](const Known& k) { return k.text == what; });
  if (found == std::end(kKnown)) {
    std::string names;
    for (const Known& k : kKnown) names += fmt::format("{}file:{}", names.empty() ? "" : ", ", k.text);
    parser.fail(what.empty() ? std::string_view("file:") : what,
                fmt::format("unknown file function 'file:{}'", what), fmt::format("expected one of {}", names));
  }
  return std::make_unique<FileNode>(found->part, found->header);
}

}  // namespace dromedary::simplelang
