// SPDX-License-Identifier: Apache-2.0
#pragma once

// A PostgreSQL connection of one's own, used synchronously (libpq's blocking calls): for a
// consumer's transaction on its own thread, and for the master: lease's session lock.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "database.h"

namespace dromedary::component::sql {

Result<std::unique_ptr<Session>> openPgSession(
    const std::vector<std::pair<std::string, std::string>>& keywords,
    const std::string& description);

}  // namespace dromedary::component::sql
