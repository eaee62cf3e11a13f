// SPDX-License-Identifier: Apache-2.0
#include "direct_lane.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include "curl_loop.h"
#include "http_target.h"

namespace dromedary::component::httpclient {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kChunk = 16 * 1024;
std::atomic<uint64_t> g_opened{0};
char g_failing;  // Transfer::directConnection of a transfer whose failure is posted
constexpr uint32_t kHeaderLimit = 100 * 1024;  // curl's own bound on a reply's head

// "http://host[:port]" split: the authority as written (for the Host header), host, port and
// the request target ("/" at least).
struct SplitUrl {
  std::string_view authority, host, port, target;
};

bool splitUrl(std::string_view url, SplitUrl& out) noexcept {
  constexpr std::string_view kScheme = "http://";
  if (!url.starts_with(kScheme)) return false;
  std::string_view rest = url.substr(kScheme.size());
  size_t end = rest.find_first_of("/?#");
  out.authority = rest.substr(0, end);
  out.target = end == std::string_view::npos ? std::string_view("/") : rest.substr(end);
  if (out.authority.empty() || out.authority.find('@') != std::string_view::npos ||
      url.find('#') != std::string_view::npos) {
    return false;
  }
  std::string_view a = out.authority;
  if (a.front() == '[') {  // an IPv6 literal
    size_t close = a.find(']');
    if (close == std::string_view::npos) return false;
    out.host = a.substr(1, close - 1);
    a.remove_prefix(close + 1);
    if (!a.empty() && a.front() != ':') return false;
    out.port = a.empty() ? std::string_view("80") : a.substr(1);
  } else {
    size_t colon = a.find(':');
    out.host = a.substr(0, colon);
    out.port = colon == std::string_view::npos ? std::string_view("80") : a.substr(colon + 1);
  }
  if (out.host.empty() || out.port.empty() || out.port.size() > 5) return false;
  unsigned value = 0;
  for (char c : out.port) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return value > 0 && value <= 65535;
}

// Whether a header entry ("Name: value", or curl's "Name;" / "Name:") is for `name`.
bool sameName(std::string_view entry, std::string_view name) noexcept {
  return entry.size() > name.size() && (entry[name.size()] == ':' || entry[name.size()] == ';') &&
         equalsIgnoreCaseAscii(entry.substr(0, name.size()), name);
}

// The request line and head as curl would send them for the same transfer: its Host (the
// URL's authority) and "Accept: */*" unless the transfer names its own, the transfer's
// headers (curl's "Name:" entries, which remove a header, left out; "Name;" sent empty), and
// the body's length.
void buildHead(Transfer& t, const SplitUrl& url) {
  std::string& h = t.requestHead;
  h.clear();
  h.append(t.method).append(" ").append(url.target).append(" HTTP/1.1\r\n");
  bool host = false, accept = false;
  for (size_t start : t.header_starts) {
    std::string_view entry(t.header_text.data() + start);
    host = host || sameName(entry, "Host");
    accept = accept || sameName(entry, "Accept");
  }
  if (!host) h.append("Host: ").append(url.authority).append("\r\n");
  if (!accept) h.append("Accept: */*\r\n");
  for (size_t start : t.header_starts) {
    std::string_view entry(t.header_text.data() + start);
    if (entry.ends_with(':')) continue;  // removes a header of curl's own: none here
    if (entry.ends_with(';')) {
      h.append(entry.substr(0, entry.size() - 1)).append(":\r\n");
    } else {
      h.append(entry).append("\r\n");
    }
  }
  if (t.sendsBody) {
    char length[32];
    int n = std::snprintf(length, sizeof length, "%zu", t.requestData.size());
    h.append("Content-Length: ").append(length, static_cast<size_t>(n)).append("\r\n");
  }
  h.append("\r\n");
}

// A reused connection the server had closed: the request can go again, nothing was answered.
bool closedUnderUs(const beast::error_code& ec) noexcept {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe;
}

}  // namespace

using Clock = std::chrono::steady_clock;

