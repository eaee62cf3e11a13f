// SPDX-License-Identifier: Apache-2.0
#pragma once

// libcurl multi handles and the threads that drive them: every request of the endpoints that
// share a connection pool. A producer fills a Transfer on its own thread and hands it to a
// loop: the one on that same thread when it is a server I/O thread (a proxy route's request
// then never changes thread), else the one on the pool's own thread. The loop adds it to its
// multi handle, and when the reply is in calls the transfer's `done` on the loop's thread,
// which maps the reply onto the exchange and resumes it. No thread waits for a reply: the
// exchange is parked meanwhile. The one exception is a thread that waits for its exchange
// anyway (a ProducerTemplate's caller, a consumer's own thread: callerWaits): it runs its
// request itself, on a loop of the pool's that no thread drives, which saves two thread
// hand-offs per request and holds no thread that was not held already.
//
// Connections are kept per host by the multi handle (HTTP/1.1 keep-alive, HTTP/2 where the
// server offers it over TLS). As Apache HttpClient's pool does for Camel, a request leases one
// of maxTotal connections, at most perHost of them to one scheme://host:port: requests over
// the limits wait in the loop's own queue, first come first served per host, for at most
// their connectionRequestTimeout (curl's queue has no bound of its own). Transfers are
// pooled: their easy handles, buffers and header lists keep their capacity, so a request
// allocates nothing of ours once warm.

#include <curl/curl.h>
#include <sys/epoll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <concurrentqueue/concurrentqueue.h>
#include <dromedary/engine/stream_caching.h>
#include <dromedary/support/io_thread.h>

namespace dromedary {
class Exchange;
}

namespace dromedary::component::httpclient {

class CurlLoop;
class DirectLane;

struct Transfer {
  Transfer();
  ~Transfer();
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  /// Starts a request over: the easy handle reset (its connection cache stays with the multi
  /// handle), the buffers emptied with their capacity kept.
  void reset() noexcept;
  /// Adds "Name: value" to the request's headers (copied into `header_text`); an empty value
  /// is sent as an empty header.
  void addHeader(std::string_view name, std::string_view value);
  /// Keeps curl from sending a header of its own ("Expect", a form's "Content-Type").
  void suppressHeader(std::string_view name);
  /// Links the added headers into the list curl reads (CURLOPT_HTTPHEADER): nodes of our own,
  /// pointing into `header_text`, so that no curl_slist is allocated per request.
  curl_slist* headerList() noexcept;

  CURL* easy;
  char error[CURL_ERROR_SIZE];
  std::string url;
  std::string requestBody;  // when the body had to be rendered (a map as JSON, a number ...)
  std::string header_text;  // "Name: value\0Name: value\0"
  std::vector<size_t> header_starts;
  std::vector<curl_slist> header_nodes;
  // The reply. Its body in memory, or past stream caching's spool threshold in a spool file.
  SpoolBuffer responseBody;
  std::string bodyFailure;  // why the body could not be kept (a spool file not written)
  std::string responseHeaderText;  // "name\0value\0" per header of the last response
  std::string reason;
  bool ignoreBody = false;
  /// How long the request may wait for a connection when the pool's limits are reached
  /// (connectionRequestTimeout); 0: as long as it takes.
  long poolTimeoutMs = 0;
  /// Set by the loop when the request gave up waiting for a connection (its `done` then gets
  /// CURLE_OPERATION_TIMEDOUT without having been sent).
  bool poolTimedOut = false;
  /// The endpoint's cookie store, attached by the loop thread while the request runs (so
  /// that only that thread touches it); null: no cookies.
  CURLSH* cookies = nullptr;
  /// Whose request this is: `done(transfer, result)` runs on the loop thread when the
  /// request completed or failed; `exchange` is resumed after it unless done returns false.
  Exchange* exchange = nullptr;
  void* owner = nullptr;
  void (*done)(Transfer& transfer, CURLcode result) noexcept = nullptr;
  CurlLoop* loop = nullptr;  // the loop it was acquired from, which runs it

