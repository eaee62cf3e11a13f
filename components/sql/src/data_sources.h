// SPDX-License-Identifier: Apache-2.0
#pragma once

// Data sources by name, as Camel's registry holds javax.sql.DataSource beans. A data source
// comes from properties (`camel.datasource.NAME.url`, `.username`, `.password`, `.poolSize`;
// Spring Boot's `spring.datasource.*` and Quarkus's `quarkus.datasource.[NAME.]jdbc.url`...),
// from a route file's bean of a known DataSource class (BasicDataSource, HikariDataSource,
// PGSimpleDataSource, SQLiteDataSource ...), or from code (bindDataSource). It is opened once
// and kept in the context as a bean of type Database.
//
// URLs: `jdbc:postgresql://host:port/db?user=..&password=..` (pgjdbc's parameters that have a
// libpq equivalent are mapped, others ignored with a warning), libpq's own
// `postgresql://...` / `postgres://...` and keyword form, and `jdbc:sqlite:PATH`.

#include <memory>
#include <string>
#include <string_view>

#include <dromedary/core/result.h>

#include "database.h"

namespace dromedary {
class Context;
}

namespace dromedary::component::sql {

struct DataSourceConfig {
  std::string url;
  std::string username;
  std::string password;
  int poolSize = 4;
};

/// Opens a data source (a PostgreSQL pool starts its thread; SQLite opens the file once).
/// Fails naming the URL when it is not one of the forms above.
Result<std::shared_ptr<Database>> openDataSource(const DataSourceConfig& config);

/// The data source `reference` names (`#name`, `#bean:name` or `name`); empty: the only one
/// there is (bound, or configured by properties), as Camel autowires a single DataSource.
/// Opens one configured by properties on first use. Fails saying what is bound and configured.
Result<std::shared_ptr<Database>> lookupDataSource(Context& context, std::string_view reference);

/// Registers the bean factories for DataSource classes route files name.
void registerDataSourceBeans(Context& context);

}  // namespace dromedary::component::sql
