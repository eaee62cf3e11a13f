// SPDX-License-Identifier: Apache-2.0
#pragma once

// Header and property names known when routes compile, interned (private to the core).

#include <string_view>

#include <dromedary/core/message.h>

namespace dromedary {

/// One HeaderKey for `name` for the process's life, shared by every step and expression that
/// names it: a key in each would be 40 bytes of every one, and a context may hold many
/// thousand routes. Made when routes compile, never per message; safe from any thread. Names
/// are kept as written (two spellings are two keys; both find the header, whose lookups
/// ignore case).
const HeaderKey& internHeaderKey(std::string_view name);

}  // namespace dromedary
