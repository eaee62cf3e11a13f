// SPDX-License-Identifier: Apache-2.0
// A proxy route's requests (platform-http -> http: with bridgeEndpoint, run on the server's
// I/O thread) go out through that thread's DirectLane (Boost.Beast), not curl: the same
// methods, headers and bodies reach the backend, the same failures come back (status codes as
// HttpOperationFailedException, timeouts, refused connections), one connection serves many
// requests, a kept connection the server closed meanwhile is replaced without failing the
// request, and chunked and large replies arrive whole. The front routes run in `client`,
// which the test calls over HTTP from `server`'s template.
#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "direct_lane.h"
#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

using component::httpclient::DirectLane;

// A million bytes that show any chunk lost, doubled or reordered.
std::string bigText() {
  std::string text;
  for (int i = 0; text.size() < 1'000'000; ++i) text += fmt::format("{:08d}", i);
  return text;
}

void serveEcho(RouteBuilder& b) {
  b.from("platform-http:/api/echo?matchOnUriPrefix=true")
      .setHeader("X-Reply", simple("r-${header.X-Trace}"))
      .setBody(simple("${header.CamelHttpMethod} ${header.CamelHttpPath} "
                      "q=${header.CamelHttpQuery} ct=${header.Content-Type} host=${header.Host} "
                      "body=${body}"));
  b.from("platform-http:/api/missing")
      .setHeader("CamelHttpResponseCode", constant(int64_t{404}))
      .setBody(constant("no such order"));
  b.from("platform-http:/api/big").process([](Exchange& ex) {
    ex.message().setBody(Value(bigText()));
  });
}

// A server on a raw socket: each connection gets one reply to its first request, then is
// closed without a word ("Connection: close" is not sent, so the client keeps it for reuse).
struct OneReplyServer {
  explicit OneReplyServer(std::string reply)
      : reply_(std::move(reply)),
        port(listener_.port),
        // The descriptor by value: close() resets the listener's while the thread may read.
        thread_([this, fd = listener_.fd] { serve(fd); }) {}
  ~OneReplyServer() {
    listener_.close();
    thread_.join();
  }
  void serve(int fd) {
    for (;;) {
      int c = ::accept(fd, nullptr, nullptr);
      if (c < 0) return;
      ++accepted;
      readRequestHead(c);
      (void)!::write(c, reply_.data(), reply_.size());
      ::close(c);
    }
  }
  LoopbackListener listener_;
  std::string reply_;
  std::atomic<int> accepted{0};
  uint16_t port;
  std::thread thread_;  // last: it starts once the rest is made
};

class HttpDirectLaneTest : public HttpClientFixture {
 protected:
  // Starts the client's front routes; the port they listen on.
  void front(const std::function<void(RouteBuilder&)>& routes) {
    client.context.properties().set("camel.server.host", "127.0.0.1");
    client.context.properties().set("camel.server.port", "0");
    client.start(routes);
    front_port = platformHttpPort(client.context);
    ASSERT_NE(front_port, 0);
  }
  // Sends to the front over HTTP (from the server context's template, on curl).
  ExchangePtr callFront(std::string_view path, Value body = Value(),
                        std::vector<std::pair<std::string, Value>> headers = {}) {
    ExchangePtr ex = acquireExchange(&server.context);
    ex->setPattern(Pattern::InOut);
    ex->message().setBody(std::move(body));
    for (auto& [name, value] : headers) ex->message().setHeader(name, std::move(value));
    (void)server.producer.send(fmt::format("http://127.0.0.1:{}{}", front_port, path), *ex);
    return ex;
  }
  std::string bodyOf(std::string_view path, Value body = Value(),
                     std::vector<std::pair<std::string, Value>> headers = {}) {
    ExchangePtr ex = callFront(path, std::move(body), std::move(headers));
    return ex->failed() ? "failed: " + ex->error().message() : ex->message().body().toString();
  }
  std::string proxyTo(uint16_t to, std::string_view options = "") const {
    return fmt::format("http://127.0.0.1:{}?bridgeEndpoint=true{}", to, options);
  }
  uint16_t front_port = 0;
};

