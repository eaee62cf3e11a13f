// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Repositories kept in an SQLite file, so their state survives a restart (library
/// dromedary::sqlite; links Debian's libsqlite3).
///
/// Example (duplicates are still rejected after the process restarts):
///   auto repo = sqliteIdempotentRepository("/var/lib/app/seen.db", "orders").value();
///   from("direct:orders").idempotentConsumer(header("orderId"), repo).to("direct:process").end();
///
/// Thread-safety: each repository serialises its statements with its own lock; several
/// repositories (or processes) may share one file (SQLite's WAL mode, busy timeout 5 s).

#include <memory>
#include <string>

#include <dromedary/core/result.h>
#include <dromedary/engine/aggregation_repository.h>
#include <dromedary/engine/idempotent_repository.h>

namespace dromedary {

/// Keys in table `dromedary_idempotent` of the database at `path` (created if missing), under
/// `processor_name`, so several consumers can share a file (Camel's JDBC repository shape).
/// Fails naming the file when it cannot be opened or created.
Result<std::shared_ptr<IdempotentRepository>> sqliteIdempotentRepository(
    const std::string& path, std::string processor_name = "default");

/// aggregate()'s groups in table `dromedary_aggregation` of the database at `path`, under
/// `repository_name`: open groups carry on and completed ones not yet processed run again
/// when the aggregator's route next starts. Values are stored with their types; a user object
/// cannot be stored (the exchange that would store it fails).
Result<std::shared_ptr<AggregationRepository>> sqliteAggregationRepository(
    const std::string& path, std::string repository_name = "default");

}  // namespace dromedary
