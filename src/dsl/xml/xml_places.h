// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where an XML route file's elements and attributes are: file, line and column from pugixml's
// offsets, and element names without their namespace prefix. Shared by the XML readers.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include <dromedary/core/result.h>

namespace dromedary::dsl {

/// The element name without a namespace prefix ("camel:route" -> "route").
inline std::string_view localName(const pugi::xml_node& node) {
  std::string_view name = node.name();
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

class XmlPlaces {
 public:
  /// `text` is the file's, before it is parsed in place (its lines are counted now).
  XmlPlaces(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {
    // Where each line starts, once: a position is then a binary search, not a count from the
    // start of the file for every node (which made loading quadratic in the file's size).
    line_starts_.push_back(0);
    for (size_t i = text_.find('\n'); i != std::string::npos; i = text_.find('\n', i + 1)) {
      line_starts_.push_back(i + 1);
    }
  }

  SourceRef at(ptrdiff_t offset) const {
    SourceRef where;
    where.file = file_;
    if (offset < 0 || static_cast<size_t>(offset) > text_.size()) return where;
    auto next = std::upper_bound(line_starts_.begin(), line_starts_.end(),
                                 static_cast<size_t>(offset));
    size_t line = static_cast<size_t>(next - line_starts_.begin());  // 1-based
    where.line = static_cast<uint32_t>(line);
    where.column = static_cast<uint32_t>(static_cast<size_t>(offset) - line_starts_[line - 1] + 1);
    return where;
  }
  // pugixml's offset of an element points at its name, after the '<'.
  SourceRef at(const pugi::xml_node& node) const {
    ptrdiff_t offset = node.offset_debug();
    return at(offset > 0 && node.type() == pugi::node_element ? offset - 1 : offset);
  }
  SourceRef at(const pugi::xml_node& node, const pugi::xml_attribute& attribute) const {
    // Parsed in place, an attribute's name points into the file's own text: its offset is
    // where it starts.
    const char* name = attribute.name();
    if (name >= text_.data() && name < text_.data() + text_.size()) {
      return at(static_cast<ptrdiff_t>(name - text_.data()));
    }
    return at(node);
  }

 private:
  const std::string& text_;
  SourceFile file_;
  std::vector<size_t> line_starts_;
};

}  // namespace dromedary::dsl