  // The loop thread's: the pool key ("scheme://host:port") and when the wait began.
  std::string poolKey;
  std::chrono::steady_clock::time_point queuedAt;

  // Sent by a loop's DirectLane (direct_lane.h) rather than by curl: a plain http request of
  // an endpoint that asks nothing only curl does, made on a server I/O thread. buildRequest
  // then fills these, and sets none of curl's options.
  bool direct = false;
  std::string_view method;       // what is sent ("GET" ...): a literal or the config's
  std::string_view requestData;  // the body sent (the message's or requestBody)
  bool sendsBody = false;        // a Content-Length goes out (POST of nothing: 0)
  long connectTimeoutMs = 0;     // 0: none
  long responseTimeoutMs = 0;    // the whole request once connected; 0: none
  long soTimeoutMs = 0;          // no byte sent or received for this long; 0: none
  bool connectionClose = false;  // it sends "Connection: close": the connection is not kept
  std::chrono::steady_clock::time_point responseDeadline;  // the lane's (responseTimeout)
  std::string requestHead;       // the lane's: the request line and headers, as sent
  long status = 0;               // the reply's status code
  bool connected = false;        // a connection was made (else the failure was connecting)
  void* directConnection = nullptr;  // the lane's, while the request is in flight
  bool easyUsed = false;  // curl ran it since its last reset (else reset() skips curl's)
};

struct Limits {
  long maxTotal = 200;
  long perHost = 20;
  bool operator<(const Limits& o) const noexcept {
    return maxTotal != o.maxTotal ? maxTotal < o.maxTotal : perHost < o.perHost;
  }
};

struct KeyHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

/// The leases of one pool's limits, taken from several threads: the pool's own loop and the
/// callers that run their requests themselves. A lock held for a few instructions per request
/// (a request costs tens of microseconds): uncontended in practice.
class SharedLeases {
 public:
  explicit SharedLeases(Limits limits) : limits_(limits) {}
  /// A lease for a request to `key` ("scheme://host:port"), when the limits allow one.
  bool tryTake(std::string_view key);
  void give(std::string_view key) noexcept;

 private:
  std::mutex mutex_;
  Limits limits_;
  long total_ = 0;
  std::unordered_map<std::string, long, KeyHash, std::equal_to<>> perKey_;
};

/// One multi handle and what drives it, used only on that thread: either an Asio io_context
/// (a server I/O thread's), through curl's socket interface (curl_multi_socket_action: curl's
/// sockets in an epoll set of the loop's own, level-triggered, which the io_context watches,
/// and curl's timeout a steady_timer); or a thread of the pool's own, in run()
/// (curl_multi_poll and curl_multi_perform).
class CurlLoop final : public support::IoThread::Attachment {
 public:
  /// Driven by `io` (on its thread).
  CurlLoop(Limits limits, boost::asio::io_context& io);
  /// Driven by run(), or by runOne() on the thread of whoever uses it. With `leases`, the
  /// limits are the pool's, shared with other loops, not this loop's own.
  explicit CurlLoop(Limits limits, SharedLeases* leases = nullptr);
  /// On the loop's thread (or once it has ended): the transfers in flight or waiting for a
  /// lease complete with CURLE_ABORTED_BY_CALLBACK, and the loop lets go of the io_context.
  ~CurlLoop() override;
  CurlLoop(const CurlLoop&) = delete;
  CurlLoop& operator=(const CurlLoop&) = delete;

