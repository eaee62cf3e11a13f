// SPDX-License-Identifier: Apache-2.0
#include "sql_repositories.h"

#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/sql/sql.h>

#include "data_sources.h"

namespace dromedary::component::sql {

namespace {

// Keys as rows. Each call is one statement on the data source's pool; the calling thread
// waits for it (the repository interface is synchronous, as Camel's).
class JdbcIdempotentRepository final : public IdempotentRepository {
 public:
  JdbcIdempotentRepository(std::shared_ptr<Database> db, const IdempotentTable& t)
      : db_(std::move(db)),
        processor_(t.processorName),
        insert_(fmt::format("INSERT INTO {} (processorName, messageId, createdAt) VALUES ($1, "
                            "$2, CURRENT_TIMESTAMP) ON CONFLICT DO NOTHING",
                            t.table)),
        count_(fmt::format("SELECT COUNT(*) FROM {} WHERE processorName = $1 AND messageId = $2",
                           t.table)),
        delete_(fmt::format("DELETE FROM {} WHERE processorName = $1 AND messageId = $2",
                            t.table)),
        clear_(fmt::format("DELETE FROM {} WHERE processorName = $1", t.table)) {}

  bool add(std::string_view key) override { return changed(insert_, key) == 1; }
  bool contains(std::string_view key) override {
    QueryResult r = run(count_, {Value(processor_), Value(key)});
    return !r.rows.empty() && r.rows[0].getMap()[0].second.as<int64_t>() > 0;
  }
  bool remove(std::string_view key) override { return changed(delete_, key) > 0; }
  void clear() override { run(clear_, {Value(processor_)}); }

 private:
  int64_t changed(const StatementText& s, std::string_view key) {
    return run(s, {Value(processor_), Value(key)}).affected;
  }

  // A failure throws: the exchange using the repository fails, naming the database.
  QueryResult run(const StatementText& s, std::vector<Value> params) {
    QueryOutcome outcome = db_->executeAndWait(s, std::move(params));
    if (auto* error = std::get_if<SqlError>(&outcome)) {
      throw DromedaryException(makeError(
          ErrorCode::Io, fmt::format("idempotent repository '{}' in {}: {}", processor_,
                                     db_->describe(), describeError(*error))));
    }
    return std::move(std::get<QueryResult>(outcome));
  }

  std::shared_ptr<Database> db_;
  std::string processor_;
  StatementText insert_, count_, delete_, clear_;
};

Result<bool> flag(const Context::BeanDefinition& bean, std::string_view key, bool fallback) {
  const std::string* v = bean.property(key);
  if (!v) return fallback;
  if (*v == "true") return true;
  if (*v == "false") return false;
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("property '{}' must be true or false, not '{}'", key, *v));
}

Result<int64_t> number(const std::string& text, std::string_view key) {
  char* end = nullptr;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 0) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("property '{}' must be a whole number of 0 or more, not '{}'",
                                 key, text));
  }
  return static_cast<int64_t>(n);
}

}  // namespace

Result<void> checkTableName(std::string_view name, std::string_view what, Dialect dialect,
                            std::string_view suffix) {
  bool valid = !name.empty();
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') valid = false;
  }
  if (!valid) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("{} '{}' is not a table name (letters, digits, _ and .)", what,
                                 name));
  }
  if (dialect != Dialect::PostgreSQL) return {};
  constexpr size_t kPgNameBytes = 63;  // NAMEDATALEN - 1
  size_t start = 0;
  for (;;) {
    size_t dot = name.find('.', start);
    bool last = dot == std::string_view::npos;
    std::string_view part = name.substr(start, last ? std::string_view::npos : dot - start);
    size_t bytes = part.size() + (last ? suffix.size() : 0);
    if (bytes > kPgNameBytes) {
      return makeError(
          ErrorCode::InvalidOption,
          fmt::format("{} '{}' is too long for PostgreSQL: '{}{}' is {} bytes, and PostgreSQL "
                      "keeps {} of a name (it would cut it silently)",
                      what, name, part, last ? suffix : std::string_view(), bytes, kPgNameBytes));
    }
    if (last) return {};
    start = dot + 1;
  }
}

Result<void> createTable(Database& database, const StatementText& create, std::string_view table) {
  for (int attempt = 0;; ++attempt) {
    QueryOutcome made = database.executeAndWait(create, {});
    auto* error = std::get_if<SqlError>(&made);
    if (!error) return {};
    // 23505 / 42P07 / 42710: the catalogue's row, the table or its type made meanwhile.
    if (attempt < 2 && (error->sqlState == "23505" || error->sqlState == "42P07" ||
                        error->sqlState == "42710")) {
      continue;
    }
    return makeError(ErrorCode::Io, fmt::format("cannot create the table {} in {}: {}", table,
                                                database.describe(), describeError(*error)));
  }
}

