// SPDX-License-Identifier: Apache-2.0
// The embedded HTTP server on its own, over real sockets on 127.0.0.1: the body budget all
// connections share, the back-off on accept failures, an exception on the I/O thread, and the
// memory a burst of large bodies took going back to the system.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include <dromedary/support/http_server.h>

#include "support/descriptor_limit.h"
#include "support/eventually.h"
#include "support/raw_http.h"
#include "support/resident_bytes.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;
using support::EmbeddedHttpServer;
using support::HttpServerCall;

// Answers at once, or holds each call until release() when holding.
class Handler final : public support::HttpRequestHandler {
 public:
  void handle(HttpServerCall& call) noexcept override {
    std::lock_guard lock(mutex_);
    if (holding_) {
      held_.push_back(&call);
      return;
    }
    answer(call);
  }
  void hold() {
    std::lock_guard lock(mutex_);
    holding_ = true;
  }
  size_t heldCount() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }
  void release() {
    std::lock_guard lock(mutex_);
    holding_ = false;
    for (HttpServerCall* call : held_) answer(*call);
    held_.clear();
  }

 private:
  static void answer(HttpServerCall& call) {
    call.respond(support::textResponse(200, call.request().version(),
                                       fmt::format("got {}", call.request().body().size())));
  }
  std::mutex mutex_;
  bool holding_ = false;
  std::vector<HttpServerCall*> held_;
};

std::string post(size_t length) {
  return fmt::format("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", length);
}

const std::string kGet = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

class EmbeddedHttpServerTest : public ::testing::Test {
 protected:
  void start(support::HttpServerLimits limits = {}) {
    server = std::make_unique<EmbeddedHttpServer>(
        support::HttpServerOptions{.name = "test", .limits = limits}, handler);
    auto started = server->start();
    ASSERT_TRUE(started) << started.error().toString();
  }
  Handler handler;
  std::unique_ptr<EmbeddedHttpServer> server;
};

TEST_F(EmbeddedHttpServerTest, ARequestWhoseBodyWouldPassTheBudgetIs503WithRetryAfter) {
  support::HttpServerLimits limits;
  limits.maxInflightBodyBytes = 100 * 1024;
  start(limits);
  handler.hold();
  const std::string body(60 * 1024, 'x');
  RawConnection first(server->port());
  first.send(post(body.size()) + body);
  ASSERT_TRUE(eventually([&] { return handler.heldCount() == 1; }));

  RawReply refused = rawHttp(server->port(), post(body.size()) + body);
  EXPECT_EQ(refused.status(), 503) << refused.text;
  EXPECT_TRUE(refused.hasHeaderLine("Retry-After: 1")) << refused.text;
  EXPECT_TRUE(refused.closed);

  handler.release();
  EXPECT_TRUE(first.readUntil("got 61440"));
  RawReply again = rawHttp(server->port(), post(body.size()) + body + kGet);
  EXPECT_EQ(again.status(), 200) << again.text;
  EXPECT_EQ(server->counters().requestsRefused, 1u);
  EXPECT_TRUE(eventually([&] { return server->counters().inflightBodyBytes == 0; }));
}

TEST_F(EmbeddedHttpServerTest, AChunkedBodyTakesFromTheBudgetChunkByChunk) {
  support::HttpServerLimits limits;
  limits.maxInflightBodyBytes = 100 * 1024;
  start(limits);
  const std::string chunk(40 * 1024, 'c');
  std::string request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 3; ++i) request += fmt::format("{:x}\r\n{}\r\n", chunk.size(), chunk);
  request += "0\r\n\r\n";
  RawReply refused = rawHttp(server->port(), request);
  EXPECT_EQ(refused.status(), 503) << refused.text;

  std::string small = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                      "Connection: close\r\n\r\n";
  small += fmt::format("{:x}\r\n{}\r\n0\r\n\r\n", chunk.size(), chunk);
  RawReply served = rawHttp(server->port(), small);
  EXPECT_EQ(served.status(), 200) << served.text;
  EXPECT_EQ(served.body(), "got 40960\n");
  EXPECT_TRUE(eventually([&] { return server->counters().inflightBodyBytes == 0; }));
}

