// SPDX-License-Identifier: Apache-2.0
#pragma once

// PostgreSQL through libpq (Debian's libpq-dev). The pool's connections are driven by one
// thread of its own with libpq's asynchronous API, in pipeline mode: a statement's prepare
// and execute, or a batch's executions, go out in one round trip, and no caller waits.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "database.h"

namespace dromedary::component::sql {

struct PgSettings {
  /// libpq connection keywords and values (expand_dbname: "dbname" may be a URL).
  std::vector<std::pair<std::string, std::string>> keywords;
  int poolSize = 4;
  std::string description;  // the URL without its password
};

/// Starts the pool's thread; connections are opened when statements need them.
std::shared_ptr<Database> openPostgreSQL(PgSettings settings);

}  // namespace dromedary::component::sql