// A plain socket and one timer, not beast::tcp_stream: the stream's type-erased executor and
// shared state were copied on every operation (~5% of a proxied request's CPU). The timer is
// armed for the earliest deadline and left armed while later operations push the deadline
// out (soTimeout counts from each one's start): when it fires early it is armed again for
// the deadline as it stands, so a request costs no timer operation of its own.
struct DirectLane::Connection {
  explicit Connection(asio::io_context& io) : socket(io), timer(io) {}
  tcp::socket socket;
  asio::steady_timer timer;
  Clock::time_point deadline = Clock::time_point::max();  // the operation under way's
  bool timerArmed = false;
  bool timedOut = false;  // the timer closed the socket: what failed, failed for that
  beast::flat_buffer buffer;
  std::optional<tcp::resolver> resolver;
  std::optional<http::response_parser<http::buffer_body>> parser;
  Transfer* t = nullptr;  // the request it carries; null when idle or abandoned
  std::string key;        // host:port
  bool reused = false;
  std::array<char, kChunk> chunk;
};

namespace {

void closeConnection(DirectLane::Connection& c) noexcept;

// The next operation's deadline: `ms` from now (0: none), and never past the request's
// responseTimeout deadline once connected.
void deadlineIn(const std::shared_ptr<DirectLane::Connection>& c, long ms, bool connected);

}  // namespace

DirectLane::DirectLane(asio::io_context& io, Done done, void* owner)
    : io_(io), done_(done), owner_(owner), alive_(std::make_shared<DirectLane*>(this)) {}

DirectLane::~DirectLane() {
  *alive_ = nullptr;
  for (auto& [key, connections] : idle_) {
    for (auto& c : connections) closeConnection(*c);
  }
}

namespace {

void closeConnection(DirectLane::Connection& c) noexcept {
  beast::error_code ignored;
  c.socket.close(ignored);
  c.timer.cancel();
}

void deadlineIn(const std::shared_ptr<DirectLane::Connection>& c, long ms, bool connected) {
  const Transfer& t = *c->t;
  Clock::time_point at = ms > 0 ? Clock::now() + std::chrono::milliseconds(ms)
                                : Clock::time_point::max();
  if (connected && t.responseTimeoutMs > 0) at = std::min(at, t.responseDeadline);
  c->deadline = at;
  c->timedOut = false;
  if (at == Clock::time_point::max() || (c->timerArmed && c->timer.expiry() <= at)) return;
  struct Fired {
    std::shared_ptr<DirectLane::Connection> c;
    void operator()(const beast::error_code& ec) const {
      if (ec == asio::error::operation_aborted) return;  // re-armed or closed meanwhile
      c->timerArmed = false;
      if (!c->t || c->deadline == Clock::time_point::max()) return;  // idle: nothing due
      if (Clock::now() >= c->deadline) {
        c->timedOut = true;
        beast::error_code ignored;
        c->socket.close(ignored);  // the operation under way ends, failed for the timeout
        return;
      }
      c->timerArmed = true;  // early: the operations since pushed the deadline out
      c->timer.expires_at(c->deadline);
      c->timer.async_wait(Fired{c});
    }
  };
  c->timerArmed = true;
  c->timer.expires_at(at);
  c->timer.async_wait(Fired{c});
}

}  // namespace

uint64_t DirectLane::connectionsOpened() noexcept {
  return g_opened.load(std::memory_order_relaxed);
}

bool DirectLane::takes(std::string_view url) noexcept {
  SplitUrl split;
  return splitUrl(url, split);
}

void DirectLane::send(Transfer* t) noexcept { start(t, true); }

// A transfer that failed before any connection was its: `done` from the loop, not from within
// send(). Abandoned meanwhile (the pending mark cleared), or the lane gone, it is not called.
void DirectLane::failLater(Transfer* t, CURLcode code) noexcept {
  t->directConnection = &g_failing;
  try {
    asio::post(io_, [alive = alive_, t, code] {
      DirectLane* lane = *alive;
      if (!lane || t->directConnection != &g_failing) return;
      t->directConnection = nullptr;
      lane->done_(lane->owner_, t, code);
    });
  } catch (...) {
    t->directConnection = nullptr;
    done_(owner_, t, code);  // out of memory even for that: at once, as a last resort
  }
}

