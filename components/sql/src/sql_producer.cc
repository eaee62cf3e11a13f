// SPDX-License-Identifier: Apache-2.0
#include "sql_producer.h"

#include <atomic>
#include <cctype>

#include <fmt/format.h>

#include <dromedary/core/value_stream.h>
#include <dromedary/engine/context.h>

#include "sql_failure.h"

namespace dromedary::component::sql {

namespace {

constexpr std::string_view kQueryHeader = "CamelSqlQuery";
constexpr std::string_view kParametersHeader = "CamelSqlParameters";
constexpr std::string_view kRowCount = "CamelSqlRowCount";
constexpr std::string_view kUpdateCount = "CamelSqlUpdateCount";
constexpr std::string_view kRetrieveKeys = "CamelSqlRetrieveGeneratedKeys";
constexpr std::string_view kKeyRows = "CamelSqlGeneratedKeyRows";
constexpr std::string_view kKeyCount = "CamelSqlGeneratedKeysRowCount";

void resumeTask(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

// The statement asking for the rows it inserted (how CamelSqlRetrieveGeneratedKeys is done):
// RETURNING * after it, past any trailing `;` and blanks.
std::string withReturning(std::string sql) {
  while (!sql.empty() && (sql.back() == ';' || std::isspace(static_cast<unsigned char>(sql.back())))) {
    sql.pop_back();
  }
  return sql + " RETURNING *";
}

// One statement in flight for one exchange. The data source calls done() once, on its thread
// or, for SQLite, before execute() returns; `state` tells which, so that an inline result is
// mapped by process() itself and not resumed.
class Call final : public QueryCallback {
 public:
  enum : int { kSubmitting, kDoneInline, kReturned };

  Call(const ProducerConfig& config, Exchange& exchange, bool generated_keys)
      : config_(config), exchange_(exchange), generatedKeys_(generated_keys) {}

  std::unique_ptr<StatementText> dynamic;  // a statement made for this message only
  const StatementText* statement = nullptr;
  std::string_view query;  // as written, for messages
  std::string ownedQuery;  // a query from the message: the Plan holding it is gone by then

  // The outcome is mapped onto the message at once, on whichever thread it comes (kept, it
  // would be moved twice more). Then whoever is second of done() and returned() goes on with
  // the exchange: process() is between execute() and returned() meanwhile, touching nothing
  // of the exchange, or the exchange is parked.
  void done(QueryOutcome&& outcome) noexcept override {
    apply(outcome);
    int expected = kSubmitting;
    if (state_.compare_exchange_strong(expected, kDoneInline, std::memory_order_acq_rel)) {
      return;  // process() has not reached returned(): it goes on with the exchange
    }
    Exchange& exchange = exchange_;
    Context& context = *config_.context;
    delete this;
    if (!resumeMayBlock(exchange)) {
      exchange.resume();
    } else {
      context.submit({&resumeTask, &exchange});
    }
  }

  bool wantsOneValue() const noexcept override {
    return config_.outputType == OutputType::SelectOne && !generatedKeys_ && !config_.batch;
  }

  /// After execute(): Continue/Fail when the outcome came inline, Suspend when it will come.
  Status returned() noexcept {
    int expected = kSubmitting;
    if (state_.compare_exchange_strong(expected, kReturned, std::memory_order_acq_rel)) {
      return Status::Suspend;
    }
    Status status = exchange_.failed() ? Status::Fail : Status::Continue;
    delete this;
    return status;
  }

 private:
  void apply(QueryOutcome& outcome) noexcept {
    try {
      if (auto* error = std::get_if<SqlError>(&outcome)) {
        exchange_.setException(sqlFailure(*error, query));
        return;
      }
      mapResult(std::get<QueryResult>(outcome));
    } catch (...) {
      exchange_.setException(std::current_exception());
    }
  }

  void mapResult(QueryResult& result) {
    Message& message = exchange_.message();
    Value data;
    bool has_data = false;
    if (generatedKeys_) {
      // The statement ran with RETURNING *: its rows are the generated keys.
      int64_t count = static_cast<int64_t>(result.rows.size());
      message.setHeader(kUpdateCount, Value(result.affected));
      message.setHeader(kKeyCount, Value(count));
      message.setHeader(kKeyRows, Value(std::move(result.rows)));
    } else if (config_.batch) {
      message.setHeader(kUpdateCount, Value(result.affected));
    } else if (result.hasOne) {  // SelectOne's one column of at most one row, as it came
      message.setHeader(kRowCount, Value(result.oneRows));
      if (!config_.outputHeader.empty()) {
        message.setHeader(config_.outputHeader, std::move(result.one));
      } else if (!config_.noop) {
        message.setBody(std::move(result.one));
      }
      return;
    } else if (result.returnedRows) {
      if (config_.outputType == OutputType::SelectOne) {
        int64_t rows = static_cast<int64_t>(result.rows.size());
        auto one = selectOne(result);
        if (!one) {
          exchange_.setException(sqlFailure(SqlError{"21000", one.error().message}, query));
          return;
        }
        message.setHeader(kRowCount, Value(rows > 0 ? int64_t{1} : int64_t{0}));
        data = std::move(*one);
      } else {
        message.setHeader(kRowCount, Value(static_cast<int64_t>(result.rows.size())));
        data = Value(std::move(result.rows));
      }
      has_data = true;
    } else {
      message.setHeader(kUpdateCount, Value(result.affected));
    }
    if (!config_.outputHeader.empty()) {
      message.setHeader(config_.outputHeader, std::move(data));
    } else if (has_data && !config_.noop) {
      message.setBody(std::move(data));
    }
  }

  const ProducerConfig& config_;
  Exchange& exchange_;
  bool generatedKeys_;
  std::atomic<int> state_{kSubmitting};
};

// outputType=StreamList: the rows of a query read one at a time on a session of its own, as
// the body is read (split with streaming); the session goes when the last message holding the
// body lets go of it, or at the last row.
class RowStream final : public ValueStream {
 public:
  // `first`: the first row, read when the query ran (null: there was none).
  RowStream(std::unique_ptr<Session> session, std::string query, std::optional<Value> first)
      : session_(std::move(session)), query_(std::move(query)), first_(std::move(first)) {
    if (!first_) session_.reset();
  }

  bool next(Value& out) override {
    if (first_) {
      out = std::move(*first_);
      first_.reset();
      return true;
    }
    if (!session_) return false;
    std::optional<SqlError> error;
    if (session_->nextRow(out, error)) return true;
    session_.reset();
    if (error) std::rethrow_exception(sqlFailure(*error, query_));
    return false;
  }

 private:
  std::unique_ptr<Session> session_;
  std::string query_;
  std::optional<Value> first_;
};

// Whether a query gives rows (SELECT, WITH, VALUES): a StreamList streams only those; another
// statement runs as usual and gives its update count.
bool givesRows(std::string_view sql) {
  while (!sql.empty() && std::isspace(static_cast<unsigned char>(sql.front()))) {
    sql.remove_prefix(1);
  }
  auto starts = [&](std::string_view word) {
    if (sql.size() < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(sql[i])) != word[i]) return false;
    }
    return sql.size() == word.size() || !std::isalnum(static_cast<unsigned char>(sql[word.size()]));
  };
  return starts("select") || starts("with") || starts("values") || starts("(");
}

Status streamRows(const ProducerConfig& config, Exchange& exchange, const StatementText& statement,
                  std::string_view query, const std::vector<Value>& params) {
  auto session = config.database->openSession();
  if (!session) {
    exchange.setException(sqlFailure(SqlError{"08001", session.error().message}, query));
    return Status::Fail;
  }
  if (auto error = (*session)->startRows(statement, params)) {
    exchange.setException(sqlFailure(*error, query));
    return Status::Fail;
  }
  // The first row now: a query that fails (a missing table ...) fails here, as JDBC's
  // executeQuery does, not at the first read of the body.
  std::optional<Value> first(std::in_place);
  std::optional<SqlError> error;
  if (!(*session)->nextRow(*first, error)) {
    if (error) {
      exchange.setException(sqlFailure(*error, query));
      return Status::Fail;
    }
    first.reset();
  }
  Value rows = Value::makeObject<StreamBody>(
      std::make_shared<RowStream>(std::move(*session), std::string(query), std::move(first)),
      "org.apache.camel.component.sql.ResultSetIterator");
  Message& message = exchange.message();
  if (!config.outputHeader.empty()) {
    message.setHeader(config.outputHeader, std::move(rows));
  } else if (!config.noop) {
    message.setBody(std::move(rows));
  }
  return Status::Continue;
}

// The query and where its values come from, for this message.
struct Plan {
  const ParsedQuery* query;
  std::optional<ParsedQuery> dynamic;  // from the CamelSqlQuery header or the body
  const Value* source;                 // what the values are found in
};

Result<void> plan(const ProducerConfig& config, Exchange& exchange, Plan& p) {
  Message& message = exchange.message();
  p.query = &config.query;
  p.source = &message.body();
  if (config.useMessageBodyForSql) {
    std::string sql = message.body().toString();
    DROMEDARY_TRY(parsed, ParsedQuery::parse(sql, "", *config.context));
    p.dynamic.emplace(std::move(parsed));
    p.query = &*p.dynamic;
    static const Value kNone;
    const Value* params = message.getHeader(kParametersHeader);
    p.source = params ? params : &kNone;
  } else if (const Value* header = message.getHeader(kQueryHeader); header && !header->isNull()) {
    DROMEDARY_TRY(parsed,
                  ParsedQuery::parse(header->toString(), config.placeholder, *config.context));
    p.dynamic.emplace(std::move(parsed));
    p.query = &*p.dynamic;
  }
  return {};
}

}  // namespace

