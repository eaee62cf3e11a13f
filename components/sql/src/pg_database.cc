// SPDX-License-Identifier: Apache-2.0
// The PostgreSQL pool: one thread polls every connection's socket. A statement waits in a
// queue for an idle connection; on it, the statement's prepare (the first time on that
// connection), its executions and a sync go out together in pipeline mode, and the results
// are read as they come. A broken connection fails the statement it carried and is dropped;
// the next statement opens a new one.
#include "pg_database.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <deque>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include <dromedary/core/logging.h>

#include "pg_session.h"
#include "pg_values.h"

namespace dromedary::component::sql {

namespace {

struct Request {
  const StatementText* statement;
  std::vector<PgParams> executions;
  QueryCallback* callback;
};

struct Connection {
  PGconn* pg = nullptr;
  bool connecting = true;
  PostgresPollingStatusType connectWants = PGRES_POLLING_WRITING;
  std::unordered_set<uint64_t> prepared;
  Request* request = nullptr;  // the statement it carries; null when idle
  bool wantsWrite = false;     // output not yet flushed
  bool preparing = false;      // the request's prepare is ahead of its results
  std::optional<SqlError> error;
  QueryResult result;
};

std::string statementName(uint64_t id) { return fmt::format("dromedary_{}", id); }

class PgDatabase final : public Database {
 public:
  explicit PgDatabase(PgSettings settings) : settings_(std::move(settings)) {
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { loop(); });
  }

  ~PgDatabase() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake();
    thread_.join();
    close(wake_);
  }

  Dialect dialect() const noexcept override { return Dialect::PostgreSQL; }
  const std::string& describe() const noexcept override { return settings_.description; }
  bool blocksCaller() const noexcept override { return false; }

  void execute(const StatementText& statement, std::vector<std::vector<Value>> param_sets,
               QueryCallback& callback) noexcept override {
    auto* request = new (std::nothrow) Request{&statement, {}, &callback};
    if (!request) {
      callback.done(SqlError{"", "out of memory"});
      return;
    }
    try {
      request->executions.resize(param_sets.size());
      for (size_t i = 0; i < param_sets.size(); ++i) {
        request->executions[i].assign(param_sets[i]);
        request->executions[i].point();
      }
    } catch (...) {
      delete request;
      callback.done(SqlError{"", "out of memory"});
      return;
    }
    {
      std::lock_guard lock(mutex_);
      if (stopping_) {
        delete request;
        callback.done(SqlError{"08003", "the data source " + settings_.description +
                                             " is closed"});
        return;
      }
      incoming_.push_back(request);
    }
    wake();
  }

  Result<std::unique_ptr<Session>> openSession() override {
    return openPgSession(settings_.keywords, settings_.description);
  }