TEST_F(HttpDirectLaneTest, AProxiedRequestGoesOutDirectlyWithItsMethodHeadersQueryAndBody) {
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(port));
  });
  const uint64_t opened = DirectLane::connectionsOpened();
  const std::string host = fmt::format("127.0.0.1:{}", port);
  auto get = callFront("/api/echo?z=1", Value(), {{"X-Trace", Value("t1")}});
  EXPECT_EQ(get->message().body().toString(),
            "GET /api/echo q=z=1 ct= host=" + host + " body=");
  EXPECT_EQ(headerOf(*get, "X-Reply"), "r-t1");  // the backend's header, back through
  EXPECT_EQ(bodyOf("/api/echo", Value("order-1"), {{"Content-Type", Value("text/plain")}}),
            "POST /api/echo q= ct=text/plain host=" + host + " body=order-1");
  EXPECT_EQ(bodyOf("/api/echo/7", Value("v2"), {{"CamelHttpMethod", Value("PUT")}}),
            "PUT /api/echo/7 q= ct= host=" + host + " body=v2");
  EXPECT_EQ(bodyOf("/api/echo/7", Value(), {{"CamelHttpMethod", Value("DELETE")}}),
            "DELETE /api/echo/7 q= ct= host=" + host + " body=");
  auto head = callFront("/api/echo", Value(), {{"CamelHttpMethod", Value("HEAD")}});
  EXPECT_FALSE(head->failed()) << head->error().message();
  EXPECT_EQ(headerOf(*head, "CamelHttpResponseCode"), "200");
  EXPECT_TRUE(head->message().body().isNull()) << head->message().body().toString();
  EXPECT_EQ(DirectLane::connectionsOpened(), opened + 1) << "not sent by the direct lane";
}

// "localhost" is resolved (off the I/O thread, by Asio's resolver) and its addresses tried in
// turn: ::1 first where /etc/hosts lists it (nothing listens there), then 127.0.0.1.
TEST_F(HttpDirectLaneTest, AHostNameIsResolvedAndItsAddressesTriedInTurn) {
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true")
        .to(fmt::format("http://localhost:{}?bridgeEndpoint=true", port));
  });
  const uint64_t opened = DirectLane::connectionsOpened();
  EXPECT_EQ(bodyOf("/api/echo"),
            fmt::format("GET /api/echo q= ct= host=localhost:{} body=", port));
  EXPECT_EQ(DirectLane::connectionsOpened(), opened + 1);
}

TEST_F(HttpDirectLaneTest, FiveHundredRequestsReuseOneConnection) {
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(port));
  });
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(bodyOf(fmt::format("/api/echo/{}", i)),
              fmt::format("GET /api/echo/{} q= ct= host=127.0.0.1:{} body=", i, port));
  }
  EXPECT_EQ(platformHttpCounters(server.context).connectionsAccepted, 1u);
}

TEST_F(HttpDirectLaneTest, WithConnectionCloseEachRequestHasAConnectionOfItsOwn) {
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(port, "&connectionClose=true"));
  });
  const uint64_t opened = DirectLane::connectionsOpened();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(bodyOf("/api/echo"),
              fmt::format("GET /api/echo q= ct= host=127.0.0.1:{} body=", port));
  }
  EXPECT_EQ(DirectLane::connectionsOpened(), opened + 3);
  EXPECT_EQ(platformHttpCounters(server.context).connectionsAccepted, 3u);
}

// A listener whose accept queue is full drops further connection requests (Linux), so the
// connection is never made: connectTimeout fails it, as a connect timeout.
TEST_F(HttpDirectLaneTest, ANeverCompletedConnectionFailsAtConnectTimeout) {
  LoopbackListener full;
  ASSERT_EQ(::listen(full.fd, 0), 0);
  std::vector<int> queued;  // fill the queue: a connection or two the listener never accepts
  for (int i = 0; i < 3; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(full.port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    (void)::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    queued.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true")
        .onException({"org.apache.hc.client5.http.ConnectTimeoutException"})
          .handled(true)
          .setBody(simple("connect timeout: ${exception.message}"))
        .end()
        .to(proxyTo(full.port, "&connectTimeout=300"));
  });
  std::string body = bodyOf("/api/x");
  EXPECT_NE(body.find("connect timeout: Connect to http://127.0.0.1:"), std::string::npos)
      << body;
  EXPECT_NE(body.find("no connection within the connectTimeout of 300 ms"), std::string::npos)
      << body;
  for (int fd : queued) ::close(fd);
}

