// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The embedded HTTP/1.1 server that platform-http and the management server share (Boost.Beast,
/// one I/O thread). It owns what every server facing untrusted clients must get right, so that
/// each user of it only answers requests:
///   - bounds: the request line, headers and a chunked body's trailers together (431), one
///     body (413), the bodies of every request read or in service together (503), the number of
///     open connections (503, then closed);
///   - malformed requests are answered as RFC 9112 says (400, or 505 for an HTTP version other
///     than 1.0 and 1.1) and the connection closed;
///   - an exception on the I/O thread is caught and logged, and the server keeps serving;
///   - an accept failure (descriptors exhausted) backs off and retries, and never stops the
///     server;
///   - memory taken by a burst of large bodies is given back to the system once they are done.
///
/// Example:
///   class Hello final : public support::HttpRequestHandler {
///     void handle(support::HttpServerCall& call) noexcept override {
///       call.respond(support::textResponse(200, call.request().version(), "hello"));
///     }
///   };
///   Hello hello;
///   support::EmbeddedHttpServer server({.name = "hello"}, hello);
///   server.start().value();  // listens on 127.0.0.1, any free port: server.port()

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <dromedary/core/result.h>

namespace dromedary::support {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// Boost 1.74's Beast has its own string_view: these cross over.
inline std::string_view sv(boost::beast::string_view s) noexcept { return {s.data(), s.size()}; }
inline boost::beast::string_view bsv(std::string_view s) noexcept { return {s.data(), s.size()}; }

/// A text/plain response of `status` whose body is `text` and a newline.
HttpResponse textResponse(unsigned status, unsigned version, std::string_view text);

/// The largest header limit a server applies: Beast cannot hold a header field of 64 KiB.
inline constexpr size_t kMaxHeaderBytes = 64 * 1024;

/// What one server lets its clients take.
struct HttpServerLimits {
  /// The request line, the headers and a chunked body's trailers, together; more gets 431.
  /// At most kMaxHeaderBytes (a larger value is taken as that).
  size_t maxHeaderBytes = 8 * 1024;
  /// One request's body; more gets 413.
  size_t maxBodyBytes = 10 * 1024 * 1024;
  /// The bodies of every request being read or served, together; a request that would pass it
  /// gets 503 (with Retry-After) before its body is read.
  size_t maxInflightBodyBytes = 64 * 1024 * 1024;
  /// Open connections; one more is answered 503 and closed.
  size_t maxConnections = 512;
  /// Waiting for a request (and between kept-alive requests) and reading it.
  std::chrono::milliseconds idleTimeout = std::chrono::seconds(30);
  std::chrono::milliseconds writeTimeout = std::chrono::seconds(30);
  /// false: one request per connection (the response says Connection: close).
  bool keepAlive = true;
};

struct HttpServerOptions {
  std::string name = "http";  ///< in log lines and errors: "platform-http", "management"
  std::string host = "127.0.0.1";
  uint16_t port = 0;  ///< 0: any free port (see EmbeddedHttpServer::port())
  HttpServerLimits limits;
  /// How the server's own refusals (400, 413, 431, 503, 505) are written: textResponse, or a
  /// server's own format (the management server answers JSON).
  HttpResponse (*errorResponse)(unsigned status, unsigned version, std::string_view text) =
      &textResponse;
  /// I/O threads, each with its own event loop (and support::IoThread); connections are
  /// handed to them in turn as they are accepted, and each is served by one thread for its
  /// life. More than one lets a server whose requests run on their I/O thread (a proxy
  /// route) use more than one core.
  unsigned ioThreads = 1;
};

/// What a server has refused or survived since it started (for tests and management).
struct HttpServerCounters {
  uint64_t connectionsRefused = 0;  ///< over maxConnections
  uint64_t requestsRefused = 0;     ///< over maxInflightBodyBytes
  uint64_t malformedRequests = 0;   ///< answered 400, 413, 431 or 505
  uint64_t acceptErrors = 0;        ///< accept failures (each followed by a back-off)
  uint64_t ioThreadErrors = 0;      ///< exceptions caught on the I/O thread
  uint64_t openConnections = 0;
  uint64_t inflightBodyBytes = 0;
  uint64_t connectionsAccepted = 0;  ///< every connection served since the start
};

/// One request waiting for its response.
class HttpServerCall {
 public:
  /// The request, whole (headers and body); valid until respond().
  virtual const HttpRequest& request() const noexcept = 0;
  /// Sends the response; from any thread, exactly once. A HEAD request's response keeps the
  /// Content-Length of `response` and has no body.
  virtual void respond(HttpResponse response) noexcept = 0;

 protected:
  ~HttpServerCall() = default;
};

/// Answers a server's requests.
class HttpRequestHandler {
 public:
  virtual ~HttpRequestHandler() = default;
  /// On the server's I/O thread: must not block. `call` stays valid until its respond().
  virtual void handle(HttpServerCall& call) noexcept = 0;
};

class EmbeddedHttpServer {
 public:
  /// `handler` outlives the server.
  EmbeddedHttpServer(HttpServerOptions options, HttpRequestHandler& handler);
  /// Stops (see stop()).
  ~EmbeddedHttpServer();
  EmbeddedHttpServer(const EmbeddedHttpServer&) = delete;
  EmbeddedHttpServer& operator=(const EmbeddedHttpServer&) = delete;

  /// Binds and listens, and serves on a thread of its own; fails naming the server, the
  /// address and why. A second call does nothing; a call after stop() fails.
  Result<void> start();
  /// Stops accepting and serving, and waits for the I/O thread. The connections still open
  /// are closed when the server is destroyed; a call handed to the handler must be answered
  /// (or the handler gone) before then.
  void stop() noexcept;
  /// The port listened on; 0 before start().
  uint16_t port() const noexcept;
  HttpServerCounters counters() const noexcept;
  /// Runs `work` on the (first) I/O thread (a test's way to make it throw there).
  void runOnIoThreadForTest(std::function<void()> work);

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace dromedary::support
