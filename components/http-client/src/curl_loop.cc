// SPDX-License-Identifier: Apache-2.0
#include "curl_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>
#include <mutex>
#include <system_error>

#include <boost/asio/post.hpp>

#include "direct_lane.h"
#include "http_target.h"

namespace dromedary::component::httpclient {

void initCurlOnce() noexcept {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// --- Transfer ---

Transfer::Transfer() : easy(curl_easy_init()) { error[0] = '\0'; }

Transfer::~Transfer() { curl_easy_cleanup(easy); }

void Transfer::reset() noexcept {
  if (easyUsed) curl_easy_reset(easy);  // a request sent directly set none of its options
  easyUsed = false;
  direct = false;
  method = {};
  requestData = {};
  sendsBody = false;
  connectTimeoutMs = 0;
  responseTimeoutMs = 0;
  soTimeoutMs = 0;
  connectionClose = false;
  status = 0;
  connected = false;
  directConnection = nullptr;
  error[0] = '\0';
  url.clear();
  requestBody.clear();
  header_text.clear();
  header_starts.clear();
  responseBody.reset(nullptr);
  bodyFailure.clear();
  responseHeaderText.clear();
  reason.clear();
  ignoreBody = false;
  poolTimeoutMs = 0;
  poolTimedOut = false;
  cookies = nullptr;
  exchange = nullptr;
  owner = nullptr;
  done = nullptr;
}

void Transfer::addHeader(std::string_view name, std::string_view value) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
  if (value.empty()) {
    header_text += ';';
  } else {
    header_text += ": ";
    header_text.append(value);
  }
  header_text += '\0';
}

void Transfer::suppressHeader(std::string_view name) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  header_text += ":";
  header_text += '\0';
}

curl_slist* Transfer::headerList() noexcept {
  if (header_starts.empty()) return nullptr;
  if (header_nodes.size() < header_starts.size()) header_nodes.resize(header_starts.size());
  for (size_t i = 0; i < header_starts.size(); ++i) {
    header_nodes[i].data = header_text.data() + header_starts[i];
    header_nodes[i].next = i + 1 < header_starts.size() ? &header_nodes[i + 1] : nullptr;
  }
  return header_nodes.data();
}


// --- SharedLeases ---

bool SharedLeases::tryTake(std::string_view key) {
  std::lock_guard lock(mutex_);
  if (total_ >= limits_.maxTotal) return false;
  auto it = perKey_.find(key);
  if (it == perKey_.end()) it = perKey_.emplace(std::string(key), 0).first;
  if (it->second >= limits_.perHost) return false;
  ++it->second;
  ++total_;
  return true;
}

void SharedLeases::give(std::string_view key) noexcept {
  std::lock_guard lock(mutex_);
  --perKey_.find(key)->second;
  --total_;
}

// --- CurlLoop ---

// What a handler queued on the io_context holds: the loop, or null once it is gone (a wait
// that completed just before the loop went is still run, and must find nothing).
struct CurlLoop::Token {
  CurlLoop* loop;
};

CurlLoop::CurlLoop(Limits limits, SharedLeases* leases)
    : CurlLoop(limits, nullptr, leases, Driven{}) {}

CurlLoop::CurlLoop(Limits limits, boost::asio::io_context& io)
    : CurlLoop(limits, &io, nullptr, Driven{}) {}

CurlLoop::CurlLoop(Limits limits, boost::asio::io_context* io, SharedLeases* leases, Driven)
    : limits_(limits), shared_(leases), io_(io), token_(std::make_shared<Token>(Token{this})) {
  initCurlOnce();
  multi_ = curl_multi_init();
  if (io_) {
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_ < 0) {
      curl_multi_cleanup(multi_);
      throw std::system_error(errno, std::generic_category(), "epoll_create1");
    }
    events_ = std::make_unique<boost::asio::posix::stream_descriptor>(*io, epoll_);
    timer_ = std::make_unique<boost::asio::steady_timer>(*io);
    poolTimer_ = std::make_unique<boost::asio::steady_timer>(*io);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlLoop::onSocket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlLoop::onTimer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    direct_ = std::make_unique<DirectLane>(*io, &CurlLoop::directDone, this);
  }
  curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, limits.perHost);
  // Idle connections kept for reuse: as many as may be open.
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  if (io_) armEvents();
}