TEST_F(HttpDirectLaneTest, A404IsAnHttpOperationFailedExceptionThatOnExceptionReads) {
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api/missing")
        .onException({"org.apache.camel.http.base.HttpOperationFailedException"})
          .handled(true)
          .setHeader("CamelHttpResponseCode", constant(int64_t{200}))
          .setBody(simple("missing: ${exception.statusCode} ${exception.statusText} "
                          "${exception.responseBody}"))
        .end()
        .to(proxyTo(port));
  });
  EXPECT_EQ(bodyOf("/api/missing"), "missing: 404 Not Found no such order");
}

TEST_F(HttpDirectLaneTest, AKeptConnectionTheServerClosedIsReplacedWithoutFailingTheRequest) {
  OneReplyServer backend("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(backend.port));
  });
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(bodyOf("/api/x"), "ok") << "request " << i;
    // Let the server's close reach the kept connection before it is used again.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(backend.accepted.load(), 3);
}

TEST_F(HttpDirectLaneTest, AChunkedReplyAndALargeReplyArriveWhole) {
  OneReplyServer chunked(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
      "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n");
  serve(serveEcho);
  front([&](RouteBuilder& b) {
    b.from("platform-http:/chunked").to(proxyTo(chunked.port));
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(port));
  });
  EXPECT_EQ(bodyOf("/chunked"), "hello, world");
  const std::string expected = bigText();  // over many reads of the lane's 16 KB
  std::string big = bodyOf("/api/big");
  EXPECT_EQ(big.size(), expected.size());
  EXPECT_TRUE(big == expected);
}

TEST_F(HttpDirectLaneTest, SilentAndClosedServersFailAsCurlsDo) {
  LoopbackListener silent;  // accepts nothing: never answered
  const uint16_t never = silent.port;
  const uint16_t closed = refusedPort();
  front([&](RouteBuilder& b) {
    b.from("platform-http:/slow")
        .onException({"java.net.SocketTimeoutException"})
          .handled(true)
          .setBody(simple("timed out: ${exception.message}"))
        .end()
        .to(proxyTo(never, "&responseTimeout=300"));
    b.from("platform-http:/idle")
        .onException({"java.net.SocketTimeoutException"})
          .handled(true)
          .setBody(simple("timed out: ${exception.message}"))
        .end()
        .to(proxyTo(never, "&socketTimeout=300"));  // whole seconds: 1 s
    b.from("platform-http:/refused")
        .onException({"java.net.ConnectException"})
          .handled(true)
          .setBody(simple("connect: ${exception.message}"))
        .end()
        .to(proxyTo(closed));
  });
  std::string slow = bodyOf("/slow");
  EXPECT_NE(slow.find("timed out: Read timed out: http://127.0.0.1:"), std::string::npos) << slow;
  EXPECT_NE(slow.find("responseTimeout of 300 ms"), std::string::npos) << slow;
  std::string idle = bodyOf("/idle");
  EXPECT_NE(idle.find("sent nothing for the soTimeout of 1 s"), std::string::npos) << idle;
  std::string refused = bodyOf("/refused");
  EXPECT_NE(refused.find(fmt::format("connect: Connect to http://127.0.0.1:{}/refused failed",
                                     closed)),
            std::string::npos)
      << refused;
}

TEST_F(HttpDirectLaneTest, WithDirectClientOffCurlSendsTheProxiedRequest) {
  serve(serveEcho);
  client.context.properties().set("dromedary.http.directClient", "false");
  front([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(proxyTo(port));
  });
  const uint64_t opened = DirectLane::connectionsOpened();
  EXPECT_EQ(bodyOf("/api/echo"),
            fmt::format("GET /api/echo q= ct= host=127.0.0.1:{} body=", port));
  EXPECT_EQ(DirectLane::connectionsOpened(), opened);
}

TEST_F(HttpDirectLaneTest, ADirectClientSettingOtherThanTrueOrFalseIsRefusedNamingIt) {
  client.context.properties().set("dromedary.http.directClient", "flase");
  auto added = client.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:a").to("http://127.0.0.1:9/x?bridgeEndpoint=true"); });
  auto started = added ? client.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("dromedary.http.directClient 'flase'"),
            std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary::testing
