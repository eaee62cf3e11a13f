// SPDX-License-Identifier: Apache-2.0
#pragma once

// Telling systemd how `dromedary run` is doing when it runs as a Type=notify service: ready
// once the routes have started, reloading while --dev swaps routes, stopping on the way out.
// Outside systemd ($NOTIFY_SOCKET unset) these do nothing.

#include <string>

namespace dromedary::cli {

/// READY=1 with a STATUS line (e.g. "3 routes started").
void notifyReady(const std::string& status);
/// STOPPING=1 with a STATUS line saying why.
void notifyStopping(const std::string& status);
/// A STATUS line alone.
void notifyStatus(const std::string& status);

}  // namespace dromedary::cli
