// SPDX-License-Identifier: Apache-2.0
#pragma once

/// MockEndpoint: Camel's mock for tests. Set expectations, run the routes, then assert.
///
/// Example:
///   auto& mock = context.getEndpoint<MockEndpoint>("mock:result");
///   mock.expectedBodiesReceived({"a", "b"});
///   producer.sendBody("direct:in", "a").value();
///   producer.sendBody("direct:in", "b").value();
///   Result<void> ok = mock.assertIsSatisfied();
///   EXPECT_TRUE(ok) << ok.error().message;
///
/// A failed assertion says what was expected and what arrived, one line per unmet
/// expectation, e.g. `mock://result Received message count. Expected: <3> but was: <2>`.
/// Bodies and headers compare with Camel's type coercion (so 1 equals "1").
///
/// Received exchanges are copied (that allocates: a mock is a test tool, not a hot path).
/// Options: retainFirst, retainLast (keep only the first/last N copies; counts stay exact).
/// Thread-safety: exchanges may arrive from any thread; expectations are set before sending.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <dromedary/spi/component.h>

namespace dromedary::component::mock {

class MockEndpoint final : public Endpoint {
 public:
  MockEndpoint(Component& component, Uri uri, EndpointOptions options);
  ~MockEndpoint() override;
  MockEndpoint(const MockEndpoint&) = delete;
  MockEndpoint& operator=(const MockEndpoint&) = delete;

  void expectedMessageCount(size_t count);
  void expectedMinimumMessageCount(size_t count);
  /// Expects exactly these bodies, in this order (and so this many messages).
  void expectedBodiesReceived(std::vector<Value> bodies);
  void expectedBodiesReceivedInAnyOrder(std::vector<Value> bodies);
  /// Expects every message to carry this header with this value.
  void expectedHeaderReceived(std::string name, Value value);

  /// Waits until the expected number of messages arrived (or `timeout`), then checks every
  /// expectation. The error lists each one not met.
  Result<void> assertIsSatisfied(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// As assertIsSatisfied, but succeeds only when an expectation is NOT met.
  Result<void> assertIsNotSatisfied(std::chrono::milliseconds timeout = std::chrono::seconds(1));

  /// Copies of the retained exchanges, in arrival order.
  std::vector<std::shared_ptr<const Exchange>> receivedExchanges() const;
  /// Bodies of the retained exchanges.
  std::vector<Value> receivedBodies() const;
  /// Every message that arrived (retained or not).
  size_t receivedCount() const;
  /// Forgets expectations and received messages.
  void reset();

  // Endpoint
  Result<std::unique_ptr<Producer>> createProducer() override;
  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override;

  /// Called by the mock's producer.
  void receive(const Exchange& exchange);

 private:
  // What a test expects.
  struct Expectations {
    std::optional<size_t> count;
    std::optional<size_t> minimum;
    std::optional<std::vector<Value>> bodies;
    std::optional<std::vector<Value>> bodiesAnyOrder;
    std::vector<std::pair<std::string, Value>> headers;
  };
  // What arrived and what is expected, made on first use: a route's mock that no test reads
  // and nothing reaches (many routes of a file) holds a pointer, not a lock and lists.
  struct State {
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<std::shared_ptr<const Exchange>> received;
    size_t count = 0;
    std::optional<Expectations> expected;  // set by the first expectation
    Expectations& expect() {  // with mutex held
      if (!expected) expected.emplace();
      return *expected;
    }
  };
  State& state() const;
  std::vector<std::string> failures(const State& s) const;  // with s.mutex held

  mutable std::atomic<State*> state_{nullptr};  // owned
  int64_t retain_first_;
  int64_t retain_last_;
};

}  // namespace dromedary::component::mock
