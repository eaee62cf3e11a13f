// SPDX-License-Identifier: Apache-2.0
// One connection of the embedded HTTP server: read a request within its bounds, hand it to
// the handler, write the response, and again while the client keeps the connection alive.
#include "server/http_session.h"

#include <array>
#include <chrono>

#include <boost/asio/write.hpp>
#include <fmt/format.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dromedary::support {

namespace {

// Body bytes read per system call once the headers are in (for a Content-Length body; the
// parser takes them from the buffer as they come).
constexpr size_t kBodyReadBytes = 64 * 1024;
// After a burst that held this much body memory, freed memory is returned to the system.
constexpr size_t kReturnMemoryAfter = 8 * 1024 * 1024;
// Room for the last chunk's line ("0", its extensions) and the closing CRLF besides the
// trailers.
constexpr size_t kChunkLineBytes = 64;
constexpr auto kLinger = std::chrono::seconds(1);
constexpr size_t kLingerBytes = 1024 * 1024;

// The header limit as the parser applies it: at most kMaxHeaderBytes, below the field size at
// which Beast throws rather than failing the parse.
size_t headerLimit(const HttpServerLimits& limits) noexcept {
  return std::min(limits.maxHeaderBytes, kMaxHeaderBytes);
}

// RFC 9112: a request whose body length cannot be told (a Transfer-Encoding that does not end
// in chunked; one in an HTTP/1.0 request) or with no single Host (HTTP/1.1) is answered 400.
// (Two Content-Lengths that differ, and Content-Length with Transfer-Encoding, Beast refuses.)
// Why, or null when the request is sound.
const char* unsoundFraming(const HttpRequest& header) noexcept {
  if (header.find(bhttp::field::transfer_encoding) != header.end()) {
    if (header.version() == 10) return "malformed request: Transfer-Encoding in HTTP/1.0";
    if (!header.chunked()) return "malformed request: Transfer-Encoding does not end in chunked";
  }
  if (header.version() == 11 && header.count(bhttp::field::host) != 1) {
    return "malformed request: an HTTP/1.1 request has one Host header";
  }
  return nullptr;
}

// Empties `message` and frees its body now. Assigning an empty message would not: a string
// moved from one in its small buffer keeps the capacity it had (a 10 MB body's, for as long
// as the connection stays open).
template <class Message>
void freeNow(Message& message) {
  Message gone = std::move(message);
  message = Message();
}

}  // namespace

bool BodyBudget::take(size_t n) noexcept {
  size_t held = inflight_.load(std::memory_order_relaxed);
  do {
    if (n > limit_ || held > limit_ - n) return false;
  } while (!inflight_.compare_exchange_weak(held, held + n, std::memory_order_relaxed));
  size_t peak = peak_.load(std::memory_order_relaxed);
  while (held + n > peak &&
         !peak_.compare_exchange_weak(peak, held + n, std::memory_order_relaxed)) {
  }
  return true;
}

