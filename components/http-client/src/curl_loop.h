// SPDX-License-Identifier: Apache-2.0
#pragma once

// One libcurl multi handle and the thread that drives it: every request of the endpoints
// that share a connection pool. A producer fills a Transfer on its own thread (a worker) and
// hands it over; the loop adds it to the multi handle, and when the reply is in calls the
// transfer's `done` on the loop thread, which maps the reply onto the exchange and resumes it.
// No thread waits for a reply: the exchange is parked meanwhile.
//
// Connections are kept per host by the multi handle (HTTP/1.1 keep-alive, HTTP/2 where the
// server offers it over TLS). As Apache HttpClient's pool does for Camel, a request leases one
// of maxTotal connections, at most perHost of them to one scheme://host:port: requests over
// the limits wait in the loop's own queue, first come first served per host, for at most
// their connectionRequestTimeout (curl's queue has no bound of its own). Transfers are
// pooled: their easy handles, buffers and header lists keep their capacity, so a request
// allocates nothing of ours once warm.

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <concurrentqueue/concurrentqueue.h>
#include <dromedary/engine/stream_caching.h>

namespace dromedary {
class Exchange;
}

namespace dromedary::component::httpclient {

class CurlLoop;

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
  CurlLoop* loop = nullptr;

  // The loop thread's: the pool key ("scheme://host:port") and when the wait began.
  std::string poolKey;
  std::chrono::steady_clock::time_point queuedAt;
};

class CurlLoop {
 public:
  struct Limits {
    long maxTotal = 200;
    long perHost = 20;
    bool operator<(const Limits& o) const noexcept {
      return maxTotal != o.maxTotal ? maxTotal < o.maxTotal : perHost < o.perHost;
    }
  };

  explicit CurlLoop(Limits limits);
  /// Stops the thread; transfers still in flight complete with CURLE_ABORTED_BY_CALLBACK.
  ~CurlLoop();
  CurlLoop(const CurlLoop&) = delete;
  CurlLoop& operator=(const CurlLoop&) = delete;

  /// A transfer from the pool (made when the pool is empty), reset, its `loop` set.
  Transfer* acquire();
  /// Hands a filled transfer to the loop thread. From any thread.
  void submit(Transfer* transfer) noexcept;
  /// Back to the pool, from `done` or from a producer that did not submit it.
  void release(Transfer* transfer) noexcept;

 private:
  void run() noexcept;
  /// Starts the waiting transfers the limits allow, in order, and fails those whose
  /// connectionRequestTimeout passed. Returns how long until the next of those runs out
  /// (milliseconds; 1000 when none waits with a bound).
  int admitWaiting() noexcept;
  void start(Transfer* t) noexcept;
  void finished(Transfer* t) noexcept;

  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };

  Limits limits_;
  CURLM* multi_;
  moodycamel::ConcurrentQueue<Transfer*> incoming_;
  moodycamel::ConcurrentQueue<Transfer*> free_;
  std::vector<std::unique_ptr<Transfer>> all_;  // owned; grown under all_mutex_
  std::atomic<bool> stopping_{false};
  // Loop thread only: the transfers in the multi handle, those waiting for a connection,
  // and the leases per pool key.
  std::vector<Transfer*> active_;
  std::vector<Transfer*> waiting_;  // in arrival order
  std::unordered_map<std::string, long, KeyHash, std::equal_to<>> leased_;
  std::thread thread_;
  struct AllMutex;
  std::unique_ptr<AllMutex> all_mutex_;
};

/// curl_global_init, once per process.
void initCurlOnce() noexcept;

}  // namespace dromedary::component::httpclient
