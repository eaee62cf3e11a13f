// SPDX-License-Identifier: Apache-2.0
// sql: — Camel's camel-sql on PostgreSQL (libpq) and SQLite: the option table (Camel's names
// and defaults), endpoints, and the registration of the component, master: (whose lease is in
// PostgreSQL, master_component.cc), the data source and repository beans and the exception
// types.
#include <cctype>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/engine/resource.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/option_table.h>

#include "data_sources.h"
#include "sql_consumer.h"
#include "sql_failure.h"
#include "sql_producer.h"
#include "sql_repositories.h"

namespace dromedary {
namespace component::sql {

namespace {

constexpr OptionSpec kOptions[] = {
    {"dataSource", OptionType::String, "",
     "#NAME of the data source (camel.datasource.NAME.url, or a DataSource bean); default: the "
     "only one there is"},
    {"outputType", OptionType::Enum, "SelectList",
     "SelectList: the rows as a list of maps; SelectOne: the one row (its value when it has "
     "one column, null when there is none); StreamList: the rows one at a time as the body is read (split with streaming)",
     "SelectList,SelectOne,StreamList"},
    {"outputHeader", OptionType::String, "",
     "Store the result in this header and keep the body"},
    {"outputClass", OptionType::String, "",
     "Accepted for Camel's files and ignored (rows stay maps), with a warning"},
    {"allowNamedParameters", OptionType::Bool, "true",
     "Whether :#name, :#${expression} and :#in:name are parameters"},
    {"separator", OptionType::String, ",",
     "Where a text body is split into the values of # parameters"},
    {"placeholder", OptionType::String, "#",
     "The text that stands for a positional parameter (as ? in JDBC)"},
    {"usePlaceholder", OptionType::Bool, "true",
     "Whether the placeholder is a parameter; false: only ? is"},
    {"parametersCount", OptionType::Int, "0",
     "When above zero: the number of values each execution must have"},
    {"alwaysPopulateStatement", OptionType::Bool, "false",
     "Accepted for Camel's files: parameters are always taken from the message"},
    {"batch", OptionType::Bool, "false",
     "The body is a list: run the statement once per element (a list of values, or a map for "
     "named parameters) in one transaction; CamelSqlUpdateCount is the total"},
    {"noop", OptionType::Bool, "false", "Keep the message body, whatever the query returns"},
    {"useMessageBodyForSql", OptionType::Bool, "false",
     "The body is the statement (? for parameters), its values in the CamelSqlParameters "
     "header"},
    {"lazyStartProducer", OptionType::Bool, "false",
     "Accepted for Camel's files: connections are opened on first use anyway"},
    // Consumer.
    {"onConsume", OptionType::String, "",
     "After each row's exchange completed: this statement, with the row's columns as named "
     "parameters"},
    {"onConsumeFailed", OptionType::String, "",
     "After each row's exchange failed: this statement, with the row's columns as parameters"},
    {"onConsumeBatchComplete", OptionType::String, "",
     "After each poll that found rows: this statement (without parameters)"},
    {"expectedUpdateCount", OptionType::Int, "-1",
     "When 0 or more: onConsume must change this many rows, else it counts as failed"},
    {"breakBatchOnConsumeFail", OptionType::Bool, "false",
     "Stop the poll's batch when onConsume failed"},
    {"maxMessagesPerPoll", OptionType::Int, "0", "At most this many rows per poll; 0: all"},
    {"useIterator", OptionType::Bool, "true",
     "One exchange per row; false: one exchange with the list of rows"},
    {"routeEmptyResultSet", OptionType::Bool, "false",
     "With useIterator=false: route an empty list when the query finds nothing"},
    {"sendEmptyMessageWhenIdle", OptionType::Bool, "false",
     "Route an empty message when a poll finds nothing"},
    {"transacted", OptionType::Bool, "false",
     "Each poll is one transaction on the consumer's connection: the query's row locks (FOR "
     "UPDATE SKIP LOCKED) hold and onConsume commits only after the exchanges completed; a "
     "failed exchange stops the batch"},
    {"initialDelay", OptionType::Duration, "1000", "Before the first poll"},
    {"delay", OptionType::Duration, "500", "Between polls"},
    {"useFixedDelay", OptionType::Bool, "true",
     "Accepted for Camel's files: the delay runs from the end of a poll"},
    {"repeatCount", OptionType::Int, "0", "Polls before the consumer stops polling; 0: for ever"},
    {"greedy", OptionType::Bool, "false", "Poll again at once after a poll that found rows"},
    {"bridgeErrorHandler", OptionType::Bool, "false",
     "Accepted for Camel's files: a failed poll is logged and the consumer's health is DOWN"},
};

class SqlEndpoint final : public Endpoint {
 public:
  SqlEndpoint(Component& component, const Uri& uri, EndpointOptions options,
              std::unique_ptr<ProducerConfig> producer, std::unique_ptr<ConsumerConfig> consumer)
      : Endpoint(component, uri, std::move(options)),
        producer_(std::move(producer)),
        consumer_(std::move(consumer)) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return std::unique_ptr<Producer>(std::make_unique<SqlProducer>(*producer_, parsedUri().text()));
  }
  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    return std::unique_ptr<Consumer>(
        std::make_unique<SqlConsumer>(context(), *consumer_, processor));
  }

