// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the YAML reader checks of a route file's shape before it reads routes: what yaml-cpp
// takes in silence and Dromedary must not (a second document, a key twice, nesting past
// kMaxFileDepth, alias bombs, a quote never closed), each refused where it is.

#include <dromedary/core/result.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace dromedary::dsl {

/// A yaml-cpp position as a SourceRef in `file`, in a text that starts at line `first_line`
/// (0-based) of the file.
SourceRef markRef(const std::string& file, const YAML::Mark& mark, int first_line = 0);

/// Fails at a second YAML document in `text`, found in the text (not by parsing on).
Result<void> refuseSecondDocument(std::string_view text, const std::string& file);

/// How many nodes the readings of a file may visit in all (an alias bomb's bound): 64 per byte
/// of the file, at least 100,000.
struct YamlNodeBudget {
  explicit YamlNodeBudget(std::string_view file_text);
  size_t total;
  size_t left;
};

/// Fails at a key given twice in one map, a key that is a collection, nesting past
/// kMaxFileDepth, more nodes than `budget` has left (an alias bomb: each node visited
/// takes one), or a quoted value whose quote is never closed. `root` was parsed from `text`,
/// which starts at line `first_line` (0-based) of the file. One walk without recursion.
Result<void> checkYamlShape(const YAML::Node& root, std::string_view text, int first_line,
                            const std::string& file, YamlNodeBudget& budget);

}  // namespace dromedary::dsl
