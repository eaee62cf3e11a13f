// SPDX-License-Identifier: Apache-2.0
// The PostgreSQL pool. A statement goes out on an idle connection in pipeline mode: its
// prepare (the first time on that connection), its executions and a sync together, and the
// results are read as they come.
//
// Who drives a connection: the pool's thread, which polls the sockets of the connections
// carrying statements for callers that must not wait (a route's exchange, parked meanwhile);
// or, for a caller that would wait for the result anyway (Caller::WillWait: a thread in a
// ProducerTemplate, a repository's call), that caller's own thread, which borrows an idle
// connection, sends, and polls its socket itself, as a bare libpq client does. That saves the
// two thread hand-offs per statement (caller to pool thread, pool thread back to caller)
// that cost a waiting caller half its rate. A waiting caller takes the connection it drove
// last when that one is idle (any idle one otherwise): taking the first idle one moved every
// connection between threads and vCPUs, cache-cold after each wake-up, which cost a third of
// the insert rate. Idle connections are polled by nobody: one the server closed meanwhile is
// found (and dropped) when it is next taken.
//
// A broken connection fails the statement it carried and is dropped; the next statement
// opens a new one (the pool's thread opens every connection, up to the pool's size).
#include "pg_database.h"

#include <dromedary/core/logging.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <deque>
#include <list>
#include <mutex>
#include <span>
#include <thread>
#include <unordered_set>

#include "pg_session.h"
#include "pg_values.h"

namespace dromedary::component::sql {

namespace {

struct Request {
  const StatementText* statement;
  std::vector<PgParams> executions;
  QueryCallback* callback;
};

// One pooled connection. Who may touch it: the pool's thread while it is connecting or
// carries a request; the caller that borrowed it while `lent`; nobody while idle. The
// transitions between those are made under the pool's mutex.
struct Connection {
  PGconn* pg = nullptr;
  bool connecting = true;
  bool lent = false;  // a waiting caller drives it
  const void* lastBorrower = nullptr;  // the waiting caller's thread that drove it last
  PostgresPollingStatusType connectWants = PGRES_POLLING_WRITING;
  std::unordered_set<uint64_t> prepared;
  Request* request = nullptr;      // the statement the pool's thread drives on it
  std::vector<PgParams> borrowed;  // a borrower's parameters, kept to reuse their memory
  bool wantsWrite = false;         // output not yet flushed
  bool pipelined = true;           // in libpq's pipeline mode (all but a borrower's plain send)
  bool preparing = false;          // the request's prepare is ahead of its results
  std::optional<SqlError> error;
  QueryResult result;

