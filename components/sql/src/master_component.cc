// SPDX-License-Identifier: Apache-2.0
// master: — Camel's master component (`master:NAMESPACE:ENDPOINT`): of all instances running
// the route, only the leader of NAMESPACE consumes from ENDPOINT; the others stand by.
//
// The lease is a PostgreSQL advisory lock held by a session of the member's own
// (pg_try_advisory_lock): the server gives it up the moment that session ends, so a killed
// leader's lock is free at once, with nothing to expire. Safety against two leaders:
//   - the leader checks its session every acquireLockInterval, with a timeout of the same
//     length, and stops its consumer as soon as a check fails;
//   - a new leader waits one interval and its check timeout after taking the lock before it
//     starts consuming, time for a leader that lost its connection to have noticed;
//   - the server notices a vanished leader's session only after its TCP keepalives (about
//     nine seconds, set on the session), which is longer than that.
// Each acquisition also bumps the namespace's term in table dromedary_cluster_leaders, so that
// management and `dromedary get cluster` show who leads and since when.
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

#include "data_sources.h"
#include "database.h"

namespace dromedary {
namespace component::sql {

namespace {

constexpr std::string_view kProperties = "camel.cluster.postgresql.";

struct ClusterSettings {
  std::shared_ptr<Database> database;
  std::string member;  // this instance's id
  std::chrono::milliseconds interval{1000};
};

const StatementText& tryLock() {
  static const StatementText s(
      "SELECT pg_try_advisory_lock(hashtext('dromedary.master'), hashtext($1))");
  return s;
}
const StatementText& unlock() {
  static const StatementText s(
      "SELECT pg_advisory_unlock(hashtext('dromedary.master'), hashtext($1))");
  return s;
}
const StatementText& newTerm() {
  static const StatementText s(
      "INSERT INTO dromedary_cluster_leaders (namespace, leader, term, since) "
      "VALUES ($1, $2, 1, CURRENT_TIMESTAMP) ON CONFLICT (namespace) DO UPDATE SET leader = $2, "
      "term = dromedary_cluster_leaders.term + 1, since = CURRENT_TIMESTAMP "
      "RETURNING term, to_char(since, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS')");
  return s;
}

class MasterConsumer final : public Consumer {
 public:
  MasterConsumer(Endpoint& delegate, Processor& processor, const ClusterSettings& settings,
                 std::string ns)
      : delegate_(delegate),
        processor_(processor),
        settings_(settings),
        namespace_(std::move(ns)),
        log_(Logger::get("dromedary.master")) {}
  // The context has drained the route (or given up waiting): the lease goes only now, so that
  // the next leader starts after this one's last exchange, never beside it.
  ~MasterConsumer() override {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  Result<void> start() override {
    {
      std::lock_guard lock(mutex_);
      stopped_ = false;
      if (consumer_) return consumer_->start();  // resumed while still leading
    }
    if (thread_.joinable()) thread_.join();  // a follower's, which ended at stop()
    {
      std::lock_guard lock(mutex_);
      stopping_ = false;
    }
    thread_ = std::thread([this] { run(); });
    return {};
  }

  // Takes no more work: a leader's consumer stops taking work but the lease is kept (and
  // checked) while what it took finishes; a follower stops trying for the lease.
  void stop() noexcept override {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
      if (consumer_) {
        consumer_->stop();
        return;
      }
      stopping_ = true;
    }
    wake_.notify_all();
  }

  // What the leader's consumer still has: the context's stop waits for it.
  size_t completing() const noexcept override {
    std::lock_guard lock(mutex_);
    return consumer_ ? consumer_->completing() : 0;
  }
  size_t pendingExchanges() const noexcept override {
    std::lock_guard lock(mutex_);
    return consumer_ ? consumer_->pendingExchanges() : 0;
  }
  size_t abandonPending() noexcept override {
    std::lock_guard lock(mutex_);
    return consumer_ ? consumer_->abandonPending() : 0;
  }

  std::string healthProblem() const override {
    std::lock_guard lock(mutex_);
    return problem_;
  }

  std::vector<std::pair<std::string, std::string>> details() const override {
    std::lock_guard lock(mutex_);
    return {{"namespace", namespace_},
            {"role", leading_ ? "leader" : "follower"},
            {"member", settings_.member},
            {"leader", leading_ ? settings_.member : std::string()},
            {"term", leading_ ? std::to_string(term_) : std::string()},
            {"since", leading_ ? since_ : std::string()}};
  }

