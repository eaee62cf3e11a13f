// SPDX-License-Identifier: Apache-2.0
#pragma once

// Loading a component module into the process (dlopen), once per process.

#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/engine/context.h>

namespace dromedary::modules::detail {

using RegisterFunction = void (*)(Context& context);

/// The registration function of the module `name` (dromedary-NAME.so), the module loaded on
/// the first call. A module that is not found, does not load, or comes from another build is
/// an error saying so (not remembered: a module built meanwhile loads on the next call).
Result<RegisterFunction> openModule(std::string_view name);

}  // namespace dromedary::modules::detail
