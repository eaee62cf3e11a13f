// SPDX-License-Identifier: Apache-2.0
// The embedded HTTP server's listener: binding, the accept loop (with its back-off and the
// connection limit) and the I/O thread that survives an exception. Connections are
// http_session.cc's.
#include <dromedary/support/http_server.h>

#include <boost/asio/post.hpp>

#include <fmt/format.h>

#include "server/http_session.h"

namespace dromedary::support {

namespace {

constexpr auto kFirstBackoff = std::chrono::milliseconds(10);
constexpr auto kMaxBackoff = std::chrono::seconds(1);

// Answers a connection over the limit without a session: a new socket's send buffer is
// empty, so the short answer goes out in one non-blocking write, and the socket is closed.
void refuse(tcp::socket& socket) noexcept {
  static constexpr std::string_view kAnswer =
      "HTTP/1.1 503 Service Unavailable\r\nServer: dromedary\r\n"
      "Content-Type: text/plain; charset=utf-8\r\nContent-Length: 21\r\n"
      "Retry-After: 1\r\nConnection: close\r\n\r\ntoo many connections\n";
  beast::error_code ignored;
  socket.non_blocking(true, ignored);
  socket.write_some(asio::buffer(kAnswer.data(), kAnswer.size()), ignored);
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

}  // namespace

HttpResponse textResponse(unsigned status, unsigned version, std::string_view text) {
  HttpResponse r{static_cast<bhttp::status>(status), version};
  r.set(bhttp::field::content_type, "text/plain; charset=utf-8");
  r.body().reserve(text.size() + 1);
  r.body().append(text);
  r.body() += '\n';
  return r;
}

namespace {
std::vector<std::unique_ptr<EmbeddedHttpServer::State::Loop>> makeLoops(unsigned n) {
  std::vector<std::unique_ptr<EmbeddedHttpServer::State::Loop>> loops;
  for (unsigned i = 0; i < std::max(n, 1u); ++i) {
    loops.push_back(std::make_unique<EmbeddedHttpServer::State::Loop>());
  }
  return loops;
}
}  // namespace

EmbeddedHttpServer::State::State(HttpServerOptions o, HttpRequestHandler& h)
    : options(std::move(o)), handler(h), log(Logger::get(options.name)),
      loops(makeLoops(options.ioThreads)), acceptor(loops[0]->io), retry(loops[0]->io) {}

void EmbeddedHttpServer::State::accept() {
  // The connection is served by the next loop in turn, on its thread, for its life.
  asio::io_context& target = loops[nextLoop]->io;
  nextLoop = (nextLoop + 1) % loops.size();
  acceptor.async_accept(target, [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopped
    if (ec) return acceptFailed(ec);
    if (backoff.count() != 0) {
      log.log(LoggingLevel::Info,
              fmt::format("{} accepts connections again", options.name));
      backoff = {};
    }
    if (openConnections.load(std::memory_order_relaxed) >= options.limits.maxConnections) {
      counters.connectionsRefused.fetch_add(1, std::memory_order_relaxed);
      refuse(socket);
    } else {
      auto executor = socket.get_executor();
      auto session = std::make_shared<HttpSession>(std::move(socket), *this);
      if (loops.size() == 1) {
        session->start();
      } else {
        asio::post(executor, [session] { session->start(); });
      }
    }
    accept();
  });
}

// Descriptors exhausted, or memory: accepting again at once would spin on the same error
// (and the connection waiting in the backlog would stay there), so wait, longer each time.
void EmbeddedHttpServer::State::acceptFailed(beast::error_code ec) {
  counters.acceptErrors.fetch_add(1, std::memory_order_relaxed);
  if (backoff.count() == 0) {
    log.log(LoggingLevel::Warn,
            fmt::format("{} cannot accept a connection: {}; retrying with a back-off",
                        options.name, ec.message()));
    backoff = kFirstBackoff;
  } else {
    backoff = std::min<std::chrono::milliseconds>(backoff * 2, kMaxBackoff);
  }
  retry.expires_after(backoff);
  retry.async_wait([this](beast::error_code wait) {
    if (!wait && acceptor.is_open()) accept();
  });
}

// An exception escaping a handler unwinds out of run(): the connection it served is gone
// with the handler, and run() is entered again so that every other one is still served.
void EmbeddedHttpServer::State::run(Loop& loop) noexcept {
  loop.ioThread->began();
  for (;;) {
    try {
      loop.io.run();
      loop.ioThread->ended();
      return;
    } catch (const std::exception& e) {
      caught(e.what());
    } catch (...) {
      caught("an unknown exception");
    }
  }
}

void EmbeddedHttpServer::State::caught(std::string_view what) noexcept {
  counters.ioThreadErrors.fetch_add(1, std::memory_order_relaxed);
  try {
    log.log(LoggingLevel::Error,
            fmt::format("{}: {} on the I/O thread; its connection is closed and the server "
                        "keeps serving",
                        options.name, what));
  } catch (...) {
  }
}

EmbeddedHttpServer::EmbeddedHttpServer(HttpServerOptions options, HttpRequestHandler& handler)
    : state_(std::make_unique<State>(std::move(options), handler)) {}

EmbeddedHttpServer::~EmbeddedHttpServer() { stop(); }

Result<void> EmbeddedHttpServer::start() {
  State& s = *state_;
  if (s.running) return {};
  if (s.stopped) {
    return makeError(ErrorCode::Internal,
                     fmt::format("the {} server was stopped and cannot start again",
                                 s.options.name));
  }
  beast::error_code ec;
  const std::string& host = s.options.host;
  auto address = asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("the {} server's host '{}' is not an IP address",
                                 s.options.name, host));
  }
  tcp::endpoint endpoint(address, s.options.port);
  auto fail = [&](std::string_view what) {
    beast::error_code ignored;
    s.acceptor.close(ignored);
    return makeError(ErrorCode::Io, fmt::format("cannot {} the {} server on {}:{}: {}", what,
                                                s.options.name, host, s.options.port,
                                                ec.message()));
  };
  s.acceptor.open(endpoint.protocol(), ec);
  if (ec) return fail("open");
  s.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  s.acceptor.bind(endpoint, ec);
  if (ec) return fail("bind");
  s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail("listen on");
  s.port = s.acceptor.local_endpoint().port();
  s.accept();
  for (auto& loop : s.loops) loop->thread = std::thread([&s, &l = *loop] { s.run(l); });
  s.running = true;
  return {};
}

