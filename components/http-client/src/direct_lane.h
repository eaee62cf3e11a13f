// SPDX-License-Identifier: Apache-2.0
#pragma once

// Plain HTTP/1.1 requests sent with Boost.Beast on a server I/O thread's io_context, beside
// the curl loop driven there. A proxy route (platform-http -> http:) spent ~30 us of CPU per
// request in its client half with curl (per request: an easy handle reset and ~30 options
// set, a connection-liveness poll and a poll after sending, epoll_ctl to add and remove the
// socket, curl's header parsing and allocations); Beast's client on the same loop does the
// same exchange with one write and the reads (bench/RESULTS.md, session 39). Curl keeps
// every request that asks for what only it does: TLS, redirects, authentication, cookies,
// proxies, soTimeout, userinfo in the URL, and requests made on any other thread.
//
// Connections are kept per host:port, idle ones reused newest first. A reused connection
// that the server closed meanwhile fails before any byte of a reply: the request is sent
// once more on a new connection, as curl does. The pool's leases (maxTotalConnections,
// connectionsPerRoute, connectionRequestTimeout) are the loop's, taken before send().

#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/asio/io_context.hpp>

namespace dromedary::component::httpclient {

struct Transfer;

class DirectLane {
 public:
  /// Called on the io_context's thread, never from within send(), once per transfer sent
  /// and not abandoned.
  using Done = void (*)(void* owner, Transfer* transfer, CURLcode result) noexcept;

  DirectLane(boost::asio::io_context& io, Done done, void* owner);
  /// Closes the idle connections. Transfers still in flight must have been abandoned.
  ~DirectLane();
  DirectLane(const DirectLane&) = delete;
  DirectLane& operator=(const DirectLane&) = delete;

  /// Whether a request to `url` can go this way: "http://host[:port][/path][?query]", with no
  /// userinfo or fragment.
  static bool takes(std::string_view url) noexcept;
  /// Connections every lane of the process has opened (for tests and diagnostics: counted per
  /// connection, not per request).
  static uint64_t connectionsOpened() noexcept;

  /// On the io_context's thread: sends `transfer` (its url, method, header_text, requestData,
  /// sendsBody and timeouts) and reads the reply into it (status, reason, responseHeaderText,
  /// responseBody); then `done`. A failure sets its `error` text and a curl code that says
  /// what failed as curl's would (CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT ...).
  void send(Transfer* transfer) noexcept;
  /// On the io_context's thread: ends `transfer`'s request without `done`: its connection is
  /// closed, and what was under way on it finds nothing to complete.
  void abandon(Transfer* transfer) noexcept;

  struct Connection;

 private:
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  using ConnectionPtr = std::shared_ptr<Connection>;

  void start(Transfer* t, bool may_reuse) noexcept;
  void connect(const ConnectionPtr& c, std::string_view host, std::string_view port);
  void write(const ConnectionPtr& c);
  void readHead(const ConnectionPtr& c);
  void readBody(const ConnectionPtr& c);
  void readOn(const ConnectionPtr& c);  // the body's next chunk, or complete() when it is in
  void complete(const ConnectionPtr& c);
  /// Fails the connection's request, or sends it again on a new connection when a reused one
  /// turned out closed before any byte of the reply came.
  void failed(const ConnectionPtr& c, CURLcode code, std::string_view why, bool retryable);
  void failLater(Transfer* t, CURLcode code) noexcept;

  boost::asio::io_context& io_;
  Done done_;
  void* owner_;
  std::unordered_map<std::string, std::vector<ConnectionPtr>, KeyHash, std::equal_to<>> idle_;
  std::string key_;  // scratch: the host:port of the request being started
  std::shared_ptr<DirectLane*> alive_;  // null once the lane is gone (failLater's handlers)
};

}  // namespace dromedary::component::httpclient
