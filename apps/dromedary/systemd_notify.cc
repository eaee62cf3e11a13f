// SPDX-License-Identifier: Apache-2.0
#include "systemd_notify.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace dromedary::cli {

namespace {

// sd_notify(3)'s protocol, written here rather than linked from libsystemd: one datagram of
// "KEY=value" lines to the AF_UNIX socket named by $NOTIFY_SOCKET (a path, or "@name" for the
// abstract namespace). libsystemd and what it loads (libgcrypt, liblzma, liblz4, libzstd,
// libcap) were about 1 MB of every process's memory for these three calls. Like sd_notify, it
// does nothing when $NOTIFY_SOCKET is unset, and nothing that fails is fatal: a service
// manager that is gone cannot be told.
void notify(const std::string& state) {
  const char* where = std::getenv("NOTIFY_SOCKET");
  if (!where || (where[0] != '/' && where[0] != '@')) return;  // unset, or not AF_UNIX
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const size_t length = std::strlen(where);
  if (length >= sizeof(address.sun_path)) return;
  std::memcpy(address.sun_path, where, length);
  if (address.sun_path[0] == '@') address.sun_path[0] = '\0';  // abstract: no NUL at the end
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + length);
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  (void)::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                 reinterpret_cast<const sockaddr*>(&address), size);
  ::close(fd);
}

}  // namespace

void notifyReady(const std::string& status) { notify("READY=1\nSTATUS=" + status); }

void notifyStopping(const std::string& status) { notify("STOPPING=1\nSTATUS=" + status); }

void notifyStatus(const std::string& status) { notify("STATUS=" + status); }

}  // namespace dromedary::cli
