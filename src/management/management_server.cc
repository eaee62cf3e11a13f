// SPDX-License-Identifier: Apache-2.0
// The management HTTP server on Boost.Beast: one thread running an io_context, connections
// handled asynchronously (one request each, `Connection: close`), a 10 s deadline per
// connection and a bound on the request size. Requests go to handleManagementRequest.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <fmt/format.h>

#include <mutex>
#include <thread>

#include <dromedary/management/management_server.h>

namespace dromedary {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// One connection: read a request, answer it, close.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Context& context, const ManagementOptions& options,
          std::mutex& control)
      : stream_(std::move(socket)), context_(context), options_(options), control_(control) {}

  void start() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(options_.maxRequestBytes);
    stream_.expires_after(std::chrono::seconds(10));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
  }

 private:
  void onRead(beast::error_code ec) {
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      return respond(ManagementResponse{413, "application/json",
                                        fmt::format("{{\"error\": \"request larger than {} "
                                                    "bytes\", \"status\": 413}}\n",
                                                    options_.maxRequestBytes)},
                     11, false);
    }
    if (ec) return;  // closed, timed out or not HTTP: nothing to answer
    const auto& req = parser_->get();
    ManagementRequest request{std::string(req.method_string()), std::string(req.target()),
                              std::string(req[http::field::authorization])};
    ManagementResponse response;
    {
      // Route control and reads of the route list from this thread, one request at a time.
      std::lock_guard lock(control_);
      response = handleManagementRequest(context_, options_, request);
    }
    respond(std::move(response), req.version(), req.method() == http::verb::head);
  }

  void respond(ManagementResponse r, unsigned version, bool head) {
    response_.version(version);
    response_.result(static_cast<unsigned>(r.status));
    response_.set(http::field::server, "dromedary");
    response_.set(http::field::content_type, r.contentType);
    response_.keep_alive(false);
    response_.body() = head ? std::string() : std::move(r.body);
    response_.prepare_payload();
    http::async_write(stream_, response_,
                      [self = shared_from_this()](beast::error_code, size_t) {
                        beast::error_code ignored;
                        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                      });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  Context& context_;
  const ManagementOptions& options_;
  std::mutex& control_;
};

}  // namespace

struct ManagementServer::Impl {
  Impl(Context& c, ManagementOptions o) : context(c), options(std::move(o)), acceptor(io) {}

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec) return;  // closed by stop()
      std::make_shared<Session>(std::move(socket), context, options, control)->start();
      accept();
    });
  }

  Context& context;
  ManagementOptions options;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::thread thread;
  std::mutex control;
  uint16_t port = 0;
  bool running = false;
};

ManagementServer::ManagementServer(Context& context, ManagementOptions options)
    : impl_(std::make_unique<Impl>(context, std::move(options))) {}

ManagementServer::~ManagementServer() { stop(); }

Result<void> ManagementServer::start() {
  Impl& s = *impl_;
  if (s.running) return {};
  beast::error_code ec;
  auto address = asio::ip::make_address(s.options.host == "localhost" ? "127.0.0.1"
                                                                       : s.options.host, ec);
  if (ec) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("management host '{}' is not an IP address", s.options.host));
  }
  tcp::endpoint endpoint(address, s.options.port);
  auto fail = [&](std::string_view what) {
    return makeError(ErrorCode::Io, fmt::format("cannot {} the management server on {}:{}: {}",
                                                what, s.options.host, s.options.port,
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
  s.thread = std::thread([&s] { s.io.run(); });
  s.running = true;
  return {};
}

uint16_t ManagementServer::port() const noexcept { return impl_->port; }

void ManagementServer::stop() noexcept {
  Impl& s = *impl_;
  if (!s.running) return;
  s.running = false;
  asio::post(s.io, [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
    s.io.stop();
  });
  if (s.thread.joinable()) s.thread.join();
}

}  // namespace dromedary
