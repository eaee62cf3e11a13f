// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Registers every component compiled into this build (direct, log, mock, ...).
/// Link `dromedary::components`. Generated from the component list at build time.

#include <dromedary/engine/context.h>

namespace dromedary {

void registerBuiltinComponents(Context& context);

}  // namespace dromedary