CurlLoop::~CurlLoop() {
  abortAll();
  direct_.reset();  // its idle connections closed
  token_->loop = nullptr;
  // Closes the cached connections (their sockets leave the epoll set through onSocket).
  curl_multi_cleanup(multi_);
  timer_.reset();
  poolTimer_.reset();
  events_.reset();  // closes epoll_
}

void CurlLoop::abortAll() noexcept {
  // Taken out first: an exchange resumed here may send again, which adds to the lists (the
  // destructor's own call fails those).
  std::vector<Transfer*> active, waiting;
  active.swap(active_);
  waiting.swap(waiting_);
  hasWaiting_.store(false, std::memory_order_release);
  for (Transfer* a : active) {
    if (a->direct) {
      direct_->abandon(a);
    } else {
      curl_multi_remove_handle(multi_, a->easy);
      if (a->cookies) curl_easy_setopt(a->easy, CURLOPT_SHARE, nullptr);
    }
    giveLease(a);
    a->done(*a, CURLE_ABORTED_BY_CALLBACK);
  }
  for (Transfer* w : waiting) w->done(*w, CURLE_ABORTED_BY_CALLBACK);
}

Transfer* CurlLoop::acquire() {
  Transfer* t = nullptr;
  if (!free_.try_dequeue(t)) {
    auto made = std::make_unique<Transfer>();
    t = made.get();
    std::lock_guard lock(all_mutex_);
    all_.push_back(std::move(made));
  }
  t->reset();
  t->loop = this;
  return t;
}

void CurlLoop::release(Transfer* transfer) noexcept {
  transfer->exchange = nullptr;
  free_.enqueue(transfer);
}

void CurlLoop::abortOwner(const void* owner) noexcept {
  std::vector<Transfer*> mine;
  for (Transfer* a : active_) {
    if (a->owner == owner) mine.push_back(a);
  }
  for (Transfer* a : mine) {
    finished(a);
    a->done(*a, CURLE_ABORTED_BY_CALLBACK);
  }
  mine.clear();
  for (size_t i = 0; i < waiting_.size();) {
    if (waiting_[i]->owner == owner) {
      mine.push_back(waiting_[i]);
      waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (Transfer* w : mine) w->done(*w, CURLE_ABORTED_BY_CALLBACK);
  admitWaiting();
}

int CurlLoop::onSocket(CURL*, curl_socket_t fd, int what, void* self, void* socketp) {
  auto& loop = *static_cast<CurlLoop*>(self);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(loop.epoll_, EPOLL_CTL_DEL, fd, nullptr);
    curl_multi_assign(loop.multi_, fd, nullptr);
    return 0;
  }
  // Level-triggered: what curl leaves unread is reported again.
  epoll_event ev{};
  ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
  ev.data.fd = fd;
  if (socketp) {
    epoll_ctl(loop.epoll_, EPOLL_CTL_MOD, fd, &ev);
  } else {
    epoll_ctl(loop.epoll_, EPOLL_CTL_ADD, fd, &ev);
    curl_multi_assign(loop.multi_, fd, &loop);  // any non-null: in the set
  }
  return 0;
}

int CurlLoop::onTimer(CURLM*, long timeout_ms, void* self) {
  auto& loop = *static_cast<CurlLoop*>(self);
  loop.curlDeadline_ = timeout_ms < 0 ? Clock::time_point::max()
                                      : Clock::now() + std::chrono::milliseconds(timeout_ms);
  // In add(), which acts on the timeout itself; driven by run(), the deadline is read there.
  if (loop.adding_ || !loop.io_ || timeout_ms < 0) return 0;
  // An armed timer due no later is left as it is (it may fire early: curl then sets the
  // next), so that a busy loop does not re-arm the timer at every call.
  if (loop.timerArmedAt_ <= loop.curlDeadline_) return 0;
  loop.timerArmedAt_ = loop.curlDeadline_;
  // Never from within this callback: curl asks for socket_action to be called afterwards.
  loop.timer_->expires_at(loop.curlDeadline_);
  loop.timer_->async_wait([token = loop.token_](const boost::system::error_code& ec) {
    if (ec || !token->loop) return;
    token->loop->timerArmedAt_ = Clock::time_point::max();
    token->loop->onTimeout();
  });
  return 0;
}

// The epoll set's wait, armed before the set is read: readiness arriving while it is read
// completes the wait, and is never missed.
void CurlLoop::armEvents() {
  events_->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [token = token_](const boost::system::error_code& ec) {
                        if (!ec && token->loop) token->loop->onEvents();
                      });
}

