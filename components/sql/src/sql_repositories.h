// SPDX-License-Identifier: Apache-2.0
#pragma once

// Repositories kept in a data source, so that every instance sharing the database shares
// them: Camel's JdbcMessageIdRepository (idempotent consumer).

#include <memory>
#include <string>

#include <dromedary/engine/aggregation_repository.h>
#include <dromedary/engine/idempotent_repository.h>

#include "database.h"

namespace dromedary {
class Context;
}

namespace dromedary::component::sql {

struct IdempotentTable {
  std::string table = "CAMEL_MESSAGEPROCESSED";
  std::string processorName = "default";
  bool createTableIfNotExists = true;
};

/// Creates the table when asked and missing; fails naming the data source and the table.
Result<std::shared_ptr<IdempotentRepository>> openIdempotentRepository(
    std::shared_ptr<Database> database, IdempotentTable table);

/// Camel's JdbcAggregationRepository: tables NAME and NAME_completed (created when missing).
/// With `recovery` (Camel's useRecovery, recoveryInterval, maximumRedeliveries, deadLetterUri),
/// and with `member_id`, the members folded kept in NAME_members (created when missing) so that
/// none is folded twice.
Result<std::shared_ptr<AggregationRepository>> openAggregationRepository(
    std::shared_ptr<Database> database, const std::string& name,
    AggregationRecovery recovery = {}, std::unique_ptr<Expression> member_id = nullptr);

/// The aggregation repository's memberId (a Simple expression; empty: none), compiled.
Result<std::unique_ptr<Expression>> memberIdExpression(Context& context,
                                                      const std::string& text);

/// Whether `name`, given as option `what`, can be put in a statement as a table name: letters,
/// digits, _ and . only; and on PostgreSQL, each of its dotted parts, with `suffix` after the
/// last (the longest of the tables made from it: "_completed"), within the 63 bytes PostgreSQL
/// keeps of a name. PostgreSQL cuts a longer name without failing, so two long names (or
/// NAME_completed and NAME_members) could become one table.
Result<void> checkTableName(std::string_view name, std::string_view what, Dialect dialect,
                            std::string_view suffix = {});
/// Runs a CREATE TABLE IF NOT EXISTS; instances starting together may race to create it,
/// which PostgreSQL reports to all but one: those are retried. Fails naming the table.
Result<void> createTable(Database& database, const StatementText& create, std::string_view table);

/// Registers the bean factories for Camel's repository classes.
void registerRepositoryBeans(Context& context);

}  // namespace dromedary::component::sql
