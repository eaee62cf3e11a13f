// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "support/route_harness.h"
#include "support/virtual_time_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;
using testing::VirtualTimeHarness;

std::vector<Value> bodies(component::mock::MockEndpoint& mock) {
  std::vector<Value> out;
  for (const auto& ex : mock.receivedExchanges()) out.push_back(ex->message().body());
  return out;
}

TEST(ResequenceTest, BatchSortsAFullBatch) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").resequence(body()).batch(3).to("mock:out").end().to("mock:after");
  });
  for (int v : {3, 1, 2}) ASSERT_TRUE(h.producer.sendBody("direct:in", Value(v)));
  EXPECT_EQ(bodies(h.mock("mock:out")), (std::vector<Value>{Value(1), Value(2), Value(3)}));
  EXPECT_EQ(h.mock("mock:after").receivedCount(), 3u);
}

TEST(ResequenceTest, BatchDropsDuplicatesAndCanReverse) {
  RouteHarness h;
  h.start([](RouteBuilder& b) {
    b.from("direct:in").resequence(body()).batch(3).reverse().to("mock:out").end();
  });
  for (const char* v : {"b", "b", "a", "c"}) ASSERT_TRUE(h.producer.sendBody("direct:in", v));
  EXPECT_EQ(bodies(h.mock("mock:out")), (std::vector<Value>{Value("c"), Value("b"), Value("a")}));
}

TEST(ResequenceTest, BatchTimeoutFlushesWhatCame) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .resequence(body())
        .batch(100, std::chrono::seconds(1))
        .to("mock:out")
        .end();
  });
  for (int v : {2, 1}) ASSERT_TRUE(t.routes.producer.sendBody("direct:in", Value(v)));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 0u);
  t.clock->advance(std::chrono::milliseconds(1100));
  EXPECT_EQ(bodies(t.routes.mock("mock:out")), (std::vector<Value>{Value(1), Value(2)}));
}

TEST(ResequenceTest, StreamDeliversSuccessorsAndWaitsForGaps) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .resequence(header("seq"))
        .stream(100, std::chrono::seconds(1))
        .to("mock:out")
        .end();
  });
  auto send = [&](int seq) {
    ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", Value(seq), "seq", seq));
  };
  send(2);
  send(1);
  t.clock->advance(std::chrono::milliseconds(1100));  // the first waits for its timeout
  EXPECT_EQ(bodies(t.routes.mock("mock:out")), (std::vector<Value>{Value(1), Value(2)}));
  send(3);  // the successor of 2: at once
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 3u);
  send(5);  // a gap (4)
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 3u);
  t.clock->advance(std::chrono::milliseconds(1100));
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 4u);
  send(4);  // older than the last delivered: dropped
  EXPECT_EQ(t.routes.mock("mock:out").receivedCount(), 4u);
}

TEST(ResequenceTest, StreamRejectsOldNumbersWhenAsked) {
  VirtualTimeHarness t;
  t.routes.start([](RouteBuilder& b) {
    b.from("direct:in")
        .errorHandler(noErrorHandler())
        .resequence(header("seq"))
        .stream(100, std::chrono::milliseconds(10))
        .rejectOld()
        .to("mock:out")
        .end();
  });
  ASSERT_TRUE(t.routes.producer.sendBodyAndHeader("direct:in", "x", "seq", 5));
  t.clock->advance(std::chrono::milliseconds(200));
  auto old = t.routes.producer.sendBodyAndHeader("direct:in", "x", "seq", 3);
  ASSERT_FALSE(old);
  EXPECT_NE(old.error().message.find("older than the last one delivered (5)"), std::string::npos);
}

}  // namespace
}  // namespace dromedary
