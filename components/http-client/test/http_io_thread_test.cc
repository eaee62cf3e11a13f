// SPDX-License-Identifier: Apache-2.0
// A request made on a server I/O thread (a platform-http route that cannot block runs where
// its request came in) is driven by a curl loop attached to that thread: the proxied request
// goes out and its reply comes back without the exchange changing thread. A stop that gives
// up waiting for such a request (its shutdown timeout passed) ends the I/O thread with the
// request in flight: it is failed there, and nothing hangs.
#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

using HttpIoThreadTest = HttpClientFixture;

// Notes the thread it runs on; it cannot block, so a route of such steps runs on the I/O
// thread that received its request.
class NoteThread final : public Processor {
 public:
  Status process(Exchange&) override {
    seen.store(std::this_thread::get_id());
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }
  std::atomic<std::thread::id> seen{};
};

TEST_F(HttpIoThreadTest, AProxiedRequestIsSentAndAnsweredOnTheServersIoThread) {
  serve([](RouteBuilder& b) {
    b.from("platform-http:/api/hello").setBody(simple("hello ${header.CamelHttpMethod}"));
  });
  auto before = std::make_shared<NoteThread>();
  auto after = std::make_shared<NoteThread>();
  client.context.properties().set("camel.server.host", "127.0.0.1");
  client.context.properties().set("camel.server.port", "0");
  std::string backend = fmt::format("http://127.0.0.1:{}?bridgeEndpoint=true", port);
  client.start([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").process(before).to(backend).process(after);
  });
  uint16_t proxy_port = platformHttpPort(client.context);
  for (int i = 0; i < 3; ++i) {
    auto reply = server.producer.requestBody(
        fmt::format("http://127.0.0.1:{}/api/hello", proxy_port), Value());
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->toString(), "hello GET");
    EXPECT_EQ(before->seen.load(), after->seen.load())
        << "the reply was handled on another thread than the request";
  }
}

TEST_F(HttpIoThreadTest, WithTwoServerIoThreadsConnectionsTakeTurnsAndEachRequestStaysOnItsThread) {
  serve([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hello")); });
  auto before = std::make_shared<NoteThread>();
  auto after = std::make_shared<NoteThread>();
  client.context.properties().set("camel.server.host", "127.0.0.1");
  client.context.properties().set("camel.server.port", "0");
  client.context.properties().set("dromedary.server.ioThreads", "2");
  std::string backend = fmt::format("http://127.0.0.1:{}?bridgeEndpoint=true", port);
  client.start([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").process(before).to(backend).process(after);
  });
  uint16_t proxy_port = platformHttpPort(client.context);
  std::set<std::thread::id> threads;
  for (int i = 0; i < 4; ++i) {
    // A connection per request: the server hands each to its next I/O thread.
    auto reply = server.producer.requestBody(
        fmt::format("http://127.0.0.1:{}/api/hello?connectionClose=true", proxy_port), Value());
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->toString(), "hello");
    EXPECT_EQ(before->seen.load(), after->seen.load());
    threads.insert(before->seen.load());
  }
  EXPECT_EQ(threads.size(), 2u);
}

TEST_F(HttpIoThreadTest, ABadIoThreadsCountIsRefusedNamingTheProperty) {
  client.context.properties().set("camel.server.host", "127.0.0.1");
  client.context.properties().set("camel.server.port", "0");
  client.context.properties().set("dromedary.server.ioThreads", "0");
  auto added = client.context.addRoutes(
      [](RouteBuilder& b) { b.from("platform-http:/x").setBody(constant("x")); });
  auto started = added ? client.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("dromedary.server.ioThreads=0 must be a number from 1"),
            std::string::npos)
      << started.error().message;
}

TEST_F(HttpIoThreadTest, AProxyContextGoneWithARequestInFlightFailsItAndHangsNothing) {
  std::atomic<bool> backend_called{false};
  serve([&](RouteBuilder& b) {
    b.from("platform-http:/slow?matchOnUriPrefix=true")
        .process([&](Exchange&) { backend_called = true; })
        .delay(std::chrono::milliseconds(3000))
        .setBody(constant("late"));
  });
  // The proxy's own context, gone while its request to the backend is in flight: its server's
  // I/O thread ends (or its http pools go first) with the transfer still attached there.
  auto proxy = std::make_unique<RouteHarness>();
  proxy->context.properties().set("camel.server.host", "127.0.0.1");
  proxy->context.properties().set("camel.server.port", "0");
  proxy->context.setShutdownTimeout(std::chrono::milliseconds(200));
  std::string backend = fmt::format("http://127.0.0.1:{}/slow?bridgeEndpoint=true", port);
  proxy->start(
      [&](RouteBuilder& b) { b.from("platform-http:/api?matchOnUriPrefix=true").to(backend); });
  uint16_t proxy_port = platformHttpPort(proxy->context);
  std::thread caller([&] {
    auto reply = server.producer.requestBody(
        fmt::format("http://127.0.0.1:{}/api/x?responseTimeout=10000", proxy_port), Value());
    EXPECT_FALSE(reply) << reply->toString();  // the connection closed unanswered
  });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!backend_called && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(backend_called.load());
  auto started = std::chrono::steady_clock::now();
  proxy.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  caller.join();
}

}  // namespace
}  // namespace dromedary::testing
