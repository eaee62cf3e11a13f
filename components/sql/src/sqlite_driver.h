// SPDX-License-Identifier: Apache-2.0
#pragma once

// SQLite (Debian's libsqlite3) as a data source: `jdbc:sqlite:PATH`. SQLite runs inside the
// process and has no asynchronous API, so a statement runs on the caller's thread
// (blocksCaller), on one of up to poolSize connections to the file (WAL mode, busy timeout 5 s).

#include <memory>
#include <string>

#include "database.h"

namespace dromedary::component::sql {

/// Opens the file (creating it) once to check it can be, then keeps connections in a pool.
Result<std::shared_ptr<Database>> openSQLite(const std::string& path, int pool_size);

}  // namespace dromedary::component::sql
