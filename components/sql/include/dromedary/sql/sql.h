// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The sql component's data sources and repositories (library dromedary_component_sql, on
/// Debian's libpq and libsqlite3), for applications that configure them in code. Route files
/// get the same through properties (`camel.datasource.NAME.url` ...) and `beans:` of Camel's
/// classes (docs/sql.md).
///
/// Example (three instances of this program share one set of seen keys):
///   bindDataSource(context, "orders", "postgresql://app@db.example/orders").value();
///   auto seen = jdbcIdempotentRepository(context, "orders", "payments").value();
///   context.bindIdempotentRepository("seen", seen);
///
/// Thread-safety: data sources and repositories are used from any thread.

#include <memory>
#include <string>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/engine/aggregation_repository.h>
#include <dromedary/engine/idempotent_repository.h>

namespace dromedary {

class Context;

/// Opens the data source at `url` (jdbc:postgresql://..., postgresql://..., jdbc:sqlite:PATH)
/// and binds it under `name`, for `dataSource=#name`. PostgreSQL connections are opened when
/// first needed, up to `pool_size`.
Result<void> bindDataSource(Context& context, std::string name, std::string url,
                            std::string username = {}, std::string password = {},
                            int pool_size = 4);

/// Camel's JdbcMessageIdRepository: keys in `table` (created when missing: processorName,
/// messageId, createdAt, primary key on the first two) of the data source `data_source`
/// (empty: the only one), under `processor_name`. Adding a key is one atomic INSERT ... ON
/// CONFLICT DO NOTHING, so instances sharing the database agree on which one saw a key first.
Result<std::shared_ptr<IdempotentRepository>> jdbcIdempotentRepository(
    Context& context, std::string_view data_source, std::string processor_name,
    std::string table = "CAMEL_MESSAGEPROCESSED");

/// Camel's JdbcAggregationRepository: groups in table `repository_name` and completed ones in
/// `repository_name`_completed (created when missing) of the data source `data_source`. With
/// the aggregator's optimisticLocking(), instances sharing the tables aggregate together:
/// every group completes once, with every exchange of every instance. `recovery` runs again,
/// every interval, the completed groups whose steps failed (Camel's useRecovery,
/// recoveryInterval, maximumRedeliveries, deadLetterUri); without it, only at start.
/// `member_id` (Dromedary's; empty: none) is a Simple expression naming each exchange folded,
/// such as "${header[kafka.TOPIC]}/${header[kafka.PARTITION]}/${header[kafka.OFFSET]}"; the
/// names are kept in `repository_name`_members, and with
/// optimisticLocking a member folded before (a record delivered twice) is not folded again: the
/// exchange goes on with CamelDuplicateMessage=true.
Result<std::shared_ptr<AggregationRepository>> jdbcAggregationRepository(
    Context& context, std::string_view data_source, std::string repository_name,
    AggregationRecovery recovery = {}, std::string member_id = {});

}  // namespace dromedary
