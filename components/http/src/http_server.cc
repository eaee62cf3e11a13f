// SPDX-License-Identifier: Apache-2.0
#include "http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <fmt/format.h>

#include <mutex>
#include <optional>
#include <thread>

namespace dromedary::component::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kIdleTimeout = std::chrono::seconds(30);  // keep-alive, and reading a request
constexpr auto kWriteTimeout = std::chrono::seconds(30);
constexpr size_t kHeaderLimit = 16 * 1024;

}  // namespace

Response textResponse(unsigned status, unsigned version, std::string_view text) {
  Response r{static_cast<bhttp::status>(status), version};
  r.set(bhttp::field::content_type, "text/plain; charset=utf-8");
  r.body().reserve(text.size() + 1);
  r.body().append(text);
  r.body() += '\n';
  return r;
}

bool HttpBinding::allows(std::string_view method) const noexcept {
  if (methods.empty()) return true;
  for (const std::string& m : methods) {
    if (m == method) return true;
  }
  return false;
}

struct HttpServer::State {
  explicit State(PlatformHttpConfig c) : config(std::move(c)), acceptor(io) {}

  // The binding serving `method` on `path`, best match first: fewer parameters, then exact
  // before prefix. `allow` gets the methods bound to the path when none serves `method`.
  std::shared_ptr<HttpBinding> find(std::string_view method, std::string_view path,
                                    PathParameters& params, std::string& allow) {
    std::lock_guard lock(mutex);
    const std::shared_ptr<HttpBinding>* best = nullptr;
    bool path_found = false;
    for (const auto& b : bindings) {
      if (!b->path.match(path, b->prefix, nullptr)) continue;
      path_found = true;
      if (!b->allows(method)) continue;
      if (!best || b->path.parameterCount() < (*best)->path.parameterCount() ||
          (b->path.parameterCount() == (*best)->path.parameterCount() && (*best)->prefix &&
           !b->prefix)) {
        best = &b;
      }
    }
    if (best) {
      (*best)->path.match(path, (*best)->prefix, &params);
      return *best;
    }
    if (path_found) {
      for (const auto& b : bindings) {
        if (!b->path.match(path, b->prefix, nullptr)) continue;
        if (b->methods.empty()) continue;
        for (const std::string& m : b->methods) {
          if (allow.find(m) != std::string::npos) continue;
          if (!allow.empty()) allow += ", ";
          allow += m;
        }
      }
    }
    return nullptr;
  }

  void accept();

  PlatformHttpConfig config;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::thread thread;
  std::mutex mutex;  // bindings; taken per request, briefly, on the I/O thread
  std::vector<std::shared_ptr<HttpBinding>> bindings;
  uint16_t port = 0;
  bool listening = false;
};