 private:
  // False when stopping.
  bool sleepFor(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, wait, [&] { return stopping_; });
    return !stopping_;
  }

  void setProblem(std::string problem) {
    std::lock_guard lock(mutex_);
    problem_ = std::move(problem);
  }

  void run() {
    do {
      if (leading_) {
        if (!session_->alive(settings_.interval)) {
          resign("lost its database connection");
        }
        continue;
      }
      {
        std::lock_guard lock(mutex_);
        if (stopped_) break;  // stopped: never leads anew
      }
      if (!session_) {
        auto opened = settings_.database->openSession();
        if (!opened) {
          setProblem(fmt::format("cannot reach the cluster's database: {}",
                                 opened.error().message));
          continue;
        }
        session_ = std::move(*opened);
        setProblem({});
      }
      if (acquire()) lead();
    } while (sleepFor(settings_.interval));
    if (leading_) resign("is stopping");
    if (session_) {
      (void)session_->execute(unlock(), std::vector<Value>{Value(namespace_)});
      session_.reset();
    }
  }

  // Tries the lock once; true when this member holds it.
  bool acquire() {
    QueryOutcome got = session_->execute(tryLock(), std::vector<Value>{Value(namespace_)});
    if (auto* e = std::get_if<SqlError>(&got)) {
      setProblem(fmt::format("cannot take the lease of '{}': {}", namespace_, describeError(*e)));
      session_.reset();
      return false;
    }
    const ValueList& rows = std::get<QueryResult>(got).rows;
    return !rows.empty() && rows[0].getMap()[0].second == Value(true);
  }

  void lead() {
    // A leader that lost its connection stops within one interval and one check timeout:
    // wait that long before consuming (no two leaders at once).
    if (!sleepFor(2 * settings_.interval) || !session_->alive(settings_.interval)) {
      session_.reset();  // ends the session: the lock is free again
      return;
    }
    int64_t term = 0;
    std::string since;
    QueryOutcome bumped =
        session_->execute(newTerm(), std::vector<Value>{Value(namespace_), Value(settings_.member)});
    if (auto* r = std::get_if<QueryResult>(&bumped); r && !r->rows.empty()) {
      term = r->rows[0].getMap()[0].second.as<int64_t>();
      since = r->rows[0].getMap()[1].second.toString();
    }
    auto made = delegate_.createConsumer(processor_);
    Result<void> started = made ? (*made)->start() : Result<void>(made.error());
    if (!started) {
      setProblem(fmt::format("leader of '{}' but its consumer cannot start: {}", namespace_,
                             started.error().message));
      session_.reset();
      return;
    }
    {
      std::lock_guard lock(mutex_);
      consumer_ = std::move(*made);
      leading_ = true;
      term_ = term;
      since_ = since;
      if (stopped_) consumer_->stop();  // stop() came while it started
    }
    log_.log(LoggingLevel::Info,
             fmt::format("{} is the leader of '{}' (term {}): consuming from {}", settings_.member,
                         namespace_, term, delegate_.uri()));
  }

  void resign(std::string_view why) {
    std::unique_ptr<Consumer> consumer;
    {
      std::lock_guard lock(mutex_);
      consumer = std::move(consumer_);
      leading_ = false;
    }
    if (consumer) consumer->stop();
    log_.log(LoggingLevel::Warn, fmt::format("{} is no longer the leader of '{}': it {}",
                                             settings_.member, namespace_, why));
    if (why != "is stopping") session_.reset();
  }

  Endpoint& delegate_;
  Processor& processor_;
  const ClusterSettings& settings_;
  std::string namespace_;
  Logger log_;
  std::unique_ptr<Session> session_;  // the run thread's
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // the run thread ends
  bool stopped_ = false;   // no new work: stop() came (the lease is kept while leading)
  bool leading_ = false;
  int64_t term_ = 0;
  std::string since_;
  std::string problem_;
  std::unique_ptr<Consumer> consumer_;
};

class MasterEndpoint final : public Endpoint {
 public:
  MasterEndpoint(Component& component, const Uri& uri, EndpointOptions options, std::string ns,
                 std::string delegate, const ClusterSettings& settings)
      : Endpoint(component, uri, std::move(options)),
        namespace_(std::move(ns)),
        delegate_(std::move(delegate)),
        settings_(settings) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("'{}': master: endpoints only consume (from:)", uri()));
  }
  // The delegate is resolved here, at route start (the context's endpoint lookup cannot be
  // entered again from createEndpoint): a bad delegate URI fails the start, naming it.
  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    DROMEDARY_TRY(delegate, context().endpoint(delegate_));
    return std::unique_ptr<Consumer>(
        std::make_unique<MasterConsumer>(*delegate, processor, settings_, namespace_));
  }

 private:
  std::string namespace_;
  std::string delegate_;
  const ClusterSettings& settings_;
};

