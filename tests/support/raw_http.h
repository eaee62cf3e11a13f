// SPDX-License-Identifier: Apache-2.0
#pragma once

// Raw bytes to an HTTP server over a real socket on 127.0.0.1, and what came back: for the
// tests that send what no well-behaved client sends (malformed requests, huge trailers,
// connections held open) and check the server answers and keeps serving.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>

namespace dromedary::testing {

/// What a server sent back on one connection.
struct RawReply {
  std::string text;     ///< every byte received
  bool closed = false;  ///< the server closed (or reset) the connection before the deadline

  /// The status code of the first response, or 0 when none came.
  int status() const {
    if (!text.starts_with("HTTP/1.")) return 0;
    size_t sp = text.find(' ');
    return sp == std::string::npos ? 0 : std::atoi(text.c_str() + sp + 1);
  }
  /// The first response's body (what follows its blank line).
  std::string body() const {
    size_t end = text.find("\r\n\r\n");
    return end == std::string::npos ? std::string() : text.substr(end + 4);
  }
  bool hasHeaderLine(std::string_view line) const {
    return text.find(std::string("\r\n").append(line).append("\r\n")) != std::string::npos;
  }
};

/// One connection to 127.0.0.1:port, non-blocking underneath.
class RawConnection {
 public:
  /// `source`: the local loopback address to connect from (host order; 0: the kernel's
  /// choice). A loop of many thousand connections (the fuzzer's) spreads them over 127/8, so
  /// that no address and port pair comes back while its last connection is in TIME_WAIT.
  explicit RawConnection(uint16_t port, uint32_t source = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    if (source != 0) {
      sockaddr_in local{};
      local.sin_family = AF_INET;
      local.sin_addr.s_addr = htonl(source);
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
        ::close(fd_);
        fd_ = -1;
        return;
      }
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return;
    // In progress (or interrupted by a signal, which leaves it in progress): wait for it.
    int error = errno;
    if (error == EINPROGRESS || error == EINTR) {
      error = ETIMEDOUT;
      if (wait(POLLOUT, std::chrono::steady_clock::now() + std::chrono::seconds(10))) {
        socklen_t length = sizeof error;
        ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &length);
      }
    }
    if (error != 0) {
      ::close(fd_);
      fd_ = -1;
      errno = error;
    }
  }
  ~RawConnection() { close(); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  RawConnection(RawConnection&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

  bool connected() const noexcept { return fd_ >= 0; }
  /// Sends the end of the stream (the server reads EOF); reading goes on.
  void shutdownSend() noexcept {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }
  void close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  /// Sends `bytes` while reading what comes back, until everything is sent or the server
  /// stops taking it (it answered and closed). Returns the bytes sent.
  size_t send(std::string_view bytes,
              std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    size_t sent = 0;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (sent < bytes.size() && !reply_.closed && fd_ >= 0) {
      if (!wait(POLLOUT | POLLIN, deadline)) break;
      ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
        break;  // reset or shut: the answer, if any, is still to be read
      }
      readAvailable();
    }
    return sent;
  }

  /// Reads until the server closes the connection or the deadline passes.
  const RawReply& readUntilClosed(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!reply_.closed && fd_ >= 0 && wait(POLLIN, deadline)) readAvailable();
    return reply_;
  }

  /// Reads until `text` has arrived (true) or the server closes or the deadline passes.
  bool readUntil(std::string_view text,
                 std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (reply_.text.find(text) == std::string::npos) {
      if (reply_.closed || fd_ < 0 || !wait(POLLIN, deadline)) return false;
      readAvailable();
    }
    return true;
  }

  const RawReply& reply() const noexcept { return reply_; }

 private:
  // Until the socket is ready or the deadline passes. A signal (libFuzzer's SIGALRM, say)
  // interrupting the wait is no deadline.
  bool wait(short events, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd p{fd_, events, 0};
      int n = ::poll(&p, 1, static_cast<int>(left.count()));
      if (n >= 0 || errno != EINTR) return n > 0;
    }
  }

  void readAvailable() {
    char buffer[16384];
    for (;;) {
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) {
        reply_.text.append(buffer, static_cast<size_t>(n));
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        reply_.closed = true;
      }
      return;
    }
  }

  int fd_ = -1;
  RawReply reply_;
};

/// Sends `bytes` on a new connection and reads until the server closes it (or `timeout`).
inline RawReply rawHttp(uint16_t port, std::string_view bytes,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  RawConnection c(port);
  c.send(bytes, timeout);
  return c.readUntilClosed(timeout);
}

}  // namespace dromedary::testing