  /// A transfer from the pool (made when the pool is empty), reset, its `loop` set. From any
  /// thread.
  Transfer* acquire();
  /// Back to the pool, from `done` or from a producer that did not submit it. From any thread.
  void release(Transfer* transfer) noexcept;
  /// On the loop's thread: starts the transfer, or queues it until the limits let it start.
  /// Driven by an io_context, its `done` is never called before this returns.
  void start(Transfer* transfer) noexcept;
  /// On the loop's thread (or once it has ended): the transfers in flight or waiting complete
  /// with CURLE_ABORTED_BY_CALLBACK.
  void abortAll() noexcept;
  /// On the loop's thread: the transfers of `owner` (an endpoint's) in flight or waiting
  /// complete with CURLE_ABORTED_BY_CALLBACK.
  void abortOwner(const void* owner) noexcept;
  /// Drives the loop (made without an io_context) on the calling thread until `stop`;
  /// `wake_fd` (an eventfd) readable calls `woken(arg)`, which reads it.
  void run(const std::atomic<bool>& stop, int wake_fd, void (*woken)(void*), void* arg) noexcept;
  /// Runs `transfer` alone to its end on the calling thread (a loop made without io_context
  /// that run() does not drive, used by one thread at a time) and returns curl's result; its
  /// lease is the caller's to take and give back. `abort` set (then wakeUp()) ends it with
  /// CURLE_ABORTED_BY_CALLBACK. Its `done` is not called.
  CURLcode runOne(Transfer* transfer, const std::atomic<bool>& abort) noexcept;
  /// From any thread: a runOne() or run() waiting in curl_multi_poll looks again.
  void wakeUp() noexcept { curl_multi_wakeup(multi_); }
  /// Whether transfers wait here for a lease (read from any thread).
  bool hasWaiting() const noexcept { return hasWaiting_.load(std::memory_order_acquire); }
  /// Whether this loop sends Transfer::direct requests itself (one driven by an io_context),
  /// without curl.
  bool sendsDirect() const noexcept { return direct_ != nullptr; }
  /// On the loop's thread: starts the waiting transfers the limits now allow, in order, and
  /// fails those whose connectionRequestTimeout passed; arms the wait for the next to run out.
  void admitWaiting() noexcept;

 private:
  using Clock = std::chrono::steady_clock;
  struct Token;
  struct Driven {};
  CurlLoop(Limits limits, boost::asio::io_context* io, SharedLeases* leases, Driven);
  friend class DirectLane;
  /// A DirectLane's transfer ended with `result` (its lease given back here).
  static void directDone(void* self, Transfer* t, CURLcode result) noexcept;
  static int onSocket(CURL* easy, curl_socket_t fd, int what, void* self, void* socketp);
  static int onTimer(CURLM* multi, long timeout_ms, void* self);
  void armEvents();
  void onEvents() noexcept;
  void handle(const epoll_event* events, int n) noexcept;
  void onTimeout() noexcept;
  void checkDone() noexcept;
  void add(Transfer* t) noexcept;
  void finished(Transfer* t) noexcept;
  /// `done` with `result`: right away on a thread of the loop's own; later (posted) on an
  /// io_context, whose start() may be called by a producer that has not parked its exchange.
  void completeLater(Transfer* t, CURLcode result) noexcept;
  /// A lease for `t`, from the shared leases or this loop's own count.
  bool takeLease(Transfer* t) noexcept;
  void giveLease(Transfer* t) noexcept;