void BodyBudget::give(size_t n) noexcept {
  if (n == 0) return;
  if (inflight_.fetch_sub(n, std::memory_order_relaxed) != n) return;
  // The last body of a burst is done. glibc keeps freed heap for reuse (and raises its mmap
  // threshold after large frees, so large bodies come from the heap too): give it back.
  if (peak_.exchange(0, std::memory_order_relaxed) < kReturnMemoryAfter) return;
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

HttpSession::HttpSession(tcp::socket socket, EmbeddedHttpServer::State& server)
    : socket_(std::move(socket)), timer_(socket_.get_executor()), server_(server) {
  server_.openConnections.fetch_add(1, std::memory_order_relaxed);
  server_.counters.connectionsAccepted.fetch_add(1, std::memory_order_relaxed);
  on_chunk_ = [this](uint64_t size, beast::string_view, beast::error_code& ec) {
    if (size != 0 && !reserve(size)) ec = asio::error::no_buffer_space;
  };
}

HttpSession::~HttpSession() {
  release();
  server_.openConnections.fetch_sub(1, std::memory_order_relaxed);
}

bool HttpSession::reserve(size_t n) noexcept {
  if (!server_.budget.take(n)) return false;
  reserved_ += n;
  return true;
}

void HttpSession::release() noexcept {
  server_.budget.give(reserved_);
  reserved_ = 0;
}

void HttpSession::expireAfter(std::chrono::steady_clock::duration d) {
  deadline_ = std::chrono::steady_clock::now() + d;
  if (!timerArmed_ || timer_.expiry() > deadline_) armTimer(deadline_);
}

void HttpSession::armTimer(std::chrono::steady_clock::time_point at) {
  timerArmed_ = true;
  timer_.expires_at(at);
  // A weak reference: an armed timer does not keep a closed connection's session.
  timer_.async_wait([weak = weak_from_this()](const beast::error_code& ec) {
    if (ec == asio::error::operation_aborted) return;  // armed again, or the session went
    auto self = weak.lock();
    if (!self) return;
    self->timerArmed_ = false;
    if (self->deadline_ == std::chrono::steady_clock::time_point::max()) return;
    if (std::chrono::steady_clock::now() < self->deadline_) {
      self->armTimer(self->deadline_);  // early: a later deadline was set meanwhile
      return;
    }
    beast::error_code ignored;
    self->socket_.close(ignored);  // the read or write under way ends with an error
  });
}

void HttpSession::readHeader() {
  const HttpServerLimits& limits = server_.options.limits;
  parser_.emplace();
  parser_->header_limit(static_cast<uint32_t>(headerLimit(limits)));
  parser_->body_limit(limits.maxBodyBytes);
  parser_->on_chunk_header(on_chunk_);
  // Holds no more than the headers (a little more, so that the parser reports the limit).
  buffer_.max_size(std::max(headerLimit(limits) + 1024, buffer_.size()));
  head_ = false;
  version_ = 11;
  expireAfter(limits.idleTimeout);
  bhttp::async_read_header(socket_, buffer_, *parser_,
                           [self = shared_from_this()](beast::error_code ec, size_t n) {
                             self->onHeader(ec, n);
                           });
}

void HttpSession::onHeader(beast::error_code ec, size_t header_bytes) {
  if (ec) return refuse(ec);
  const auto& header = parser_->get();
  version_ = header.version();
  if (version_ != 10 && version_ != 11) return refuse(bhttp::error::bad_version);
  head_ = header.method() == bhttp::verb::head;
  if (const char* why = unsoundFraming(header)) {
    server_.counters.malformedRequests.fetch_add(1, std::memory_order_relaxed);
    return answerAndClose(400, why);
  }
  if (parser_->chunked()) {
    // Beast bounds no trailer (and throws for a field of 64 KiB): the trailers stay in the
    // buffer until the last of them has arrived, so a buffer held to what the headers left
    // of the limit bounds them, and counts them with the headers. Chunk data passes through
    // the same buffer in pieces of that size.
    size_t limit = headerLimit(server_.options.limits);
    size_t left = limit > header_bytes ? limit - header_bytes : 0;
    buffer_.max_size(std::max(left + kChunkLineBytes, buffer_.size()));
  } else {
    if (auto length = parser_->content_length(); length && *length > 0) {
      if (*length > server_.options.limits.maxBodyBytes) return refuse(bhttp::error::body_limit);
      if (!reserve(static_cast<size_t>(*length))) return refuse(asio::error::no_buffer_space);
    }
    buffer_.max_size(std::max(kBodyReadBytes, buffer_.size()));
  }
  if (parser_->is_done()) return dispatch();
  bhttp::async_read(socket_, buffer_, *parser_,
                    [self = shared_from_this()](beast::error_code e, size_t) { self->onBody(e); });
}

void HttpSession::onBody(beast::error_code ec) {
  if (ec) return refuse(ec);
  dispatch();
}

void HttpSession::dispatch() {
  request_ = parser_->release();
  parser_.reset();
  expireNever();  // the handler's own timeouts apply while it works
  busy_ = shared_from_this();
  server_.handler.handle(*this);
}

void HttpSession::respond(HttpResponse response) noexcept {
  // Kept in the session rather than in the posted handler (no allocation of its own): the
  // I/O thread does not touch response_ while the handler has the request, and the post
  // orders this move before the write that reads it.
  response_ = std::move(response);
  try {
    asio::post(socket_.get_executor(), [self = std::move(busy_)] { self->write(false); });
  } catch (...) {
    // Out of memory: the connection is dropped, as when its client goes away.
    busy_.reset();
  }
}

void HttpSession::refuse(beast::error_code ec) {
  // A client that went away or stopped sending, or a server stopping: nothing to answer.
  static const auto& kParseErrors = bhttp::make_error_code(bhttp::error::need_more).category();
  if (ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
      (ec.category() != kParseErrors && ec != asio::error::no_buffer_space)) {
    return;
  }
  const HttpServerLimits& limits = server_.options.limits;
  unsigned status = 400;
  std::string text;
  if (ec == asio::error::no_buffer_space) {
    server_.counters.requestsRefused.fetch_add(1, std::memory_order_relaxed);
    HttpResponse r = server_.options.errorResponse(
        503, version_, "the server is busy with other requests' bodies; try again");
    r.set(bhttp::field::retry_after, "1");
    return write(std::move(r), true);
  }
  server_.counters.malformedRequests.fetch_add(1, std::memory_order_relaxed);
  if (ec == bhttp::error::body_limit) {
    status = 413;
    text = fmt::format("request body larger than {} bytes", limits.maxBodyBytes);
  } else if (ec == bhttp::error::header_limit || ec == bhttp::error::buffer_overflow) {
    status = 431;
    text = fmt::format("request header fields (or trailers) larger than {} bytes",
                       limits.maxHeaderBytes);
  } else if (ec == bhttp::error::bad_version) {
    status = 505;
    text = "HTTP version not supported: this server speaks HTTP/1.0 and HTTP/1.1";
    version_ = 11;
  } else {
    text = fmt::format("malformed request: {}", ec.message());
  }
  answerAndClose(status, text);
}

void HttpSession::answerAndClose(unsigned status, std::string_view text) {
  head_ = false;
  write(server_.options.errorResponse(status, version_ == 10 ? 10 : 11, text), true);
}

void HttpSession::write(HttpResponse response, bool close) {
  response_ = std::move(response);
  write(close);
}

void HttpSession::write(bool close) {
  response_.set(bhttp::field::server, "dromedary");
  response_.keep_alive(!close && server_.options.limits.keepAlive && request_.keep_alive());
  response_.prepare_payload();
  if (head_) response_.body().clear();  // Content-Length stays the GET's
  freeNow(request_);  // its body is done with: its memory goes before the write's
  release();
  expireAfter(server_.options.limits.writeTimeout);
  // The head as Beast's serializer writes it, into a buffer the connection keeps: the status
  // line (the reason given, else the status code's), the fields in order, a blank line.
  const unsigned code = response_.result_int();
  const unsigned version = response_.version();
  head_text_.clear();
  head_text_.append("HTTP/").push_back(static_cast<char>('0' + version / 10));
  head_text_.push_back('.');
  head_text_.push_back(static_cast<char>('0' + version % 10));
  head_text_.push_back(' ');
  head_text_.push_back(static_cast<char>('0' + code / 100 % 10));
  head_text_.push_back(static_cast<char>('0' + code / 10 % 10));
  head_text_.push_back(static_cast<char>('0' + code % 10));
  head_text_.push_back(' ');
  beast::string_view reason = response_.reason();
  if (reason.empty()) reason = bhttp::obsolete_reason(response_.result());
  head_text_.append(reason.data(), reason.size()).append("\r\n");
  for (const auto& field : response_) {
    head_text_.append(field.name_string().data(), field.name_string().size()).append(": ");
    head_text_.append(field.value().data(), field.value().size()).append("\r\n");
  }
  head_text_.append("\r\n");
  std::array<asio::const_buffer, 2> out{asio::buffer(head_text_), asio::buffer(response_.body())};
  asio::async_write(socket_, out, [self = shared_from_this()](beast::error_code ec, size_t) {
    self->onWritten(ec);
  });
}

void HttpSession::onWritten(beast::error_code ec) {
  bool again = !ec && response_.keep_alive();
  freeNow(response_);
  if (again) return readHeader();
  if (!ec) linger();
}

void HttpSession::linger() {
  beast::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  buffer_.clear();
  buffer_.max_size(kBodyReadBytes);
  expireAfter(kLinger);
  struct Drain {
    std::shared_ptr<HttpSession> self;
    size_t drained = 0;
    void operator()(beast::error_code ec, size_t n) {
      drained += n;
      self->buffer_.clear();
      if (ec || drained >= kLingerBytes) return;  // closed with the session
      auto buffers = self->buffer_.prepare(kBodyReadBytes);
      auto& socket = self->socket_;
      socket.async_read_some(buffers, std::move(*this));
    }
  };
  Drain{shared_from_this()}(beast::error_code{}, 0);
}

}  // namespace dromedary::support