  bool idle() const noexcept { return pg && !connecting && !request && !lent; }
};

// A token per thread, whose address names the thread to `Connection::lastBorrower`.
thread_local const char kThisThread = 0;

// The pool whose thread this is (null on other threads).
thread_local const void* tPoolOfThisThread = nullptr;

enum class Progress : uint8_t { Pending, Done, Broken };

// Whether an idle connection is still up. Nothing is due on an idle connection (no LISTEN,
// no statement in flight), so anything readable is the server's goodbye (the FATAL message
// before it closes: a terminated backend, idle_session_timeout, a restart): the connection
// is not used again.
bool stillUp(const Connection& c) noexcept {
  pollfd fd{PQsocket(c.pg), POLLIN, 0};
  return PQstatus(c.pg) == CONNECTION_OK && ::poll(&fd, 1, 0) == 0;
}

// Puts statement `s`, once per parameter set, on `c` and sends as much as the socket takes.
// Broken: `c.error` says why.
Progress send(Connection& c, const StatementText& s, std::span<PgParams> executions,
              const QueryCallback& callback, const std::string& description) {
  c.error.reset();
  c.result = QueryResult();
  c.result.oneValueWanted = callback.wantsOneValue();
  bool ok = true;
  const std::string& name = s.name;
  if (s.id != 0) {
    c.preparing = !c.prepared.contains(s.id);
    if (c.preparing) {
      ok = PQsendPrepare(c.pg, name.c_str(), s.sql.c_str(), 0, nullptr) == 1;
      c.prepared.insert(s.id);
    }
  }
  for (PgParams& p : executions) {
    if (!ok) break;
    ok = s.id != 0 ? PQsendQueryPrepared(c.pg, name.c_str(), p.count(), p.values.data(),
                                         p.lengths.data(), p.formats.data(), 0) == 1
                   : PQsendQueryParams(c.pg, s.sql.c_str(), p.count(), nullptr, p.values.data(),
                                       p.lengths.data(), p.formats.data(), 0) == 1;
  }
  if (c.pipelined) ok = ok && PQpipelineSync(c.pg) == 1;
  int flushed = ok ? PQflush(c.pg) : -1;
  if (flushed < 0) {
    c.error = pgConnectionError(c.pg, "sending to " + description);
    return Progress::Broken;
  }
  c.wantsWrite = flushed == 1;
  return Progress::Pending;
}

// Reads what the socket's `revents` allow for the statement `s` that `c` carries: Done once
// its sync came back (the outcome is in c.error or c.result), Broken when the connection
// failed (c.error says why).
Progress advance(Connection& c, const StatementText& s, short revents,
                 const std::string& description) {
  if ((revents & POLLOUT) && c.wantsWrite) {
    int flushed = PQflush(c.pg);
    if (flushed < 0) {
      c.error = pgConnectionError(c.pg, "sending to " + description);
      return Progress::Broken;
    }
    c.wantsWrite = flushed == 1;
  }
  if (!(revents & (POLLIN | POLLERR | POLLHUP))) return Progress::Pending;
  if (PQconsumeInput(c.pg) != 1) {
    c.error = pgConnectionError(c.pg, "connection to " + description + " lost");
    return Progress::Broken;
  }
  while (!PQisBusy(c.pg)) {
    PGresult* res = PQgetResult(c.pg);
    if (!res) {
      if (!c.pipelined) return Progress::Done;  // outside a pipeline, the statement's end
      continue;  // the end of one statement's results
    }
    ExecStatusType status = PQresultStatus(res);
    if (status == PGRES_PIPELINE_SYNC) {
      PQclear(res);
      return Progress::Done;
    }
    if (status == PGRES_FATAL_ERROR) {
      if (!c.error) c.error = pgResultError(res);
      if (c.preparing) c.prepared.erase(s.id);
    } else if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
      if (c.preparing) {
        c.preparing = false;  // the prepare's own result
      } else {
        appendPgResult(res, c.result);
      }
    }
    PQclear(res);
  }
  return Progress::Pending;
}

// The outcome of a statement that came back Done, leaving the connection ready for the next.
QueryOutcome takeOutcome(Connection& c) {
  QueryOutcome out =
      c.error ? QueryOutcome(std::move(*c.error)) : QueryOutcome(std::move(c.result));
  c.error.reset();  // c.result, moved from, is made anew by the next send
  return out;
}

// Parameter sets in libpq's form, in `out` (whose memory is reused); false when memory ran
// out.
bool fillExecutions(std::vector<PgParams>& out,
                    ParamSets param_sets) noexcept {
  try {
    out.resize(param_sets.size());
    for (size_t i = 0; i < param_sets.size(); ++i) {
      out[i].assign(param_sets[i]);
    }
    return true;
  } catch (...) {
    return false;
  }
}

class PgDatabase final : public Database {
 public:
  explicit PgDatabase(PgSettings settings) : settings_(std::move(settings)) {
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { loop(); });
  }

  // Callers that borrowed a connection hold the database (through their endpoint) until they
  // give it back, so none is lent here.
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

  void execute(const StatementText& statement, ParamSets param_sets,
               QueryCallback& callback, Caller caller) noexcept override {
    if (caller == Caller::WillWait && runHere(statement, param_sets, callback)) return;
    // On the pool's thread (the rest of a route its last statement resumed), a finished
    // request is reused, parameters' memory included, and nothing needs waking: the loop
    // takes in what came in before it polls again.
    const bool on_pool_thread = tPoolOfThisThread == this;
    Request* request = nullptr;
    if (on_pool_thread && !spare_.empty()) {
      request = spare_.back().release();
      spare_.pop_back();
      request->statement = &statement;
      request->callback = &callback;
    } else {
      request = new (std::nothrow) Request{&statement, {}, &callback};
    }
    if (!request || !fillExecutions(request->executions, param_sets)) {
      delete request;
      callback.done(SqlError{"", "out of memory"});
      return;
    }
    {
      std::lock_guard lock(mutex_);
      if (stopping_) {
        delete request;
        callback.done(closed());
        return;
      }
      incoming_.push_back(request);
    }
    if (!on_pool_thread) wake();
  }

  Result<std::unique_ptr<Session>> openSession() override {
    return openPgSession(settings_.keywords, settings_.description);
  }

 private:
  SqlError closed() const {
    return SqlError{"08003", "the data source " + settings_.description + " is closed"};
  }