void DirectLane::start(Transfer* t, bool may_reuse) noexcept {
  SplitUrl url;
  ConnectionPtr c;
  try {
    if (!splitUrl(t->url, url)) {
      std::snprintf(t->error, sizeof t->error, "not a plain http URL");
      failLater(t, CURLE_URL_MALFORMAT);
      return;
    }
    buildHead(*t, url);
    key_.assign(url.host).append(":").append(url.port);
    if (may_reuse) {
      auto it = idle_.find(std::string_view(key_));
      if (it != idle_.end() && !it->second.empty()) {
        c = std::move(it->second.back());
        it->second.pop_back();
        c->reused = true;
      }
    }
    if (!c) {
      c = std::make_shared<Connection>(io_);
      c->key = key_;
    }
  } catch (const std::exception& e) {
    std::snprintf(t->error, sizeof t->error, "%s", e.what());
    failLater(t, CURLE_OUT_OF_MEMORY);
    return;
  }
  c->t = t;
  t->directConnection = c.get();
  if (c->reused) {
    t->connected = true;
    write(c);
  } else {
    connect(c, url.host, url.port);
  }
}

void DirectLane::connect(const ConnectionPtr& c, std::string_view host, std::string_view port) {
  g_opened.fetch_add(1, std::memory_order_relaxed);
  deadlineIn(c, c->t->connectTimeoutMs, false);
  auto connected = [this, c](beast::error_code ec, auto&&...) {
    if (!c->t) return;  // abandoned
    if (ec) {
      bool timed_out = c->timedOut;
      failed(c, timed_out ? CURLE_OPERATION_TIMEDOUT : CURLE_COULDNT_CONNECT,
             timed_out ? "Connection timed out" : ec.message(), false);
      return;
    }
    c->t->connected = true;
    beast::error_code ignored;
    c->socket.set_option(tcp::no_delay(true), ignored);
    write(c);
  };
  beast::error_code ec;
  asio::ip::address address = asio::ip::make_address(std::string(host), ec);
  if (!ec) {
    c->socket.async_connect(
        tcp::endpoint(address, static_cast<uint16_t>(std::stoi(std::string(port)))), connected);
    return;
  }
  c->resolver.emplace(io_);
  c->resolver->async_resolve(
      std::string(host), std::string(port),
      [this, c, connected](beast::error_code ec, tcp::resolver::results_type results) {
        if (!c->t) return;
        if (ec) {
          failed(c, CURLE_COULDNT_RESOLVE_HOST, ec.message(), false);
          return;
        }
        asio::async_connect(c->socket, results, connected);
      });
}

void DirectLane::write(const ConnectionPtr& c) {
  Transfer& t = *c->t;
  if (t.responseTimeoutMs > 0) {
    t.responseDeadline = Clock::now() + std::chrono::milliseconds(t.responseTimeoutMs);
  }
  deadlineIn(c, t.soTimeoutMs, true);
  std::array<asio::const_buffer, 2> out{asio::buffer(t.requestHead),
                                        asio::buffer(t.requestData.data(),
                                                     t.sendsBody ? t.requestData.size() : 0)};
  asio::async_write(c->socket, out, [this, c](beast::error_code ec, size_t) {
    if (!c->t) return;
    if (ec) {
      failed(c, c->timedOut ? CURLE_OPERATION_TIMEDOUT : CURLE_SEND_ERROR, ec.message(),
             !c->timedOut && closedUnderUs(ec));
      return;
    }
    readHead(c);
  });
}

