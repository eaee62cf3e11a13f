// SPDX-License-Identifier: Apache-2.0
#pragma once

// A route file read one top-level entry at a time. yaml-cpp keeps every node of a parsed
// document with its position and tag, about 50 bytes of memory per byte of YAML: a 50 MB file
// peaked at 3.4 GB. Parsed entry by entry, only one entry's nodes are alive at once.

#include <string_view>
#include <vector>

namespace dromedary::dsl {

/// A part of a route file parsed on its own: its text and the line (0-based) it starts at.
struct YamlPiece {
  std::string_view text;
  int first_line = 0;
};

/// `text` cut before each entry of its top-level list (`- ` at the first column), or one piece
/// (the whole text) when its shape is not that plain: a root that is not a block list at the
/// first column, a directive (`%`), a document end (`...`), or any other line that starts at
/// the first column (a quoted value continued there, say). The first piece keeps what comes
/// before the first entry (comments, `---`). A piece that does not parse alone (an alias to an
/// anchor in another entry) makes the caller read the whole text instead.
std::vector<YamlPiece> splitTopLevelEntries(std::string_view text);

}  // namespace dromedary::dsl