  void wake() noexcept {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_, &one, sizeof one);
  }

  // --- A waiting caller's own thread ---

  // Runs the statement on an idle connection, on this thread: false (nothing done) when none
  // is idle, and the pool's thread then takes it.
  bool runHere(const StatementText& statement, ParamSets param_sets,
               QueryCallback& callback) noexcept {
    Connection* c = borrow();
    if (!c) return false;
    if (!fillExecutions(c->borrowed, param_sets)) {
      giveBack(*c, false);
      callback.done(SqlError{"", "out of memory"});
      return true;
    }
    // One execution of a statement this connection has prepared is sent outside pipeline mode,
    // as a bare client's PQsendQueryPrepared: libpq then makes and reads fewer results (no
    // pipeline sync). Switching modes on an idle connection sends nothing.
    c->pipelined = !(param_sets.size() == 1 && statement.id != 0 &&
                     c->prepared.contains(statement.id) && PQexitPipelineMode(c->pg) == 1);
    Progress p = send(*c, statement, c->borrowed, callback, settings_.description);
    while (p == Progress::Pending) {
      pollfd fd{PQsocket(c->pg), static_cast<short>(POLLIN | (c->wantsWrite ? POLLOUT : 0)), 0};
      if (::poll(&fd, 1, -1) < 0) {
        if (errno == EINTR) continue;
        c->error = SqlError{
            "08006", fmt::format("waiting for {}: poll failed ({})", settings_.description, errno)};
        p = Progress::Broken;
        break;
      }
      p = advance(*c, statement, fd.revents, settings_.description);
    }
    QueryOutcome outcome = p == Progress::Done ? takeOutcome(*c) : QueryOutcome(*c->error);
    if (!c->pipelined) {
      c->pipelined = true;
      if (p != Progress::Broken && PQenterPipelineMode(c->pg) != 1) p = Progress::Broken;
    }
    giveBack(*c, p == Progress::Broken);
    callback.done(std::move(outcome));
    return true;
  }

  // An idle connection, lent to this thread; null when none is, when statements already wait
  // for one (they go first: borrowers do not overtake them), or when the pool is closing. One
  // the server closed meanwhile is dropped on the way.
  Connection* borrow() noexcept {
    for (;;) {
      Connection* found = nullptr;
      {
        std::lock_guard lock(mutex_);
        if (stopping_ || queued_ > 0 || !incoming_.empty()) return nullptr;
        for (Connection& c : connections_) {
          if (!c.idle()) continue;
          if (c.lastBorrower == &kThisThread) {
            found = &c;
            break;
          }
          if (!found) found = &c;
        }
        if (!found) return nullptr;
        found->lent = true;
        found->lastBorrower = &kThisThread;
      }
      if (stillUp(*found)) return found;
      giveBack(*found, true);
    }
  }

  // Ends a loan; a broken connection is closed, and the pool's thread forgets it. The pool's
  // thread is woken when statements wait for a connection.
  void giveBack(Connection& c, bool broken) noexcept {
    bool statements_wait;
    {
      std::lock_guard lock(mutex_);
      if (broken) {
        PQfinish(c.pg);
        c.pg = nullptr;
      }
      c.lent = false;
      statements_wait = queued_ > 0 || !incoming_.empty();
    }
    if (statements_wait) wake();
  }

  // --- The pool's thread ---

  void loop() {
    tPoolOfThisThread = this;
    std::vector<pollfd> fds;
    std::vector<Connection*> polled;
    std::vector<Connection*> assigned;
    for (;;) {
      assigned.clear();
      {
        std::lock_guard lock(mutex_);
        connections_.remove_if([](const Connection& c) { return c.pg == nullptr; });
        while (!incoming_.empty()) {
          waiting_.push_back(incoming_.front());
          incoming_.pop_front();
        }
        if (stopping_) break;
        for (Connection& c : connections_) {
          if (waiting_.empty()) break;
          if (!c.idle()) continue;
          c.request = waiting_.front();
          waiting_.pop_front();
          assigned.push_back(&c);
        }
        queued_ = waiting_.size();  // a borrower giving back from here on wakes this thread
      }
      bool again = false;  // a connection was found closed: its request waits again
      for (Connection* c : assigned) {
        if (!stillUp(*c)) {
          waiting_.push_front(c->request);
          drop(*c);
          again = true;
          continue;
        }
        Request& r = *c->request;
        if (send(*c, *r.statement, r.executions, *r.callback, settings_.description) ==
            Progress::Broken) {
          broken(*c);
        }
      }
      openConnections();
      fds.clear();
      polled.clear();
      fds.push_back({wake_, POLLIN, 0});
      {
        std::lock_guard lock(mutex_);
        queued_ = waiting_.size();
        for (Connection& c : connections_) {
          if (!c.pg || c.lent || !(c.connecting || c.request)) continue;
          short events = c.connecting ? (c.connectWants == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                                      : static_cast<short>(POLLIN | (c.wantsWrite ? POLLOUT : 0));
          fds.push_back({PQsocket(c.pg), events, 0});
          polled.push_back(&c);
        }
      }
      if (::poll(fds.data(), fds.size(), again ? 0 : -1) < 0 && errno != EINTR) break;
      if (fds[0].revents) {
        uint64_t count;
        [[maybe_unused]] ssize_t n = read(wake_, &count, sizeof count);
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents) service(*polled[i - 1], fds[i].revents);
      }
    }
    // Stopping: what still waits or runs fails; the connections close.
    for (Request* r : waiting_) finish(r, closed());
    waiting_.clear();
    for (Connection& c : connections_) {
      if (c.request) finish(c.request, closed());
      PQfinish(c.pg);
    }
    connections_.clear();
  }

  // Opens connections while statements wait for more than those being opened, up to the
  // pool's size (lent connections count).
  void openConnections() {
    size_t connecting = 0;
    {
      std::lock_guard lock(mutex_);  // a borrower may close its connection meanwhile
      for (const Connection& c : connections_) connecting += c.connecting && c.pg ? 1 : 0;
    }
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
    std::lock_guard lock(mutex_);
    connections_.emplace_back().pg = pg;
    return true;
  }

  // Every waiting statement fails: the server cannot be reached.
  void failWaiting(const SqlError& error) {
    while (!waiting_.empty()) {
      finish(waiting_.front(), error);
      waiting_.pop_front();
    }
  }

  // The socket of a connection being opened or carrying a request is ready.
  void service(Connection& c, short revents) {
    if (c.connecting) {
      advanceConnect(c);
      return;
    }
    Progress p = advance(c, *c.request->statement, revents, settings_.description);
    if (p == Progress::Broken) {
      broken(c);
    } else if (p == Progress::Done) {
      QueryOutcome outcome = takeOutcome(c);
      Request* r = c.request;
      {
        std::lock_guard lock(mutex_);
        c.request = nullptr;  // idle: a waiting caller may borrow it from here on
      }
      finish(r, std::move(outcome));
    }
  }

  void advanceConnect(Connection& c) {
    c.connectWants = PQconnectPoll(c.pg);
    if (c.connectWants == PGRES_POLLING_FAILED) {
      failWaiting(pgConnectionError(c.pg, "cannot connect to " + settings_.description));
      drop(c);
    } else if (c.connectWants == PGRES_POLLING_OK) {
      if (PQsetnonblocking(c.pg, 1) != 0 || PQenterPipelineMode(c.pg) != 1) {
        failWaiting(pgConnectionError(c.pg, "setting up a connection to " + settings_.description));
        drop(c);
        return;
      }
      std::lock_guard lock(mutex_);
      c.connecting = false;
    }
  }

  // The connection failed: its statement fails with its error, and it is dropped.
  void broken(Connection& c) {
    Request* r = c.request;
    SqlError error = c.error ? std::move(*c.error) : SqlError{"08006", "connection lost"};
    drop(c);
    if (r) finish(r, std::move(error));
  }

  // Closes a connection of the pool's thread; the next round forgets it.
  void drop(Connection& c) {
    std::lock_guard lock(mutex_);
    PQfinish(c.pg);
    c.pg = nullptr;
    c.request = nullptr;
  }

  // On the pool's thread: the request is kept for the next one started there.
  void finish(Request* r, QueryOutcome&& outcome) {
    QueryCallback* callback = r->callback;
    std::unique_ptr<Request> kept(r);
    if (spare_.size() < kSpareRequests) {
      try {
        spare_.push_back(std::move(kept));
      } catch (...) {  // not kept: `kept` deletes it
      }
    }
    kept.reset();
    callback->done(std::move(outcome));
  }

  PgSettings settings_;
  int wake_ = -1;
  std::thread thread_;
  std::mutex mutex_;
  std::deque<Request*> incoming_;  // under mutex_
  bool stopping_ = false;          // under mutex_
  size_t queued_ = 0;              // under mutex_: statements waiting for a connection
  // Membership changes under mutex_, by the pool's thread; see Connection for who may touch
  // one.
  std::list<Connection> connections_;
  std::deque<Request*> waiting_;  // the pool's thread's own
  // Finished requests, for statements started on the pool's thread; its own.
  static constexpr size_t kSpareRequests = 64;
  std::vector<std::unique_ptr<Request>> spare_;
};

}  // namespace

std::shared_ptr<Database> openPostgreSQL(PgSettings settings) {
  return std::make_shared<PgDatabase>(std::move(settings));
}

}  // namespace dromedary::component::sql