void DirectLane::readHead(const ConnectionPtr& c) {
  c->parser.emplace();
  c->parser->header_limit(kHeaderLimit);
  // No limit (as curl's). Not boost::none: Boost 1.74 compares a length with it as an
  // optional, and every body is then over the limit.
  c->parser->body_limit(std::numeric_limits<std::uint64_t>::max());
  if (c->t->method == "HEAD") c->parser->skip(true);
  deadlineIn(c, c->t->soTimeoutMs, true);
  http::async_read_header(c->socket, c->buffer, *c->parser, [this, c](beast::error_code ec,
                                                                       size_t) {
    if (!c->t) return;
    if (ec) {
      bool timed_out = c->timedOut;
      bool nothing = ec == http::error::end_of_stream || ec == asio::error::eof;
      failed(c, timed_out ? CURLE_OPERATION_TIMEDOUT
                : nothing ? CURLE_GOT_NOTHING
                          : CURLE_RECV_ERROR,
             timed_out ? "Operation timed out" : nothing ? "Empty reply from server" : ec.message(),
             !timed_out && closedUnderUs(ec));
      return;
    }
    Transfer& t = *c->t;
    const auto& head = c->parser->get();
    const unsigned status = head.result_int();
    if (status >= 100 && status < 200 && status != 101) {  // an interim reply: the next
      readHead(c);
      return;
    }
    t.status = static_cast<long>(status);
    try {
      t.reason.assign(head.reason().data(), head.reason().size());
      t.responseHeaderText.clear();
      for (const auto& field : head) {
        t.responseHeaderText.append(field.name_string().data(), field.name_string().size());
        t.responseHeaderText += '\0';
        t.responseHeaderText.append(field.value().data(), field.value().size());
        t.responseHeaderText += '\0';
      }
    } catch (const std::exception& e) {
      failed(c, CURLE_OUT_OF_MEMORY, e.what(), false);
      return;
    }
    readOn(c);
  });
}

void DirectLane::readBody(const ConnectionPtr& c) {
  auto& body = c->parser->get().body();
  body.data = c->chunk.data();
  body.size = c->chunk.size();
  deadlineIn(c, c->t->soTimeoutMs, true);
  http::async_read(c->socket, c->buffer, *c->parser, [this, c](beast::error_code ec, size_t) {
    if (!c->t) return;
    if (ec == http::error::need_buffer) ec = {};  // the chunk is full: keep it, read on
    if (ec) {
      failed(c, c->timedOut ? CURLE_OPERATION_TIMEDOUT : CURLE_PARTIAL_FILE,
             c->timedOut ? "Operation timed out" : ec.message(), false);
      return;
    }
    Transfer& t = *c->t;
    const size_t n = c->chunk.size() - c->parser->get().body().size;
    if (n > 0 && !t.ignoreBody) {
      try {
        t.responseBody.append(std::string_view(c->chunk.data(), n));
      } catch (const std::exception& e) {
        try {
          t.bodyFailure = e.what();
        } catch (...) {
        }
        failed(c, CURLE_WRITE_ERROR, "the reply's body could not be kept", false);
        return;
      }
    }
    readOn(c);
  });
}

void DirectLane::readOn(const ConnectionPtr& c) {
  if (c->parser->is_done()) {
    complete(c);
  } else {
    readBody(c);
  }
}

void DirectLane::complete(const ConnectionPtr& c) {
  Transfer* t = c->t;
  c->t = nullptr;
  t->directConnection = nullptr;
  // Kept for the next request when both ends keep it, and nothing more was sent after the
  // reply (a server does not answer what was not asked).
  bool keep = c->parser->keep_alive() && c->buffer.size() == 0 && !t->connectionClose;
  c->parser.reset();
  c->resolver.reset();
  c->deadline = Clock::time_point::max();  // idle: the armed timer finds nothing due
  if (keep) {
    try {
      idle_[c->key].push_back(c);
    } catch (...) {
      keep = false;
    }
  }
  if (!keep) closeConnection(*c);
  done_(owner_, t, CURLE_OK);
}

void DirectLane::failed(const ConnectionPtr& c, CURLcode code, std::string_view why,
                        bool retryable) {
  Transfer* t = c->t;
  c->t = nullptr;
  t->directConnection = nullptr;
  closeConnection(*c);
  if (retryable && c->reused) {
    // The server had closed this idle connection: the request goes again, on a new one.
    t->connected = false;
    t->status = 0;
    start(t, false);
    return;
  }
  std::snprintf(t->error, sizeof t->error, "%.*s", static_cast<int>(why.size()), why.data());
  done_(owner_, t, code);
}

void DirectLane::abandon(Transfer* t) noexcept {
  void* mark = t->directConnection;
  t->directConnection = nullptr;
  if (!mark || mark == &g_failing) return;  // nothing under way, or a failLater's
  auto* c = static_cast<Connection*>(mark);
  c->t = nullptr;
  closeConnection(*c);  // its handlers run with an error and find no transfer
}

}  // namespace dromedary::component::httpclient
