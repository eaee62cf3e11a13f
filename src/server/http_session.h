// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded HTTP server's insides: its state (listener, I/O thread, limits, counters), the
// budget of body bytes all its connections share, and one connection (HttpSession).

#include <atomic>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <dromedary/core/logging.h>
#include <dromedary/support/http_server.h>
#include <dromedary/support/io_thread.h>

namespace dromedary::support {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

/// The body bytes every connection of a server may hold at once. Taken when a request's
/// length is known (its Content-Length, or each chunk's size), before the body is read;
/// given back when its response is written. Once a burst of large bodies is over, the
/// allocator is asked to return the freed memory to the system.
class BodyBudget {
 public:
  explicit BodyBudget(size_t limit) noexcept : limit_(limit) {}
  /// false, taking nothing, when `n` more would pass the limit.
  bool take(size_t n) noexcept;
  void give(size_t n) noexcept;
  uint64_t inflight() const noexcept { return inflight_.load(std::memory_order_relaxed); }

 private:
  const size_t limit_;
  std::atomic<size_t> inflight_{0};
  std::atomic<size_t> peak_{0};  // the most held since memory was last returned
};

struct EmbeddedHttpServer::State {
  // One I/O thread: its event loop, as components see it (support::IoThread, whose
  // attachments go before the io_context), and the thread.
  struct Loop {
    asio::io_context io;
    std::shared_ptr<IoThread> ioThread = std::make_shared<IoThread>(io);
    // Keeps run() going while the loop has no connection yet (stop() ends it).
    asio::executor_work_guard<asio::io_context::executor_type> busy{io.get_executor()};
    std::thread thread;
  };

  State(HttpServerOptions options, HttpRequestHandler& handler);

  void accept();
  void acceptFailed(beast::error_code ec);
  void run(Loop& loop) noexcept;
  void caught(std::string_view what) noexcept;

  // What the sessions use comes first: the io_contexts, destroyed first, destroy the
  // sessions still open, and their destructors give back their connection and body bytes.
  HttpServerOptions options;
  HttpRequestHandler& handler;
  Logger log;
  BodyBudget budget{options.limits.maxInflightBodyBytes};
  std::atomic<size_t> openConnections{0};
  struct {
    std::atomic<uint64_t> connectionsRefused{0}, requestsRefused{0}, malformedRequests{0},
        acceptErrors{0}, ioThreadErrors{0}, connectionsAccepted{0};
  } counters;
  std::vector<std::unique_ptr<Loop>> loops;  // the first one accepts
  size_t nextLoop = 0;                      // the loop the next connection goes to
  tcp::acceptor acceptor;
  asio::steady_timer retry;  // the accept loop's back-off
  std::chrono::milliseconds backoff{0};
  uint16_t port = 0;
  bool running = false;
  bool stopped = false;
};

/// One connection: requests read (bounded), handed to the server's handler and answered, one
/// after the other (HTTP/1.1 keep-alive). Lives on the I/O thread but for respond().
class HttpSession final : public HttpServerCall, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, EmbeddedHttpServer::State& server);
  ~HttpSession();

  void start() { readHeader(); }

  // HttpServerCall
  const HttpRequest& request() const noexcept override { return request_; }
  void respond(HttpResponse response) noexcept override;

 private:
  void readHeader();
  void onHeader(beast::error_code ec, size_t header_bytes);
  void onBody(beast::error_code ec);
  void dispatch();
  // Answers a request that cannot be served (malformed, too large, over the budget) and
  // closes the connection.
  void refuse(beast::error_code ec);
  void answerAndClose(unsigned status, std::string_view text);
  void write(HttpResponse response, bool close);
  void write(bool close);  // response_
  void onWritten(beast::error_code ec);
  // The socket is closed at the deadline (max: none); see expireAt.
  void expireAfter(std::chrono::steady_clock::duration d);
  void expireNever() noexcept { deadline_ = std::chrono::steady_clock::time_point::max(); }
  void armTimer(std::chrono::steady_clock::time_point at);
  // Half-closes, then reads what the client still sends for a moment, so that closing does
  // not reset the connection before the client has read the answer.
  void linger();
  bool reserve(size_t n) noexcept;
  void release() noexcept;

  // A plain socket and one timer rather than beast::tcp_stream, whose type-erased executor
  // and shared state were copied on every operation (~7% of a request's CPU). The timer is
  // armed for the earliest deadline and stays armed while later ones are set: when it fires
  // early it is armed again for the deadline as it stands, so a request on a kept connection
  // sets no timer of its own.
  tcp::socket socket_;
  asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  bool timerArmed_ = false;
  EmbeddedHttpServer::State& server_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  // Beast's parser keeps a reference to its chunk callback: it lives here.
  std::function<void(uint64_t, beast::string_view, beast::error_code&)> on_chunk_;
  HttpRequest request_;
  HttpResponse response_;
  std::string head_text_;  // the response's status line and headers, as written
  std::shared_ptr<HttpSession> busy_;  // keeps the session while the handler has its request
  size_t reserved_ = 0;                // body bytes taken from the server's budget
  unsigned version_ = 11;
  bool head_ = false;
};

}  // namespace dromedary::support
