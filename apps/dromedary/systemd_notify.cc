// SPDX-License-Identifier: Apache-2.0
#include "systemd_notify.h"

#ifdef DROMEDARY_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace dromedary::cli {

namespace {

void notify([[maybe_unused]] const std::string& state) {
#ifdef DROMEDARY_SYSTEMD
  // Returns 0 when $NOTIFY_SOCKET is not set: nothing to tell, nothing to fail.
  sd_notify(0, state.c_str());
#endif
}

}  // namespace

void notifyReady(const std::string& status) { notify("READY=1\nSTATUS=" + status); }

void notifyStopping(const std::string& status) { notify("STOPPING=1\nSTATUS=" + status); }

void notifyStatus(const std::string& status) { notify("STATUS=" + status); }

}  // namespace dromedary::cli