  Limits limits_;
  SharedLeases* shared_;  // null: the limits hold for this loop alone
  boost::asio::io_context* io_;  // null: driven by run()
  CURLM* multi_;
  int epoll_ = -1;
  // Curl's timeout and the next connectionRequestTimeout to run out (max(): none).
  Clock::time_point curlDeadline_ = Clock::time_point::max();
  Clock::time_point poolDeadline_ = Clock::time_point::max();
  bool adding_ = false;  // in curl_multi_add_handle: its timer call is served by add()
  // Driven by an io_context: the epoll set's wait and the two deadlines' timers.
  std::unique_ptr<boost::asio::posix::stream_descriptor> events_;
  std::unique_ptr<boost::asio::steady_timer> timer_;
  Clock::time_point timerArmedAt_ = Clock::time_point::max();  // max(): not armed
  std::unique_ptr<boost::asio::steady_timer> poolTimer_;
  std::shared_ptr<Token> token_;  // handlers still queued when the loop goes find it gone
  std::unique_ptr<DirectLane> direct_;  // driven by an io_context: plain http requests
  moodycamel::ConcurrentQueue<Transfer*> free_;
  std::vector<std::unique_ptr<Transfer>> all_;  // owned; grown under all_mutex_
  std::mutex all_mutex_;
  // The loop thread's: the transfers in the multi handle, those waiting for a lease (in
  // arrival order), and the leases per pool key.
  std::vector<Transfer*> active_;
  std::vector<Transfer*> waiting_;
  std::atomic<bool> hasWaiting_{false};
  std::unordered_map<std::string, long, KeyHash, std::equal_to<>> leased_;
};

/// The connection pool of one pair of limits. A request made on a server I/O thread (a route
/// run where its request came in) is driven on that thread by a CurlLoop attached to it, so
/// that it never changes thread; a request from any other thread (a worker, a timer, a
/// template) goes to a CurlLoop on the pool's own thread, unless that thread waits for its
/// exchange anyway: it then runs the request itself on a caller loop (runHere). The pool's
/// thread and the callers share one count of leases; each I/O thread's loop has its own.
class CurlPool {
 public:
  explicit CurlPool(Limits limits);
  /// Detaches the loops on I/O threads and stops the pool's thread; transfers still in
  /// flight complete with CURLE_ABORTED_BY_CALLBACK.
  ~CurlPool();
  CurlPool(const CurlPool&) = delete;
  CurlPool& operator=(const CurlPool&) = delete;

  /// A transfer of the calling thread's loop.
  Transfer* acquire();
  /// Hands a filled transfer to its loop: right here on an I/O thread, else to the pool's
  /// thread.
  void submit(Transfer* transfer) noexcept;
  /// For a thread that would wait for the transfer's exchange anyway (callerWaits): runs the
  /// filled transfer on this thread, on a caller loop, and sets `result`; its `done` is not
  /// called. False, having done nothing, when it must be submitted instead: no lease free (or
  /// requests already waiting for one, which go first), an I/O thread's transfer, or the pool
  /// stopping.
  bool runHere(Transfer* transfer, CURLcode& result) noexcept;
  /// Fails the transfers of `owner` (an endpoint's) still in flight on any of the pool's
  /// loops, on each loop's thread, and waits for that: a stopping producer's exchanges are
  /// resumed while their routes still exist.
  void abortOwner(const void* owner) noexcept;

 private:
  static void woken(void* self) noexcept;
  void wake() noexcept;

  // A loop no thread drives, lent to one waiting caller at a time; its connections stay with
  // it for the next caller.
  struct CallerLoop {
    explicit CallerLoop(Limits limits) : loop(limits) {}
    CurlLoop loop;
    const void* owner = nullptr;  // whose request it runs (null: idle)
    std::atomic<bool> abort{false};
  };
  CallerLoop* lendCallerLoop(const void* owner) noexcept;
  void takeBack(CallerLoop* lent) noexcept;
  /// Ends the requests caller loops run for `owner` (every one, when null) and waits for them.
  void abortCallers(const void* owner) noexcept;

  Limits limits_;
  SharedLeases leases_;
  CurlLoop loop_;  // driven by thread_
  moodycamel::ConcurrentQueue<Transfer*> incoming_;
  int wakeFd_ = -1;  // an eventfd: incoming_ or tasks_ have work
  std::atomic<bool> wakePending_{false};
  std::atomic<bool> stopping_{false};
  std::mutex tasksMutex_;
  std::vector<std::function<void()>*> tasks_;  // run on thread_ (abortOwner)
  std::thread thread_;
  std::mutex attachedMutex_;
  std::vector<std::weak_ptr<support::IoThread>> attached_;  // the I/O threads with a loop of ours
  std::mutex callersMutex_;
  std::condition_variable callerReturned_;
  std::vector<std::unique_ptr<CallerLoop>> callerLoops_;  // every one made
  std::vector<CallerLoop*> idleCallers_;  // the last returned on top: its connections are warm
  bool callersClosed_ = false;
};

/// curl_global_init, once per process.
void initCurlOnce() noexcept;

}  // namespace dromedary::component::httpclient