const StatementText& ProducerConfig::returningStatement() const {
  std::call_once(returningOnce_, [&] {
    returning_ = std::make_unique<StatementText>(withReturning(statement->sql));
  });
  return *returning_;
}

Result<Value> selectOne(QueryResult& result) {
  if (result.rows.empty()) return Value();
  if (result.rows.size() > 1) {
    return makeError(ErrorCode::ProcessorFailed,
                     fmt::format("Query result not unique for outputType=SelectOne. Got {} count "
                                 "instead.",
                                 result.rows.size()));
  }
  Value& row = result.rows[0];
  if (result.columns.size() == 1) return row.getMap()[0].second;
  return std::move(row);
}

namespace {

// This thread's parameter lists, lent to one statement at a time.
struct ThreadParamLists {
  std::vector<std::vector<Value>> lists;
  bool lent = false;
};
thread_local ThreadParamLists t_param_lists;

// The parameter lists of the statement being sent. The database reads them before execute()
// returns, so the thread's lists are used again by its next statement, keeping their capacity:
// a statement's parameter lists allocate nothing once warm. A statement sent while another is
// being prepared on the same thread (nothing does so today) gets lists of its own.
class ParamLists {
 public:
  ParamLists() noexcept : shared_(!t_param_lists.lent) {
    if (shared_) t_param_lists.lent = true;
  }
  ~ParamLists() {
    auto& all = lists();
    // The values go now (a large body sent as a parameter is not kept alive by the thread);
    // a big batch's lists beyond a few are let go too.
    for (size_t i = 0; i < used_; ++i) all[i].clear();
    if (all.size() > kKept) {
      all.resize(kKept);
      all.shrink_to_fit();
    }
    if (shared_) t_param_lists.lent = false;
  }
  ParamLists(const ParamLists&) = delete;
  ParamLists& operator=(const ParamLists&) = delete;

