// SPDX-License-Identifier: Apache-2.0
// What an unauthenticated client could do to the platform-http server and the management
// server, sent as the same bytes over a real socket to each: a trailer that made Beast throw
// (and the process abort), trailers past the header limit, malformed framing, too many
// connections, descriptors exhausted. Each is answered as RFC 9112 says, and the server goes
// on serving.
#include <gtest/gtest.h>

#include <thread>

#include <fmt/format.h>

#include <dromedary/http/platform_http.h>
#include <dromedary/management/management_server.h>

#include "support/descriptor_limit.h"
#include "support/http_client.h"
#include "support/raw_http.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

enum class Server { PlatformHttp, Management };

std::string nameOf(const ::testing::TestParamInfo<Server>& info) {
  return info.param == Server::PlatformHttp ? "PlatformHttp" : "Management";
}

class HostileClientTest : public ::testing::TestWithParam<Server> {
 protected:
  void start(size_t max_connections = 0) {
    if (GetParam() == Server::PlatformHttp) {
      h.context.properties().set("camel.server.host", "127.0.0.1");
      h.context.properties().set("camel.server.port", "0");
      if (max_connections != 0) {
        h.context.properties().set("dromedary.server.maxConnections",
                                   std::to_string(max_connections));
      }
      h.start([](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); });
      port = platformHttpPort(h.context);
      target = "/ping";
    } else {
      h.start([](RouteBuilder& b) { b.from("direct:a").to("mock:a"); });
      ManagementOptions options;
      if (max_connections != 0) options.maxConnections = max_connections;
      management = std::make_unique<ManagementServer>(h.context, options);
      auto started = management->start();
      ASSERT_TRUE(started) << started.error().toString();
      port = management->port();
      target = "/api/health";
    }
    ASSERT_NE(port, 0);
  }

  // The request line and Host of a request the server serves, without the blank line.
  std::string head(std::string_view method = "GET") const {
    return fmt::format("{} {} HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, target);
  }
  std::string chunkedWithTrailer(std::string_view extra_headers, size_t trailer_bytes) const {
    return head() + std::string(extra_headers) + "Transfer-Encoding: chunked\r\n\r\n" +
           "5\r\nhello\r\n0\r\nX-Trailer: " + std::string(trailer_bytes, 't') + "\r\n\r\n";
  }
  bool serving() {
    HttpReply r = httpRequest(port, "GET", target);
    return r.status == 200;
  }

  RouteHarness h;
  std::unique_ptr<ManagementServer> management;
  uint16_t port = 0;
  std::string target;
};

// The finding: a trailer field of 65,534 bytes or more made Beast throw std::length_error on
// the I/O thread and the process abort (exit 134), before any routing.
TEST_P(HostileClientTest, ATrailerOf64KiBIsAnswered431AndTheServerKeepsServing) {
  start();
  for (size_t bytes : {65533u, 65534u, 70000u}) {
    RawReply r = rawHttp(port, chunkedWithTrailer("", bytes));
    EXPECT_EQ(r.status(), 431) << bytes << ": " << r.text.substr(0, 200);
    EXPECT_TRUE(r.closed) << bytes;
  }
  EXPECT_TRUE(serving());
}

TEST_P(HostileClientTest, TrailersCountWithTheHeadersAgainstTheHeaderLimit) {
  start();
  const std::string padding = "X-Padding: " + std::string(5000, 'p') + "\r\n";
  RawReply small = rawHttp(port, chunkedWithTrailer(padding + "Connection: close\r\n", 100));
  EXPECT_EQ(small.status(), 200) << small.text;
  RawReply over = rawHttp(port, chunkedWithTrailer(padding, 4000));
  EXPECT_EQ(over.status(), 431) << over.text;
  EXPECT_NE(over.body().find("8192"), std::string::npos) << over.body();
  EXPECT_TRUE(over.closed);
}

TEST_P(HostileClientTest, MalformedFramingIsAnswered400AndTheConnectionClosed) {
  start();
  const std::string kChunked = "5\r\nhello\r\n0\r\n\r\n";
  const std::pair<const char*, std::string> cases[] = {
      {"two different Content-Lengths",
       head("POST") + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"},
      {"Content-Length with Transfer-Encoding",
       head("POST") + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + kChunked},
      {"Transfer-Encoding then Content-Length",
       head("POST") + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + kChunked},
      {"a Transfer-Encoding that does not end in chunked",
       head("POST") + "Transfer-Encoding: gzip\r\n\r\nhello"},
      {"a header without a colon", head() + "X-No-Colon\r\n\r\n"},
      {"a NUL in a header", head() + std::string("X-Nul: a\0b\r\n\r\n", 15)},
      {"no Host in HTTP/1.1", fmt::format("GET {} HTTP/1.1\r\n\r\n", target)},
      {"two Hosts", head() + "Host: other\r\n\r\n"},
      {"a request line that is not one", "GARBAGE\r\n\r\n"},
  };
  for (const auto& [what, bytes] : cases) {
    RawReply r = rawHttp(port, bytes);
    EXPECT_EQ(r.status(), 400) << what << ": " << r.text;
    EXPECT_TRUE(r.closed) << what;
  }
  EXPECT_TRUE(serving());
}

TEST_P(HostileClientTest, AnHttpVersionOtherThan10Or11IsAnswered505) {
  start();
  RawReply r = rawHttp(port, fmt::format("GET {} HTTP/9.9\r\nHost: x\r\n\r\n", target));
  EXPECT_EQ(r.status(), 505) << r.text;
  EXPECT_TRUE(r.text.starts_with("HTTP/1.1 505")) << r.text;
  EXPECT_TRUE(r.closed);
}

TEST_P(HostileClientTest, AConnectionOverTheLimitIsAnswered503AndClosed) {
  start(4);
  std::vector<RawConnection> held;
  for (int i = 0; i < 4; ++i) held.emplace_back(port);
  // Accepted in order: the fifth finds four open.
  RawConnection fifth(port);
  const RawReply& refused = fifth.readUntilClosed();
  EXPECT_EQ(refused.status(), 503) << refused.text;
  EXPECT_TRUE(refused.hasHeaderLine("Retry-After: 1")) << refused.text;
  EXPECT_TRUE(refused.closed);
  held.pop_back();
  auto deadline = std::chrono::steady_clock::now() + 10s;
  bool served = false;
  while (!served && std::chrono::steady_clock::now() < deadline) {
    served = rawHttp(port, head() + "Connection: close\r\n\r\n").status() == 200;
    if (!served) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(served) << "a place freed up is taken again";
}

// The finding: one accept failure (descriptors exhausted) stopped the management server for
// good, and platform-http spun at 84% CPU. Both now serve again once descriptors are free.
TEST_P(HostileClientTest, DescriptorsExhaustedStopNeitherServer) {
  start();
  {
    DescriptorLimit limit(24);
    ASSERT_TRUE(limit.ok());
    std::vector<RawConnection> clients;
    for (int i = 0; i < 64; ++i) {
      RawConnection c(port);
      if (!c.connected()) break;
      clients.push_back(std::move(c));
    }
    std::this_thread::sleep_for(300ms);
  }
  auto deadline = std::chrono::steady_clock::now() + 10s;
  bool served = false;
  while (!served && std::chrono::steady_clock::now() < deadline) {
    served = serving();
    if (!served) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(served);
}

INSTANTIATE_TEST_SUITE_P(BothServers, HostileClientTest,
                         ::testing::Values(Server::PlatformHttp, Server::Management), nameOf);

}  // namespace
}  // namespace dromedary::testing