void CurlLoop::onEvents() noexcept {
  armEvents();
  epoll_event events[64];
  // A few rounds, then the io_context's other handlers get their turn (the armed wait comes
  // back at once for what is still ready).
  for (int round = 0; round < 4; ++round) {
    int n = epoll_wait(epoll_, events, 64, 0);
    if (n <= 0) break;
    handle(events, n);
    if (token_->loop == nullptr) return;
  }
}

void CurlLoop::handle(const epoll_event* events, int n) noexcept {
  int running = 0;
  for (int i = 0; i < n; ++i) {
    int mask = (events[i].events & (EPOLLIN | EPOLLHUP) ? CURL_CSELECT_IN : 0) |
               (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
               (events[i].events & EPOLLERR ? CURL_CSELECT_ERR : 0);
    curl_multi_socket_action(multi_, events[i].data.fd, mask, &running);
  }
  checkDone();
}

void CurlLoop::onTimeout() noexcept {
  curlDeadline_ = Clock::time_point::max();
  int running = 0;
  curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
  checkDone();
}

// The pool's own thread: curl_multi_poll on every socket and the wake-up eventfd, then
// curl_multi_perform. Measured against curl's socket interface on this thread (an epoll set
// and socket_action per ready socket): as fast for one request at a time, and faster with 50
// in flight, where one perform serves every ready socket (bench/RESULTS.md, session 31).
void CurlLoop::run(const std::atomic<bool>& stop, int wake_fd, void (*woken)(void*),
                   void* arg) noexcept {
  curl_waitfd wake{wake_fd, CURL_WAIT_POLLIN, 0};
  while (!stop.load(std::memory_order_acquire)) {
    int timeout = 1000;
    if (poolDeadline_ != Clock::time_point::max()) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(poolDeadline_ - Clock::now());
      timeout = static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1000));
    }
    wake.revents = 0;
    curl_multi_poll(multi_, &wake, 1, timeout, nullptr);
    if (wake.revents) woken(arg);
    int running = 0;
    curl_multi_perform(multi_, &running);
    checkDone();
    if (poolDeadline_ <= Clock::now()) admitWaiting();
  }
}

CURLcode CurlLoop::runOne(Transfer* t, const std::atomic<bool>& abort) noexcept {
  curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
  if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, t->cookies);
  CURLMcode added = curl_multi_add_handle(multi_, t->easy);
  if (added != CURLM_OK) {
    if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
    std::snprintf(t->error, sizeof t->error, "%s", curl_multi_strerror(added));
    return CURLE_FAILED_INIT;
  }
  // As a bare client does: perform, read what completed, poll the sockets (curl_multi_poll
  // waits no longer than curl's own next timeout).
  CURLcode result = CURLE_ABORTED_BY_CALLBACK;
  for (;;) {
    int running = 0;
    curl_multi_perform(multi_, &running);
    bool done = false;
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
      if (msg->msg == CURLMSG_DONE && msg->easy_handle == t->easy) {
        result = msg->data.result;
        done = true;
      }
    }
    if (done || abort.load(std::memory_order_acquire)) break;
    curl_multi_poll(multi_, nullptr, 0, 1000, nullptr);
  }
  curl_multi_remove_handle(multi_, t->easy);
  if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
  return result;
}