// Every descriptor taken, a connection waits in the backlog: accepting it fails until one is
// free. The server retries with a growing back-off rather than at once (spinning a core), and
// serves again as soon as descriptors are back.
TEST_F(EmbeddedHttpServerTest, AnAcceptFailureBacksOffAndServingResumesOnceDescriptorsAreFree) {
  start();
  DescriptorLimit limit(24);
  ASSERT_TRUE(limit.ok());

  std::vector<RawConnection> clients;
  std::vector<int> fillers;
  for (int i = 0; i < 64; ++i) {
    RawConnection c(server->port());
    if (!c.connected()) break;
    clients.push_back(std::move(c));
  }
  for (int fd; (fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;) fillers.push_back(fd);
  ASSERT_FALSE(fillers.empty() && clients.size() < 2) << "descriptors were never exhausted";
  // One descriptor for one more client: the server has none left to accept it with.
  if (!fillers.empty()) {
    ::close(fillers.back());
    fillers.pop_back();
  }
  RawConnection waiting(server->port());
  std::this_thread::sleep_for(1s);
  uint64_t errors = server->counters().acceptErrors;

  for (int fd : fillers) ::close(fd);
  clients.clear();
  waiting.close();
  limit.restore();

  EXPECT_GE(errors, 1u);
  // 10 ms doubling to 1 s: about eight tries in the second. A loop without a back-off makes
  // thousands.
  EXPECT_LE(errors, 20u);
  EXPECT_TRUE(eventually([&] { return rawHttp(server->port(), kGet, 2s).status() == 200; }));
}

TEST_F(EmbeddedHttpServerTest, AnExceptionOnTheIoThreadIsCaughtAndServingGoesOn) {
  start();
  server->runOnIoThreadForTest([] { throw std::length_error("field value too large"); });
  ASSERT_TRUE(eventually([&] { return server->counters().ioThreadErrors == 1; }));
  RawReply r = rawHttp(server->port(), kGet);
  EXPECT_EQ(r.status(), 200) << r.text;
}

// The finding: 100 connections each sending 9.5 MB took the server from 47 MB to 1 GB and it
// stayed there. Now the budget holds a burst to 64 MiB, and what it took is given back.
TEST_F(EmbeddedHttpServerTest, TheMemoryABurstOfLargeBodiesTookIsGivenBack) {
  start();
  handler.hold();
  const size_t before = residentBytes();
  const std::string body(4 * 1024 * 1024, 'b');
  const std::string request = post(body.size()) + body;
  std::vector<RawConnection> clients;
  for (int i = 0; i < 12; ++i) {
    clients.emplace_back(server->port());
    clients.back().send(request);
  }
  ASSERT_TRUE(eventually([&] { return handler.heldCount() == 12; }));
  const size_t peak = residentBytes();
  handler.release();
  for (RawConnection& c : clients) EXPECT_TRUE(c.readUntil("got 4194304"));
  EXPECT_GT(peak, before + 40 * 1024 * 1024) << "the burst should have taken memory";
  // Given back by the I/O thread once the last body is done with.
  size_t after = 0;
  EXPECT_TRUE(eventually([&] { return (after = residentBytes()) < before + 16 * 1024 * 1024; }))
      << "before " << before << ", peak " << peak << ", after " << after;
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

// The connection's one timer (http_session.h): a head that stops half-way and a kept
// connection left idle are closed at idleTimeout; the time a handler takes is not counted.
TEST_F(EmbeddedHttpServerTest, AHalfSentHeadAndAnIdleKeptConnectionAreClosedAtIdleTimeout) {
  support::HttpServerLimits limits;
  limits.idleTimeout = 300ms;
  start(limits);
  auto began = std::chrono::steady_clock::now();
  RawConnection half(server->port());
  half.send("GET / HTTP/1.1\r\nHost: x\r\n");
  EXPECT_TRUE(half.readUntilClosed(5s).closed);
  auto waited = std::chrono::steady_clock::now() - began;
  EXPECT_GE(waited, 250ms);
  EXPECT_LT(waited, 3s);

  RawConnection kept(server->port());
  kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(kept.readUntil("got 0"));
  began = std::chrono::steady_clock::now();
  EXPECT_TRUE(kept.readUntilClosed(5s).closed);
  waited = std::chrono::steady_clock::now() - began;
  EXPECT_GE(waited, 250ms);
  EXPECT_LT(waited, 3s);
}

TEST_F(EmbeddedHttpServerTest, AHandlerSlowerThanIdleTimeoutIsStillAnsweredOnAKeptConnection) {
  support::HttpServerLimits limits;
  limits.idleTimeout = 200ms;
  start(limits);
  RawConnection c(server->port());
  for (int i = 0; i < 3; ++i) {
    handler.hold();
    const size_t length = static_cast<size_t>(i) + 1;  // "got N" tells the replies apart
    c.send(post(length) + std::string(length, 'b'));
    ASSERT_TRUE(eventually([&] { return handler.heldCount() == 1; }));
    std::this_thread::sleep_for(500ms);  // past idleTimeout, in the handler
    handler.release();
    ASSERT_TRUE(c.readUntil(fmt::format("got {}", length))) << "request " << i;
    EXPECT_FALSE(c.reply().closed);
    // The next request comes within the idle time: the connection stays.
    std::this_thread::sleep_for(50ms);
  }
}

}  // namespace
}  // namespace dromedary::testing