  /// An empty list for the next execution's parameters.
  std::vector<Value>& add() {
    auto& all = lists();
    if (used_ == all.size()) all.emplace_back();
    std::vector<Value>& list = all[used_++];
    list.clear();
    return list;
  }
  ParamSets sets() noexcept { return {lists().data(), used_}; }
  size_t size() const noexcept { return used_; }

 private:
  static constexpr size_t kKept = 16;
  std::vector<std::vector<Value>>& lists() noexcept { return shared_ ? t_param_lists.lists : own_; }

  bool shared_;
  size_t used_ = 0;
  std::vector<std::vector<Value>> own_;
};

}  // namespace

Result<void> SqlProducer::start() {
  if (!config_.statement) return {};
  return checkStatement(*config_.database, *config_.statement, "endpoint '" + uri_ + "'");
}

Status SqlProducer::process(Exchange& exchange) noexcept {
  try {
    Plan p;
    if (auto planned = plan(config_, exchange, p); !planned) {
      exchange.setException(sqlFailure(SqlError{"42000", planned.error().message},
                                       p.query ? p.query->original() : config_.query.original()));
      return Status::Fail;
    }
    const Value* retrieve = exchange.message().getHeader(kRetrieveKeys);
    bool generated_keys = retrieve && isTruthy(*retrieve) && !config_.batch;
    ParamLists sets;
    std::vector<size_t> in_counts;
    auto fill = [&](const Value& source) -> bool {
      std::vector<Value>& values = sets.add();
      auto found = p.query->values(exchange, source, values,
                                   p.query->hasInList() ? &in_counts : nullptr);
      if (!found) {
        if (!exchange.failed()) {
          exchange.setException(sqlFailure(SqlError{"07001", found.error().message},
                                           p.query->original()));
        }
        return false;
      }
      if (config_.parametersCount > 0 &&
          values.size() != static_cast<size_t>(config_.parametersCount)) {
        exchange.setException(sqlFailure(
            SqlError{"07001", fmt::format("the statement takes {} parameters (parametersCount) "
                                          "but {} were found",
                                          config_.parametersCount, values.size())},
            p.query->original()));
        return false;
      }
      return true;
    };
    if (config_.batch) {
      const Value& body = *p.source;
      if (body.isList()) {
        for (const Value& item : body.getList()) {
          if (!fill(item)) return Status::Fail;
        }
      } else if (!body.isNull()) {
        if (!fill(body)) return Status::Fail;
      }
      if (sets.size() == 0) {  // nothing to insert: as JDBC's empty batch, zero rows
        exchange.message().setHeader(kUpdateCount, Value(int64_t{0}));
        return Status::Continue;
      }
    } else if (!fill(*p.source)) {
      return Status::Fail;
    }
    if (config_.outputType == OutputType::StreamList && !config_.batch && !generated_keys &&
        givesRows(p.query->original())) {
      std::string_view query = p.query->original();
      if (p.dynamic || p.query->hasInList() || !config_.statement) {
        StatementText once(p.query->hasInList() ? p.query->statementSql(in_counts)
                                                : p.query->statementSql(),
                           /*once=*/true);
        return streamRows(config_, exchange, once, query, sets.sets().front());
      }
      return streamRows(config_, exchange, *config_.statement, query, sets.sets().front());
    }
    auto* call = new Call(config_, exchange, generated_keys);
    if (p.dynamic) {
      call->ownedQuery = p.dynamic->original();
      call->query = call->ownedQuery;
    } else {
      call->query = config_.query.original();
    }
    if (p.dynamic || p.query->hasInList() || !config_.statement) {
      std::string sql = p.query->hasInList() ? p.query->statementSql(in_counts)
                                             : p.query->statementSql();
      if (generated_keys) sql = withReturning(std::move(sql));
      call->dynamic = std::make_unique<StatementText>(std::move(sql), /*once=*/true);
      call->statement = call->dynamic.get();
    } else {
      call->statement = generated_keys ? &config_.returningStatement() : config_.statement.get();
    }
    config_.database->execute(*call->statement, sets.sets(), *call,
                              callerWaits(exchange) ? Caller::WillWait : Caller::MustNotBlock);
    return call->returned();
  } catch (...) {
    exchange.setException(std::current_exception());
    return Status::Fail;
  }
}

}  // namespace dromedary::component::sql