void CurlLoop::checkDone() noexcept {
  int left = 0;
  bool freed = false;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Transfer* done = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &done);
    CURLcode result = msg->data.result;
    finished(done);
    done->done(*done, result);
    freed = true;
  }
  // A lease given back lets a waiting request start at once.
  if (freed && !waiting_.empty()) admitWaiting();
}

void CurlLoop::start(Transfer* t) noexcept {
  curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
  poolKeyOf(t->url, t->poolKey);
  if (!shared_ && leased_.find(std::string_view(t->poolKey)) == leased_.end()) {
    leased_.emplace(t->poolKey, 0);
  }
  t->queuedAt = Clock::now();
  waiting_.push_back(t);
  admitWaiting();
}

void CurlLoop::completeLater(Transfer* t, CURLcode result) noexcept {
  if (!io_) {
    t->done(*t, result);
    return;
  }
  boost::asio::post(*io_, [t, result] { t->done(*t, result); });
}

void CurlLoop::add(Transfer* t) noexcept {
  if (t->direct) {
    active_.push_back(t);
    direct_->send(t);  // done later, through directDone
    return;
  }
  if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, t->cookies);
  adding_ = true;
  CURLMcode added = curl_multi_add_handle(multi_, t->easy);
  adding_ = false;
  if (added != CURLM_OK) {
    if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
    giveLease(t);
    std::snprintf(t->error, sizeof t->error, "%s", curl_multi_strerror(added));
    completeLater(t, CURLE_FAILED_INIT);
    return;
  }
  active_.push_back(t);
  // Driven by run(): the next curl_multi_perform starts it (curl's zero timeout makes its
  // poll return at once).
  if (!io_) return;
  // The request goes out now (connection reused, request written) rather than at the next
  // turn of the loop, which curl's zero timeout would ask for.
  curlDeadline_ = Clock::time_point::max();
  int running = 0;
  curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
  // What completed at once (a refused name) is read at the next turn, not from here.
  if (static_cast<size_t>(running) < active_.size()) {
    boost::asio::post(*io_, [token = token_] {
      if (token->loop) token->loop->checkDone();
    });
  }
}

void CurlLoop::finished(Transfer* t) noexcept {
  if (t->direct) {
    direct_->abandon(t);  // if it is still under way (abortOwner's)
  } else {
    curl_multi_remove_handle(multi_, t->easy);
    // Detached here, on the loop's thread: an idle handle holds no endpoint's cookie store.
    if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
  }
  auto it = std::find(active_.begin(), active_.end(), t);
  if (it != active_.end()) {
    *it = active_.back();
    active_.pop_back();
  }
  giveLease(t);
}

void CurlLoop::directDone(void* self, Transfer* t, CURLcode result) noexcept {
  auto& loop = *static_cast<CurlLoop*>(self);
  loop.finished(t);
  t->done(*t, result);
  // A lease given back lets a waiting request start at once.
  if (!loop.waiting_.empty()) loop.admitWaiting();
}

bool CurlLoop::takeLease(Transfer* t) noexcept {
  if (shared_) {
    try {
      return shared_->tryTake(t->poolKey);
    } catch (...) {
      return false;  // out of memory for a new host's count: it waits, as for a lease
    }
  }
  long& leases = leased_.find(std::string_view(t->poolKey))->second;
  if (static_cast<long>(active_.size()) >= limits_.maxTotal || leases >= limits_.perHost) {
    return false;
  }
  ++leases;
  return true;
}

