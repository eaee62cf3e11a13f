// SPDX-License-Identifier: Apache-2.0
// The http: producer's connection pool, as Apache HttpClient's for Camel: a request in flight
// holds a lease of maxTotalConnections (at most connectionsPerRoute per host); one over the
// limits waits for a lease, for at most connectionRequestTimeout, and then fails unsent with
// ConnectionRequestTimeoutException. Over real sockets against a platform-http server that
// counts the requests it holds at once.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

class HttpPoolTest : public HttpClientFixture {
 protected:
  /// Calls direct:call from `n` threads at once; the bodies that came back.
  std::vector<std::string> callTogether(int n) {
    std::vector<std::string> bodies(static_cast<size_t>(n));
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) {
      threads.emplace_back([this, i, &bodies] {
        ExchangePtr ex = call("direct:call");
        bodies[static_cast<size_t>(i)] = ex->failed() ? "failed" : ex->message().body().toString();
      });
    }
    for (auto& t : threads) t.join();
    return bodies;
  }
};

TEST_F(HttpPoolTest, RequestsOverMaxTotalConnectionsWaitForAFreeConnection) {
  serveSlow(std::chrono::milliseconds(200));
  client.start([&](RouteBuilder& b) {
    b.from("direct:call").to(url("/slow?maxTotalConnections=1&connectionRequestTimeout=30s"));
  });
  for (const std::string& body : callTogether(4)) EXPECT_EQ(body, "done");
  EXPECT_EQ(received.load(), 4);
  EXPECT_EQ(peak.load(), 1);
}

TEST_F(HttpPoolTest, ConnectionsPerRouteBoundsTheRequestsInFlightToOneHost) {
  serveSlow(std::chrono::milliseconds(300));
  client.start(
      [&](RouteBuilder& b) { b.from("direct:call").to(url("/slow?connectionsPerRoute=2")); });
  for (const std::string& body : callTogether(6)) EXPECT_EQ(body, "done");
  EXPECT_EQ(peak.load(), 2);
}

TEST_F(HttpPoolTest, ARequestWaitingLongerThanConnectionRequestTimeoutFailsUnsent) {
  serveSlow(std::chrono::milliseconds(2000));
  std::string target = url("/slow?maxTotalConnections=1&connectionRequestTimeout=200");
  client.start([&](RouteBuilder& b) {
    b.from("direct:call")
        .onException({"org.apache.hc.core5.http.ConnectionRequestTimeoutException"})
        .handled(true)
        .setBody(simple("pool: ${exception.message}"))
        .end()
        .to(target);
    b.from("direct:io")
        .onException({"java.io.IOException"})
        .handled(true)
        .setBody(constant("io"))
        .end()
        .to(target);
  });
  std::thread first([&] { EXPECT_EQ(call("direct:call")->message().body().toString(), "done"); });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (held.load() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(held.load(), 1);
  auto started = std::chrono::steady_clock::now();
  std::string body = call("direct:call")->message().body().toString();
  auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(body.rfind("pool: Timeout waiting for a connection to " + url("/slow"), 0), 0u) << body;
  EXPECT_NE(body.find("connectionRequestTimeout of 200 ms"), std::string::npos) << body;
  EXPECT_GE(waited, std::chrono::milliseconds(190));
  EXPECT_LT(waited, std::chrono::milliseconds(1900));  // not when the first reply came
  // It is an IOException too, as in Camel.
  EXPECT_EQ(call("direct:io")->message().body().toString(), "io");
  first.join();
  EXPECT_EQ(received.load(), 1);  // the requests that timed out were never sent
  // The lease came back with the first reply: the pool serves again.
  held = 0;
  peak = 0;
  std::thread again([&] { EXPECT_EQ(call("direct:call")->message().body().toString(), "done"); });
  again.join();
  EXPECT_EQ(received.load(), 2);
}

TEST_F(HttpPoolTest, ABadConnectionRequestTimeoutIsRefusedNamingTheEndpoint) {
  serveSlow(std::chrono::milliseconds(1));
  client.start([](RouteBuilder&) {});
  auto producer = client.context.producer(url("/slow?connectionRequestTimeout=soon"));
  ASSERT_FALSE(producer);
  EXPECT_NE(producer.error().message.find("connectionRequestTimeout"), std::string::npos)
      << producer.error().message;
}

TEST_F(HttpPoolTest, APoolThatCannotStartFailsTheEndpointNamingIt) {
  client.start([](RouteBuilder&) {});
  // No descriptor left for the new pool's wake-up eventfd (limits no other endpoint has: a
  // pool of its own), then the limit back as it was.
  size_t open = 0;
  for ([[maybe_unused]] auto& fd : std::filesystem::directory_iterator("/proc/self/fd")) ++open;
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
  rlimit tight = before;
  tight.rlim_cur = open - 1;  // less the iterator's own, closed again
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &tight), 0);
  auto producer = client.context.producer("http://127.0.0.1:9/x?maxTotalConnections=7");
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &before), 0);
  ASSERT_FALSE(producer);
  EXPECT_NE(producer.error().message.find("endpoint 'http://127.0.0.1:9/x?maxTotalConnections=7'"
                                          ": cannot start its connection pool: eventfd"),
            std::string::npos)
      << producer.error().message;
}

}  // namespace
}  // namespace dromedary::testing
