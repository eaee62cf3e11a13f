// SPDX-License-Identifier: Apache-2.0
// A thread that waits for its exchange anyway (a ProducerTemplate's caller, a consumer's own
// thread) sends the request and reads the reply itself, on a curl loop of the pool's that it
// borrows: no hand-off to the pool's thread and back. An exchange nobody waits for is still
// parked and sent by the pool's thread. Both take their connection from one count of leases,
// so the pool's limits hold across them; a stopping producer ends a request a caller is
// running. Over real sockets against a platform-http server.
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

// Notes the thread it runs on.
class NoteThread final : public Processor {
 public:
  Status process(Exchange&) override {
    seen.store(std::this_thread::get_id());
    return Status::Continue;
  }
  std::atomic<std::thread::id> seen{};
};

class HttpCallerThreadTest : public HttpClientFixture {
 protected:
  /// Sends `ex` to direct:call without waiting; the future is set when it completes.
  std::future<void> sendParked(Exchange& ex) {
    auto* promise = new std::promise<void>();
    std::future<void> done = promise->get_future();
    ex.setPattern(Pattern::InOut);
    processAsync(ex, *client.context.producer("direct:call").value(), &completed, promise);
    return done;
  }

 private:
  static void completed(Exchange&, void* arg) noexcept {
    auto* promise = static_cast<std::promise<void>*>(arg);
    promise->set_value();
    delete promise;
  }
};

TEST_F(HttpCallerThreadTest, ACallerThatWaitsSendsTheRequestAndReadsTheReplyOnItsOwnThread) {
  serve([](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); });
  auto after = std::make_shared<NoteThread>();
  client.start([&](RouteBuilder& b) { b.from("direct:call").to(url("/ping")).process(after); });
  for (int i = 0; i < 3; ++i) {
    ExchangePtr ex = call("direct:call");
    ASSERT_FALSE(ex->failed()) << ex->error().message();
    EXPECT_EQ(ex->message().body().toString(), "pong");
    EXPECT_EQ(after->seen.load(), std::this_thread::get_id());
  }
}

TEST_F(HttpCallerThreadTest, AnExchangeNobodyWaitsForIsParkedAndSentByThePoolsThread) {
  serve([](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); });
  auto after = std::make_shared<NoteThread>();
  client.start([&](RouteBuilder& b) { b.from("direct:call").to(url("/ping")).process(after); });
  ExchangePtr ex = acquireExchange(&client.context);
  ASSERT_EQ(sendParked(*ex).wait_for(std::chrono::seconds(10)), std::future_status::ready);
  ASSERT_FALSE(ex->failed()) << ex->error().message();
  EXPECT_EQ(ex->message().body().toString(), "pong");
  EXPECT_NE(after->seen.load(), std::this_thread::get_id());
}

TEST_F(HttpCallerThreadTest, TheLimitsHoldForCallersAndParkedExchangesTogether) {
  serveSlow(std::chrono::milliseconds(100));
  client.start([&](RouteBuilder& b) {
    b.from("direct:call").to(url("/slow?maxTotalConnections=2&connectionRequestTimeout=60s"));
  });
  std::vector<ExchangePtr> parked;
  std::vector<std::future<void>> parked_done;
  for (int i = 0; i < 6; ++i) {
    parked.push_back(acquireExchange(&client.context));
    parked_done.push_back(sendParked(*parked.back()));
  }
  std::vector<std::string> bodies(6);
  std::vector<std::thread> callers;
  for (size_t i = 0; i < bodies.size(); ++i) {
    callers.emplace_back([&, i] {
      ExchangePtr ex = call("direct:call");
      bodies[i] = ex->failed() ? ex->error().message() : ex->message().body().toString();
    });
  }
  for (auto& t : callers) t.join();
  for (auto& done : parked_done) {
    ASSERT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  }
  for (const std::string& body : bodies) EXPECT_EQ(body, "done");
  for (const ExchangePtr& ex : parked) EXPECT_EQ(ex->message().body().toString(), "done");
  EXPECT_EQ(received.load(), 12);
  EXPECT_EQ(peak.load(), 2);
}

TEST_F(HttpCallerThreadTest, StoppingTheContextEndsARequestACallerIsRunning) {
  serveSlow(std::chrono::milliseconds(5000));
  client.context.setShutdownTimeout(std::chrono::milliseconds(200));
  server.context.setShutdownTimeout(std::chrono::milliseconds(200));
  client.start([&](RouteBuilder& b) { b.from("direct:call").to(url("/slow")); });
  std::string outcome;
  std::thread caller([&] {
    ExchangePtr ex = call("direct:call");
    outcome = ex->failed() ? "failed: " + ex->error().message() : ex->message().body().toString();
  });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (held.load() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(held.load(), 1);
  auto started = std::chrono::steady_clock::now();
  client.context.stop();
  caller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_EQ(outcome.rfind("failed: ", 0), 0u) << outcome;
}

}  // namespace
}  // namespace dromedary::testing