void CurlLoop::giveLease(Transfer* t) noexcept {
  if (shared_) {
    shared_->give(t->poolKey);
  } else {
    --leased_.find(std::string_view(t->poolKey))->second;
  }
}

void CurlLoop::admitWaiting() noexcept {
  using namespace std::chrono;
  const auto now = Clock::now();
  poolDeadline_ = Clock::time_point::max();
  // Said before the leases are looked at: a caller that gives one back after this looks, sees
  // it, and wakes the loop to look again (CurlPool::runHere).
  if (!waiting_.empty()) hasWaiting_.store(true, std::memory_order_seq_cst);
  for (size_t i = 0; i < waiting_.size();) {
    Transfer* t = waiting_[i];
    if (takeLease(t)) {
      waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
      add(t);
      continue;
    }
    if (t->poolTimeoutMs > 0) {
      auto deadline = t->queuedAt + milliseconds(t->poolTimeoutMs);
      if (deadline <= now) {
        waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
        t->poolTimedOut = true;
        completeLater(t, CURLE_OPERATION_TIMEDOUT);
        continue;
      }
      poolDeadline_ = std::min(poolDeadline_, deadline);
    }
    ++i;
  }
  hasWaiting_.store(!waiting_.empty(), std::memory_order_release);
  if (io_ && poolDeadline_ != Clock::time_point::max()) {
    poolTimer_->expires_at(poolDeadline_);
    poolTimer_->async_wait([token = token_](const boost::system::error_code& ec) {
      if (!ec && token->loop) token->loop->admitWaiting();
    });
  }
}

// --- CurlPool ---

CurlPool::CurlPool(Limits limits) : limits_(limits), leases_(limits), loop_(limits, &leases_) {
  wakeFd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wakeFd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
  thread_ = std::thread([this] { loop_.run(stopping_, wakeFd_, &CurlPool::woken, this); });
}

CurlPool::~CurlPool() {
  abortCallers(nullptr);
  std::vector<std::weak_ptr<support::IoThread>> attached;
  {
    std::lock_guard lock(attachedMutex_);
    attached.swap(attached_);
  }
  for (auto& weak : attached) {
    if (auto io = weak.lock()) io->detach(this);
  }
  stopping_.store(true, std::memory_order_release);
  uint64_t one = 1;
  (void)!write(wakeFd_, &one, sizeof one);
  thread_.join();
  // The pool's thread has ended: what it still held is failed here. The loop is still there
  // while its transfers fail, for an exchange that sends again from its error handler (that
  // request is failed too).
  loop_.abortAll();
  Transfer* t = nullptr;
  while (incoming_.try_dequeue(t)) t->done(*t, CURLE_ABORTED_BY_CALLBACK);
  close(wakeFd_);
}

Transfer* CurlPool::acquire() {
  if (support::IoThread* io = support::IoThread::current()) {
    auto* loop = static_cast<CurlLoop*>(io->attachment(this));
    if (!loop) {
      loop = static_cast<CurlLoop*>(
          io->attach(this, std::make_unique<CurlLoop>(limits_, io->io())));
      std::lock_guard lock(attachedMutex_);
      attached_.push_back(io->weak_from_this());
    }
    return loop->acquire();
  }
  return loop_.acquire();
}

void CurlPool::submit(Transfer* transfer) noexcept {
  if (transfer->loop != &loop_) {
    transfer->loop->start(transfer);  // an I/O thread's loop: this is its thread
    return;
  }
  incoming_.enqueue(transfer);
  wake();
}

bool CurlPool::runHere(Transfer* t, CURLcode& result) noexcept {
  // Requests waiting on the pool's thread for a lease go first.
  if (t->loop != &loop_ || loop_.hasWaiting()) return false;
  try {
    poolKeyOf(t->url, t->poolKey);
    if (!leases_.tryTake(t->poolKey)) return false;
  } catch (...) {
    return false;
  }
  CallerLoop* lent = lendCallerLoop(t->owner);
  if (lent) {
    result = lent->loop.runOne(t, lent->abort);
    takeBack(lent);
  }
  leases_.give(t->poolKey);
  // A request that waited for this lease on the pool's thread starts now (the loop said it
  // waits before it looked at the leases: see CurlLoop::admitWaiting).
  if (loop_.hasWaiting()) wake();
  return lent != nullptr;
}