 private:
  void wake() noexcept {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_, &one, sizeof one);
  }

  void loop() {
    std::vector<pollfd> fds;
    std::vector<Connection*> polled;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        while (!incoming_.empty()) {
          waiting_.push_back(incoming_.front());
          incoming_.pop_front();
        }
        if (stopping_) break;
      }
      dispatch();
      fds.clear();
      polled.clear();
      fds.push_back({wake_, POLLIN, 0});
      for (Connection& c : connections_) {
        if (!c.pg) continue;
        short events = 0;
        if (c.connecting) {
          events = c.connectWants == PGRES_POLLING_READING ? POLLIN : POLLOUT;
        } else if (c.request) {
          events = static_cast<short>(POLLIN | (c.wantsWrite ? POLLOUT : 0));
        } else {
          events = POLLIN;  // an idle connection's socket: the server closing it
        }
        fds.push_back({PQsocket(c.pg), events, 0});
        polled.push_back(&c);
      }
      if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
      if (fds[0].revents) {
        uint64_t count;
        [[maybe_unused]] ssize_t n = read(wake_, &count, sizeof count);
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents && polled[i - 1]->pg) advance(*polled[i - 1], fds[i].revents);
      }
      connections_.remove_if([](const Connection& c) { return c.pg == nullptr; });
    }
    // Stopping: what still waits or runs fails; the connections close.
    for (Request* r : waiting_) finish(r, SqlError{"08003", "the data source is closed"});
    waiting_.clear();
    for (Connection& c : connections_) {
      if (c.request) finish(c.request, SqlError{"08003", "the data source is closed"});
      PQfinish(c.pg);
    }
    connections_.clear();
  }

  // Gives waiting statements to idle connections, opening connections up to the pool's size.
  void dispatch() {
    for (Connection& c : connections_) {
      if (waiting_.empty()) return;
      if (!c.pg || c.connecting || c.request) continue;
      Request* r = waiting_.front();
      waiting_.pop_front();
      send(c, r);
    }
    size_t connecting = 0;
    for (const Connection& c : connections_) connecting += c.connecting ? 1 : 0;
    while (waiting_.size() > connecting &&
           connections_.size() < static_cast<size_t>(settings_.poolSize)) {
      if (!connect()) return;
      ++connecting;
    }
  }

  bool connect() {
    std::vector<const char*> keys, values;
    for (const auto& [k, v] : settings_.keywords) {
      keys.push_back(k.c_str());
      values.push_back(v.c_str());
    }
    keys.push_back(nullptr);
    values.push_back(nullptr);
    PGconn* pg = PQconnectStartParams(keys.data(), values.data(), 1);
    if (!pg || PQstatus(pg) == CONNECTION_BAD) {
      failWaiting(pgConnectionError(pg, "cannot connect to " + settings_.description));
      PQfinish(pg);
      return false;
    }
    Connection& c = connections_.emplace_back();
    c.pg = pg;
    return true;
  }

  // Every waiting statement fails: the server cannot be reached.
  void failWaiting(const SqlError& error) {
    while (!waiting_.empty()) {
      finish(waiting_.front(), error);
      waiting_.pop_front();
    }
  }

  void send(Connection& c, Request* r) {
    c.request = r;
    c.error.reset();
    c.result = QueryResult();
    const StatementText& s = *r->statement;
    bool ok = true;
    std::string name;
    if (s.id != 0) {
      name = statementName(s.id);
      c.preparing = !c.prepared.contains(s.id);
      if (c.preparing) {
        ok = PQsendPrepare(c.pg, name.c_str(), s.sql.c_str(), 0, nullptr) == 1;
        c.prepared.insert(s.id);
      }
    }
    for (PgParams& p : r->executions) {
      if (!ok) break;
      ok = s.id != 0 ? PQsendQueryPrepared(c.pg, name.c_str(), p.count(), p.values.data(),
                                           p.lengths.data(), p.formats.data(), 0) == 1
                     : PQsendQueryParams(c.pg, s.sql.c_str(), p.count(), nullptr, p.values.data(),
                                         p.lengths.data(), p.formats.data(), 0) == 1;
    }
    ok = ok && PQpipelineSync(c.pg) == 1;
    if (!ok) {
      broken(c, pgConnectionError(c.pg, "sending to " + settings_.description));
      return;
    }
    flush(c);
  }

  void flush(Connection& c) {
    int rc = PQflush(c.pg);
    if (rc < 0) {
      broken(c, pgConnectionError(c.pg, "sending to " + settings_.description));
      return;
    }
    c.wantsWrite = rc == 1;
  }

  void advance(Connection& c, short revents) {
    if (c.connecting) {
      c.connectWants = PQconnectPoll(c.pg);
      if (c.connectWants == PGRES_POLLING_FAILED) {
        failWaiting(pgConnectionError(c.pg, "cannot connect to " + settings_.description));
        PQfinish(c.pg);
        c.pg = nullptr;
      } else if (c.connectWants == PGRES_POLLING_OK) {
        c.connecting = false;
        if (PQsetnonblocking(c.pg, 1) != 0 || PQenterPipelineMode(c.pg) != 1) {
          failWaiting(pgConnectionError(c.pg, "setting up a connection to " +
                                                  settings_.description));
          PQfinish(c.pg);
          c.pg = nullptr;
        }
      }
      return;
    }
    if ((revents & POLLOUT) && c.wantsWrite) {
      flush(c);
      if (!c.pg) return;
    }
    if (!(revents & (POLLIN | POLLERR | POLLHUP))) return;
    if (PQconsumeInput(c.pg) != 1) {
      broken(c, pgConnectionError(c.pg, "connection to " + settings_.description + " lost"));
      return;
    }
    if (!c.request) return;  // an idle connection's notice: nothing to read for anyone
    while (c.request && !PQisBusy(c.pg)) {
      PGresult* res = PQgetResult(c.pg);
      if (!res) continue;  // the end of one statement's results
      ExecStatusType status = PQresultStatus(res);
      if (status == PGRES_PIPELINE_SYNC) {
        PQclear(res);
        Request* r = c.request;
        c.request = nullptr;
        if (c.error) {
          finish(r, std::move(*c.error));
        } else {
          finish(r, std::move(c.result));
        }
        c.error.reset();
        c.result = QueryResult();
        return;
      }
      if (status == PGRES_FATAL_ERROR) {
        if (!c.error) c.error = pgResultError(res);
        if (c.preparing) c.prepared.erase(c.request->statement->id);
      } else if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
        if (c.preparing) {
          c.preparing = false;  // the prepare's own result
        } else {
          appendPgResult(res, c.result);
        }
      }
      PQclear(res);
    }
  }

  // The connection failed: its statement fails with `error`, and it is dropped.
  void broken(Connection& c, SqlError error) {
    if (c.request) finish(c.request, std::move(error));
    c.request = nullptr;
    PQfinish(c.pg);
    c.pg = nullptr;
  }

  static void finish(Request* r, QueryOutcome&& outcome) {
    QueryCallback* callback = r->callback;
    delete r;
    callback->done(std::move(outcome));
  }

  PgSettings settings_;
  int wake_ = -1;
  std::thread thread_;
  std::mutex mutex_;
  std::deque<Request*> incoming_;  // under mutex_
  bool stopping_ = false;          // under mutex_
  // The loop thread's own.
  std::deque<Request*> waiting_;
  std::list<Connection> connections_;
};

}  // namespace

std::shared_ptr<Database> openPostgreSQL(PgSettings settings) {
  return std::make_shared<PgDatabase>(std::move(settings));
}

}  // namespace dromedary::component::sql