Result<std::shared_ptr<IdempotentRepository>> openIdempotentRepository(
    std::shared_ptr<Database> database, IdempotentTable table) {
  DROMEDARY_TRY_VOID(checkTableName(table.table, "tableName", database->dialect()));
  if (table.createTableIfNotExists) {
    StatementText create(fmt::format(
        "CREATE TABLE IF NOT EXISTS {} (processorName VARCHAR(255) NOT NULL, messageId "
        "VARCHAR(100) NOT NULL, createdAt TIMESTAMP, PRIMARY KEY (processorName, messageId))",
        table.table), /*once=*/true);
    DROMEDARY_TRY_VOID(createTable(*database, create, table.table));
  }
  return std::shared_ptr<IdempotentRepository>(
      std::make_shared<JdbcIdempotentRepository>(std::move(database), table));
}

Result<std::unique_ptr<Expression>> memberIdExpression(Context& context,
                                                      const std::string& text) {
  if (text.empty()) return std::unique_ptr<Expression>();
  Language* simple = context.language("simple");
  if (!simple) return makeError(ErrorCode::Internal, "the simple language is not registered");
  auto made = simple->createExpression(text, context);
  if (!made) {
    Error e = made.error();
    e.message = fmt::format("memberId '{}': {}", text, e.message);
    return e;
  }
  return std::move(*made);
}

void registerRepositoryBeans(Context& context) {
  auto idempotent = [](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
    IdempotentTable t;
    const std::string* ds = bean.property("dataSource");
    if (const std::string* p = bean.property("processorName")) t.processorName = *p;
    if (const std::string* p = bean.property("tableName")) t.table = *p;
    DROMEDARY_TRY(create, flag(bean, "createTableIfNotExists", true));
    t.createTableIfNotExists = create;
    DROMEDARY_TRY(db, lookupDataSource(c, ds ? *ds : std::string()));
    DROMEDARY_TRY(repo, openIdempotentRepository(std::move(db), std::move(t)));
    c.bindIdempotentRepository(bean.name, std::move(repo));
    return {};
  };
  context.addBeanFactory("org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository",
                         idempotent);
  auto aggregation = [](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
    const std::string* ds = bean.property("dataSource");
    const std::string* name = bean.property("repositoryName");
    if (!name) return makeError(ErrorCode::InvalidOption, "needs the property 'repositoryName'");
    AggregationRecovery recovery;
    DROMEDARY_TRY(use, flag(bean, "useRecovery", true));
    recovery.enabled = use;
    if (const std::string* v = bean.property("recoveryInterval")) {
      DROMEDARY_TRY(ms, number(*v, "recoveryInterval"));
      recovery.interval = std::chrono::milliseconds(ms);
    }
    if (const std::string* v = bean.property("maximumRedeliveries")) {
      DROMEDARY_TRY(n, number(*v, "maximumRedeliveries"));
      recovery.maximumRedeliveries = static_cast<int>(n);
    }
    if (const std::string* v = bean.property("deadLetterUri")) recovery.deadLetterUri = *v;
    const std::string* member = bean.property("memberId");
    DROMEDARY_TRY(member_id, memberIdExpression(c, member ? *member : std::string()));
    DROMEDARY_TRY(db, lookupDataSource(c, ds ? *ds : std::string()));
    DROMEDARY_TRY(repo, openAggregationRepository(std::move(db), *name, std::move(recovery),
                                                  std::move(member_id)));
    c.bindAggregationRepository(bean.name, std::move(repo));
    return {};
  };
  for (const char* type : {"org.apache.camel.processor.aggregate.jdbc.JdbcAggregationRepository",
                           "org.apache.camel.processor.aggregate.jdbc."
                           "PostgresAggregationRepository",
                           "org.apache.camel.processor.aggregate.jdbc."
                           "ClusteredPostgresAggregationRepository"}) {
    context.addBeanFactory(type, aggregation);
  }
}

}  // namespace dromedary::component::sql

namespace dromedary {

Result<void> bindDataSource(Context& context, std::string name, std::string url,
                            std::string username, std::string password, int pool_size) {
  component::sql::DataSourceConfig config{std::move(url), std::move(username),
                                          std::move(password), pool_size};
  DROMEDARY_TRY(db, component::sql::openDataSource(config));
  context.bindBean<component::sql::Database>(std::move(name), std::move(db));
  return {};
}

Result<std::shared_ptr<AggregationRepository>> jdbcAggregationRepository(
    Context& context, std::string_view data_source, std::string repository_name,
    AggregationRecovery recovery, std::string member_id) {
  DROMEDARY_TRY(expression, component::sql::memberIdExpression(context, member_id));
  DROMEDARY_TRY(db, component::sql::lookupDataSource(context, data_source));
  return component::sql::openAggregationRepository(std::move(db), repository_name,
                                                   std::move(recovery), std::move(expression));
}

Result<std::shared_ptr<IdempotentRepository>> jdbcIdempotentRepository(
    Context& context, std::string_view data_source, std::string processor_name,
    std::string table) {
  DROMEDARY_TRY(db, component::sql::lookupDataSource(context, data_source));
  return component::sql::openIdempotentRepository(
      std::move(db), {std::move(table), std::move(processor_name), true});
}

}  // namespace dromedary
