// SPDX-License-Identifier: Apache-2.0
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using namespace std::chrono_literals;
using testing::RouteHarness;

class MockEndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h.start([](RouteBuilder& b) { b.from("direct:in").to("mock:result"); });
  }
  void send(const Value& body) { ASSERT_TRUE(h.producer.sendBody("direct:in", body)); }
  RouteHarness h;
};

TEST_F(MockEndpointTest, SatisfiedWhenCountAndBodiesMatch) {
  auto& mock = h.mock("mock:result");
  mock.expectedBodiesReceived({"a", "b"});
  send("a");
  send("b");
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST_F(MockEndpointTest, UnmetCountSaysExpectedAndActual) {
  auto& mock = h.mock("mock:result");
  mock.expectedMessageCount(3);
  send("a");
  send("b");
  auto r = mock.assertIsSatisfied(50ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "mock://result Received message count. Expected: <3> but was: <2>");
}

TEST_F(MockEndpointTest, WrongBodySaysWhichMessage) {
  auto& mock = h.mock("mock:result");
  mock.expectedBodiesReceived({"a", "b"});
  send("a");
  send("c");
  auto r = mock.assertIsSatisfied(50ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "mock://result Body of message: 1. Expected: <b> but was: <c>");
}

TEST_F(MockEndpointTest, BodiesInAnyOrder) {
  auto& mock = h.mock("mock:result");
  mock.expectedBodiesReceivedInAnyOrder({"a", "b"});
  send("b");
  send("a");
  EXPECT_TRUE(mock.assertIsSatisfied());
  mock.reset();
  mock.expectedBodiesReceivedInAnyOrder({"a", "b"});
  send("b");
  send("c");
  auto r = mock.assertIsSatisfied(50ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "mock://result Expected bodies in any order: <[a, b]> but was: <[b, c]>");
}

TEST_F(MockEndpointTest, MinimumCount) {
  auto& mock = h.mock("mock:result");
  mock.expectedMinimumMessageCount(2);
  send("a");
  auto r = mock.assertIsSatisfied(50ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "mock://result Received message count. Expected at least: <2> but was: <1>");
  send("b");
  send("c");
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST_F(MockEndpointTest, HeaderExpectationsReportMissingAndWrongValues) {
  auto& mock = h.mock("mock:result");
  mock.expectedHeaderReceived("type", "order");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "type", "refund"));
  send("b");
  auto r = mock.assertIsSatisfied(50ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "mock://result Header with name type for message: 0. Expected: <order> but was: "
            "<refund>\nmock://result No header with name type found for message: 1");
}

TEST_F(MockEndpointTest, CoercesTypesWhenComparing) {
  auto& mock = h.mock("mock:result");
  mock.expectedBodiesReceived({1});
  send("1");
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST_F(MockEndpointTest, WaitsForMessagesFromOtherThreads) {
  auto& mock = h.mock("mock:result");
  mock.expectedMessageCount(1);
  std::thread sender([&] {
    std::this_thread::sleep_for(20ms);
    send("late");
  });
  EXPECT_TRUE(mock.assertIsSatisfied(5s));
  sender.join();
}

// A mock makes its state on first use: threads whose messages are the first to reach an
// untouched mock all count, and every one is kept.
TEST_F(MockEndpointTest, MessagesThatArriveFirstFromManyThreadsAreAllCounted) {
  constexpr int kThreads = 8;
  constexpr int kEach = 50;
  std::vector<std::thread> senders;
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", i));
    });
  }
  for (auto& s : senders) s.join();
  auto& mock = h.mock("mock:result");
  EXPECT_EQ(mock.receivedCount(), static_cast<size_t>(kThreads * kEach));
  EXPECT_EQ(mock.receivedBodies().size(), static_cast<size_t>(kThreads * kEach));
}

TEST_F(MockEndpointTest, ResetForgetsEverything) {
  auto& mock = h.mock("mock:result");
  mock.expectedMessageCount(1);
  send("a");
  mock.reset();
  EXPECT_EQ(mock.receivedCount(), 0u);
  EXPECT_TRUE(mock.assertIsSatisfied(10ms));
}

TEST(MockOptionsTest, RetainFirstKeepsOnlyTheFirstCopies) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("mock:r?retainFirst=2"); });
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", i));
  auto& mock = h.mock("mock:r?retainFirst=2");
  EXPECT_EQ(mock.receivedCount(), 5u);
  EXPECT_EQ(mock.receivedBodies(), (std::vector<Value>{0, 1}));
}

TEST(MockOptionsTest, RetainLastKeepsOnlyTheLastCopies) {
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").to("mock:r?retainLast=2"); });
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBody("direct:in", i));
  EXPECT_EQ(h.mock("mock:r?retainLast=2").receivedBodies(), (std::vector<Value>{3, 4}));
}

}  // namespace
}  // namespace dromedary