namespace {

// One connection: requests read and answered one after the other (HTTP/1.1 keep-alive).
class Session final : public HttpCall, public std::enable_shared_from_this<Session> {
 public:
  // `server` outlives every session: its io_context, destroyed with it, destroys the handlers
  // that hold them (and no worker is left to answer once the context's workers are gone).
  Session(tcp::socket socket, HttpServer::State* server)
      : stream_(std::move(socket)), server_(server) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(server_->config.maxBodySize);
    stream_.expires_after(kIdleTimeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        self->onRead(ec);
                      });
  }

  const Request& request() const noexcept override { return request_; }
  const PathParameters& pathParameters() const noexcept override { return params_; }

  void respond(Response response) noexcept override {
    try {
      auto holder = std::make_shared<Response>(std::move(response));
      asio::post(server_->io, [self = std::move(busy_), holder] { self->write(std::move(*holder)); });
    } catch (...) {
      // Out of memory: the connection is dropped, as when its client goes away.
      busy_.reset();
    }
  }

 private:
  void onRead(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      return write(textResponse(413, 11,
                                fmt::format("request body larger than {} bytes",
                                            server_->config.maxBodySize)),
                   true);
    }
    if (ec == bhttp::error::header_limit) {
      return write(textResponse(431, 11, "request headers too large"), true);
    }
    if (ec) return;  // closed, timed out or not HTTP: nothing to answer
    request_ = parser_->release();
    params_.clear();
    std::string_view target = sv(request_.target());
    std::string_view path = target.substr(0, target.find('?'));
    std::string method(sv(request_.method_string()));
    std::string allow;
    auto binding = server_->find(method, path, params_, allow);
    head_ = false;
    if (!binding && request_.method() == bhttp::verb::head) {
      allow.clear();
      binding = server_->find("GET", path, params_, allow);  // HEAD is GET without the body
      head_ = binding != nullptr;
    }
    if (!binding) {
      if (allow.empty()) {
        return write(textResponse(404, request_.version(), fmt::format("no route serves {}", path)));
      }
      Response r = request_.method() == bhttp::verb::options
                       ? Response{bhttp::status::no_content, request_.version()}
                       : textResponse(405, request_.version(),
                                      fmt::format("{} is not allowed on {}", method, path));
      r.set(bhttp::field::allow, allow);
      return write(std::move(r));
    }
    stream_.expires_never();  // the route's own timeouts apply while it works
    binding_ = std::move(binding);
    busy_ = shared_from_this();
    binding_->handler->handle(*this);
  }

  void write(Response response, bool close = false) {
    binding_.reset();
    response_ = std::move(response);
    response_.set(bhttp::field::server, "dromedary");
    response_.keep_alive(!close && request_.keep_alive());
    response_.prepare_payload();
    if (head_) response_.body().clear();  // Content-Length stays the GET's
    stream_.expires_after(kWriteTimeout);
    serializer_.emplace(response_);
    bhttp::async_write(stream_, *serializer_,
                       [self = shared_from_this()](beast::error_code ec, size_t) {
                         self->onWritten(ec);
                       });
  }

  void onWritten(beast::error_code ec) {
    bool again = !ec && response_.keep_alive();
    serializer_.reset();
    response_ = {};
    if (again) return read();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  HttpServer::State* server_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  Request request_;
  PathParameters params_;
  Response response_;
  std::optional<bhttp::response_serializer<bhttp::string_body>> serializer_;
  std::shared_ptr<HttpBinding> binding_;
  std::shared_ptr<Session> busy_;  // keeps the session while a handler works on its request
  bool head_ = false;
};

}  // namespace

void HttpServer::State::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;  // closed
    if (!ec) {
      std::make_shared<Session>(std::move(socket), this)->read();
    }
    accept();
  });
}

HttpServer::HttpServer(PlatformHttpConfig config)
    : state_(std::make_unique<State>(std::move(config))) {}

HttpServer::~HttpServer() {
  State& s = *state_;
  if (!s.listening) return;
  asio::post(s.io, [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
    s.io.stop();
  });
  if (s.thread.joinable()) s.thread.join();
  // state_ goes next: its io_context destroys the handlers still queued, and with them the
  // sessions they hold (kept-alive connections are closed, not leaked).
}

Result<void> HttpServer::add(std::shared_ptr<HttpBinding> binding) {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  for (const auto& b : s.bindings) {
    if (!b->path.samePath(binding->path)) continue;
    // The first method both serve ("" when both serve every method).
    std::optional<std::string_view> shared;
    if (b->methods.empty() && binding->methods.empty()) shared = "";
    const auto& mine = binding->methods.empty() ? b->methods : binding->methods;
    const HttpBinding& other = binding->methods.empty() ? *binding : *b;
    for (const std::string& m : mine) {
      if (!shared && other.allows(m)) shared = m;
    }
    if (shared) {
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("{} {} is served already by {}, so {} cannot serve it",
                                   shared->empty() ? "every method of" : *shared,
                                   binding->path.text(), b->owner, binding->owner));
    }
  }
  if (!s.listening) {
    beast::error_code ec;
    std::string_view host = s.config.host == "localhost" ? "127.0.0.1" : s.config.host;
    auto address = asio::ip::make_address(host, ec);
    if (ec) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("the HTTP server's host '{}' is not an IP address",
                                   s.config.host));
    }
    tcp::endpoint endpoint(address, s.config.port);
    auto fail = [&](std::string_view what) {
      beast::error_code ignored;
      s.acceptor.close(ignored);
      return makeError(ErrorCode::Io, fmt::format("cannot {} the HTTP server on {}:{}: {}", what,
                                                  s.config.host, s.config.port, ec.message()));
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
    s.listening = true;
  }
  s.bindings.push_back(std::move(binding));
  return {};
}

void HttpServer::remove(const HttpBinding* binding) noexcept {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  std::erase_if(s.bindings, [&](const auto& b) { return b.get() == binding; });
}

uint16_t HttpServer::port() const noexcept {
  std::lock_guard lock(state_->mutex);
  return state_->port;
}

}  // namespace dromedary::component::http
