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

/// A yaml-cpp position as a SourceRef in `file`.
SourceRef markRef(const std::string& file, const YAML::Mark& mark);

/// Fails at a second YAML document in `text`, found in the text (not by parsing on).
Result<void> refuseSecondDocument(std::string_view text, const std::string& file);

/// Fails at a key given twice in one map, a key that is a collection, nesting past
/// kMaxFileDepth, more nodes than 64 per byte of `text` (an alias bomb), or a quoted value
/// whose quote is never closed. One walk without recursion.
Result<void> checkYamlShape(const YAML::Node& root, std::string_view text, const std::string& file);

}  // namespace dromedary::dsl