 private:
  std::unique_ptr<ProducerConfig> producer_;
  std::unique_ptr<ConsumerConfig> consumer_;
};

// A query file's text without its blank lines and `--` comment lines, as Camel reads one.
std::string withoutCommentLines(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    std::string_view trimmed = line;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) {
      trimmed.remove_prefix(1);
    }
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) {
      trimmed.remove_suffix(1);
    }
    if (trimmed.empty() || trimmed.starts_with("--")) continue;
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

class SqlComponent final : public Component {
 public:
  explicit SqlComponent(std::string scheme = "sql") : scheme_(std::move(scheme)) {}
  std::string_view scheme() const override { return scheme_; }
  std::string_view syntax() const override { return "sql:query"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    auto made = make(uri, options);
    if (!made) {
      return makeError(made.error().code,
                       fmt::format("endpoint '{}': {}", uri.text(), made.error().message));
    }
    return made;
  }

 private:
  Result<std::unique_ptr<Endpoint>> make(const Uri& uri, EndpointOptions& options) {
    Context& c = context();
    std::string sql(uri.path());
    const bool use_body = options.getBool("useMessageBodyForSql");
    if (sql.empty() && !use_body) {
      return makeError(ErrorCode::InvalidOption,
                       "the query is missing (sql:select ... or useMessageBodyForSql=true)");
    }
    if (isResourceUri(sql)) {
      DROMEDARY_TRY(text, readResourceUri(c, sql));
      std::string from = std::move(sql);
      sql = withoutCommentLines(text);
      if (sql.empty()) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("the query file '{}' holds no statement", from));
      }
    }
    if (options.isSet("outputClass")) {
      Logger::get("dromedary.sql").log(
          LoggingLevel::Warn,
          fmt::format("endpoint '{}': outputClass '{}' is ignored: rows stay maps", uri.text(),
                      options.getString("outputClass")));
    }
    DROMEDARY_TRY(db, lookupDataSource(c, options.getString("dataSource")));
    std::string placeholder =
        options.getBool("usePlaceholder") ? options.getString("placeholder") : std::string();
    const std::string& separator = options.getString("separator");
    if (separator.size() != 1) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("separator must be one character, not '{}'", separator));
    }
    auto parse = [&](std::string_view text) -> Result<ParsedQuery> {
      DROMEDARY_TRY(q, ParsedQuery::parse(text, placeholder, c));
      if (!options.getBool("allowNamedParameters")) {
        for (const QueryParameter& p : q.parameters()) {
          if (p.kind != QueryParameter::Kind::Positional) {
            return makeError(ErrorCode::InvalidOption,
                             fmt::format("the query '{}' has a named parameter but "
                                         "allowNamedParameters is false",
                                         text));
          }
        }
      }
      q.setSeparator(separator[0]);
      return q;
    };

    auto producer = std::make_unique<ProducerConfig>();
    producer->context = &c;
    producer->database = db;
    if (!sql.empty()) {
      DROMEDARY_TRY(q, parse(sql));
      producer->query = std::move(q);
      if (!producer->query.hasInList()) {
        producer->statement = std::make_unique<StatementText>(producer->query.statementSql());
      }
    }
    std::string_view output = options.getString("outputType");
    producer->outputType = output == "SelectOne"    ? OutputType::SelectOne
                           : output == "StreamList" ? OutputType::StreamList
                                                    : OutputType::SelectList;
    producer->outputHeader = options.getString("outputHeader");
    producer->batch = options.getBool("batch");
    producer->noop = options.getBool("noop");
    producer->useMessageBodyForSql = use_body;
    producer->parametersCount = static_cast<int>(options.getInt("parametersCount"));
    producer->placeholder = placeholder;
    producer->separator = separator[0];

    auto consumer = std::make_unique<ConsumerConfig>();
    consumer->uri = uri.text();
    consumer->database = db;
    if (!sql.empty()) {
      DROMEDARY_TRY(q, parse(sql));
      consumer->query = std::move(q);
    }
    for (auto [name, slot] : {std::pair{"onConsume", &consumer->onConsume},
                              std::pair{"onConsumeFailed", &consumer->onConsumeFailed},
                              std::pair{"onConsumeBatchComplete",
                                        &consumer->onConsumeBatchComplete}}) {
      const std::string& text = options.getString(name);
      if (text.empty()) continue;
      DROMEDARY_TRY(q, parse(text));
      if (q.hasInList()) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("{} cannot use an IN list parameter", name));
      }
      slot->emplace(std::move(q));
    }
    consumer->initialDelay = options.getDuration("initialDelay");
    consumer->delay = options.getDuration("delay");
    consumer->repeatCount = options.getInt("repeatCount");
    consumer->maxMessagesPerPoll = options.getInt("maxMessagesPerPoll");
    consumer->expectedUpdateCount = options.getInt("expectedUpdateCount");
    consumer->useIterator = options.getBool("useIterator");
    consumer->routeEmptyResultSet = options.getBool("routeEmptyResultSet");
    consumer->sendEmptyMessageWhenIdle = options.getBool("sendEmptyMessageWhenIdle");
    consumer->transacted = options.getBool("transacted");
    consumer->breakBatchOnConsumeFail = options.getBool("breakBatchOnConsumeFail");
    consumer->greedy = options.getBool("greedy");
    return std::unique_ptr<Endpoint>(std::make_unique<SqlEndpoint>(
        *this, uri, std::move(options), std::move(producer), std::move(consumer)));
  }

  std::string scheme_;
};

}  // namespace

void addMasterComponent(Context& context);

void addSqlComponent(Context& context, std::string scheme) {
  context.addComponent(std::make_unique<SqlComponent>(std::move(scheme)));
}

}  // namespace component::sql

void registerSqlComponent(Context& context) {
  using namespace component::sql;
  addSqlComponent(context, "sql");
  addMasterComponent(context);
  // A route file's (or a Kamelet's) own instance of the component, under the bean's name as
  // its scheme ("{{local-sql}}:select ..."); Camel's component properties are not needed here.
  context.addBeanFactory("org.apache.camel.component.sql.SqlComponent",
                         [](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
                           if (!c.component(bean.name)) addSqlComponent(c, bean.name);
                           return {};
                         });
  registerSqlExceptionTypes(context);
  registerDataSourceBeans(context);
  registerRepositoryBeans(context);
}

}  // namespace dromedary