void EmbeddedHttpServer::stop() noexcept {
  State& s = *state_;
  if (!s.running) return;
  s.running = false;
  s.stopped = true;
  asio::post(s.loops[0]->io, [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
    s.retry.cancel();
  });
  for (auto& loop : s.loops) {
    // After the acceptor's close: posted to the first loop after it, so run after it.
    asio::post(loop->io, [&io = loop->io] { io.stop(); });
  }
  for (auto& loop : s.loops) {
    if (loop->thread.joinable()) loop->thread.join();
  }
  // The handlers still queued hold the open sessions: the io_context, destroyed with the
  // server, destroys them, and so closes their connections (kept-alive ones included).
}

uint16_t EmbeddedHttpServer::port() const noexcept { return state_->port; }

void EmbeddedHttpServer::runOnIoThreadForTest(std::function<void()> work) {
  asio::post(state_->loops[0]->io, std::move(work));
}

HttpServerCounters EmbeddedHttpServer::counters() const noexcept {
  const State& s = *state_;
  auto get = [](const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  return HttpServerCounters{get(s.counters.connectionsRefused),
                            get(s.counters.requestsRefused),
                            get(s.counters.malformedRequests),
                            get(s.counters.acceptErrors),
                            get(s.counters.ioThreadErrors),
                            s.openConnections.load(std::memory_order_relaxed),
                            s.budget.inflight(),
                            get(s.counters.connectionsAccepted)};
}

}  // namespace dromedary::support