CurlPool::CallerLoop* CurlPool::lendCallerLoop(const void* owner) noexcept {
  std::lock_guard lock(callersMutex_);
  if (callersClosed_) return nullptr;
  CallerLoop* lent = nullptr;
  if (!idleCallers_.empty()) {
    lent = idleCallers_.back();
    idleCallers_.pop_back();
  } else {
    try {
      auto made = std::make_unique<CallerLoop>(limits_);
      // Room for every loop in the idle list, so that taking one back cannot fail.
      idleCallers_.reserve(callerLoops_.size() + 1);
      callerLoops_.push_back(std::move(made));
    } catch (...) {
      return nullptr;
    }
    lent = callerLoops_.back().get();
  }
  lent->owner = owner;
  lent->abort.store(false, std::memory_order_relaxed);
  return lent;
}

void CurlPool::takeBack(CallerLoop* lent) noexcept {
  std::lock_guard lock(callersMutex_);
  lent->owner = nullptr;
  idleCallers_.push_back(lent);
  callerReturned_.notify_all();
}

void CurlPool::abortCallers(const void* owner) noexcept {
  std::unique_lock lock(callersMutex_);
  if (!owner) callersClosed_ = true;
  auto running = [&](const CallerLoop& c) {
    return c.owner != nullptr && (owner == nullptr || c.owner == owner);
  };
  for (auto& c : callerLoops_) {
    if (!running(*c)) continue;
    c->abort.store(true, std::memory_order_release);
    c->loop.wakeUp();
  }
  callerReturned_.wait(lock, [&] {
    return std::none_of(callerLoops_.begin(), callerLoops_.end(),
                        [&](const auto& c) { return running(*c); });
  });
}

void CurlPool::wake() noexcept {
  if (!wakePending_.exchange(true)) {
    uint64_t one = 1;
    (void)!write(wakeFd_, &one, sizeof one);
  }
}

void CurlPool::abortOwner(const void* owner) noexcept {
  abortCallers(owner);
  std::vector<std::weak_ptr<support::IoThread>> attached;
  {
    std::lock_guard lock(attachedMutex_);
    attached = attached_;
  }
  for (auto& weak : attached) {
    if (auto io = weak.lock()) {
      io->runAndWait([&] {
        if (auto* loop = static_cast<CurlLoop*>(io->attachment(this))) loop->abortOwner(owner);
      });
    }
  }
  try {
    std::promise<void> done;
    std::function<void()> task = [&] {
      loop_.abortOwner(owner);
      done.set_value();
    };
    {
      std::lock_guard lock(tasksMutex_);
      tasks_.push_back(&task);
    }
    wakePending_.store(false);  // a wake-up for sure: the task must run
    wake();
    done.get_future().wait();
  } catch (...) {
    // Out of memory: they complete or time out on their own.
  }
}

// On the pool's thread: the eventfd was written.
void CurlPool::woken(void* self) noexcept {
  auto& pool = *static_cast<CurlPool*>(self);
  uint64_t count = 0;
  (void)!read(pool.wakeFd_, &count, sizeof count);
  pool.wakePending_.store(false);
  Transfer* t = nullptr;
  while (pool.incoming_.try_dequeue(t)) pool.loop_.start(t);
  if (pool.loop_.hasWaiting()) pool.loop_.admitWaiting();  // a caller gave a lease back
  std::vector<std::function<void()>*> tasks;
  {
    std::lock_guard lock(pool.tasksMutex_);
    tasks.swap(pool.tasks_);
  }
  for (auto* task : tasks) (*task)();
}

}  // namespace dromedary::component::httpclient