class MasterComponent final : public Component {
 public:
  std::string_view scheme() const override { return "master"; }
  std::string_view syntax() const override { return "master:namespace:delegateUri"; }
  std::span<const OptionSpec> endpointOptions() const override { return {}; }
  // Every option belongs to the delegate endpoint.
  bool lenientOptions() const noexcept override { return true; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    const std::string_view path = uri.path();
    size_t colon = path.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == path.size()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("'{}': expected master:NAMESPACE:ENDPOINT, e.g. "
                                   "master:poller:timer:tick",
                                   uri.text()));
    }
    std::string ns(path.substr(0, colon));
    std::string delegate_uri(path.substr(colon + 1));
    size_t question = uri.text().find('?');
    if (question != std::string::npos) delegate_uri += uri.text().substr(question);
    DROMEDARY_TRY(settings, clusterSettings());
    return std::unique_ptr<Endpoint>(std::make_unique<MasterEndpoint>(
        *this, uri, std::move(options), std::move(ns), std::move(delegate_uri), *settings));
  }

 private:
  // The cluster service's settings, read once: camel.cluster.postgresql.dataSource (default:
  // the only data source), .id (default HOST-PID), .acquireLockInterval (default 1000 ms).
  Result<const ClusterSettings*> clusterSettings() {
    std::lock_guard lock(mutex_);
    if (settings_) return settings_.get();
    auto get = [&](std::string_view key) -> Result<std::optional<std::string>> {
      auto raw = context().properties().get(std::string(kProperties) + std::string(key));
      if (!raw) return std::optional<std::string>();
      DROMEDARY_TRY(resolved, context().resolvePlaceholders(*raw));
      return std::optional<std::string>(std::move(resolved));
    };
    auto settings = std::make_unique<ClusterSettings>();
    DROMEDARY_TRY(ds, get("dataSource"));
    auto db = lookupDataSource(context(), ds ? *ds : std::string());
    if (!db) {
      return makeError(db.error().code,
                       fmt::format("master: needs a PostgreSQL data source for its lease "
                                   "(camel.cluster.postgresql.dataSource): {}",
                                   db.error().message));
    }
    if ((*db)->dialect() != Dialect::PostgreSQL) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("master: holds its lease in PostgreSQL; {} is not",
                                   (*db)->describe()));
    }
    settings->database = *db;
    DROMEDARY_TRY(id, get("id"));
    if (id) {
      settings->member = *id;
    } else {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      settings->member = fmt::format("{}-{}", host, getpid());
    }
    DROMEDARY_TRY(interval, get("acquireLockInterval"));
    if (interval) {
      char* end = nullptr;
      long ms = std::strtol(interval->c_str(), &end, 10);
      if (end == interval->c_str() || *end != '\0' || ms < 10) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("camel.cluster.postgresql.acquireLockInterval must be a "
                                     "number of milliseconds (10 or more), not '{}'",
                                     *interval));
      }
      settings->interval = std::chrono::milliseconds(ms);
    }
    StatementText table(
        "CREATE TABLE IF NOT EXISTS dromedary_cluster_leaders (namespace VARCHAR(255) PRIMARY "
        "KEY, leader VARCHAR(255) NOT NULL, term BIGINT NOT NULL, since TIMESTAMPTZ NOT NULL)",
        /*once=*/true);
    for (int attempt = 0;; ++attempt) {  // instances starting together race to create it
      QueryOutcome made = settings->database->executeAndWait(table, {});
      auto* e = std::get_if<SqlError>(&made);
      if (!e) break;
      if (attempt < 2 && (e->sqlState == "23505" || e->sqlState == "42P07" ||
                          e->sqlState == "42710")) {
        continue;
      }
      if (e->sqlState.starts_with("08")) break;  // the database is away: leadership waits
      return makeError(ErrorCode::Io, fmt::format("master: cannot create its table in {}: {}",
                                                  settings->database->describe(),
                                                  describeError(*e)));
    }
    settings_ = std::move(settings);
    return settings_.get();
  }

  std::mutex mutex_;
  std::unique_ptr<ClusterSettings> settings_;
};

}  // namespace

void addMasterComponent(Context& context) {
  context.addComponent(std::make_unique<MasterComponent>());
}

}  // namespace component::sql
}  // namespace dromedary
