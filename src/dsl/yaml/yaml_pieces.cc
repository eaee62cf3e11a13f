// SPDX-License-Identifier: Apache-2.0
#include "dsl/yaml/yaml_pieces.h"

namespace dromedary::dsl {

namespace {

bool startsEntry(std::string_view line) {
  return line.starts_with('-') &&
         (line.size() == 1 || line[1] == ' ' || line[1] == '\t' || line[1] == '\r');
}

bool isDocumentStart(std::string_view line) {
  return line.starts_with("---") && line.find_first_not_of(" \t\r", 3) == std::string_view::npos;
}

}  // namespace

std::vector<YamlPiece> splitTopLevelEntries(std::string_view text) {
  const std::vector<YamlPiece> whole{{text, 0}};
  std::vector<YamlPiece> pieces;
  size_t piece_start = 0;
  int piece_line = 0;
  int number = 0;  // of the line read, 0-based
  for (size_t start = 0; start < text.size(); ++number) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    const size_t line_start = start;
    start = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;  // blank, a comment
    if (first > 0) {
      // Inside an entry; before the first one, the root is not a list at the first column.
      if (pieces.empty()) return whole;
      continue;
    }
    if (startsEntry(line)) {
      if (pieces.empty()) {
        pieces.push_back({{}, 0});  // the first piece starts at the text's start
      } else {
        pieces.back().text = text.substr(piece_start, line_start - piece_start);
        pieces.push_back({{}, number});
        piece_start = line_start;
        piece_line = number;
      }
      continue;
    }
    if (pieces.empty() && isDocumentStart(line)) continue;
    return whole;  // a directive, `...`, a map at the root, a value continued at column 1
  }
  if (pieces.size() < 2) return whole;
  pieces.back().text = text.substr(piece_start);
  pieces.back().first_line = piece_line;
  return pieces;
}

}  // namespace dromedary::dsl
