// SPDX-License-Identifier: Apache-2.0
// At-least-once across a broker restart: RabbitMQ is stopped and started while persistent
// messages flow; every message is processed at least once, none is lost.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>

#include <gmock/gmock.h>

#include "broker_harness.h"
#include "support/log_capture.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;

int brokers(const char* command) {
  std::string line = std::string(DROMEDARY_SOURCE_DIR) + "/scripts/amqp-brokers.sh " + command;
  return std::system(line.c_str());
}

// What RabbitMQ itself counts (this suite runs alone: no other test is connected).
int rabbitConnections() {
  std::string line =
      std::string(DROMEDARY_SOURCE_DIR) + "/scripts/amqp-brokers.sh rabbitmq-connections";
  FILE* out = ::popen(line.c_str(), "r");
  if (!out) return -1;
  int count = -1;
  if (std::fscanf(out, "%d", &count) != 1) count = -1;
  ::pclose(out);
  return count;
}

// The route's consumer problem once it has one (Context::routeConsumerProblem), or empty
// after `wait`.
std::string consumerProblemWithin(Context& context, const std::string& route,
                                  std::chrono::milliseconds wait) {
  auto end = std::chrono::steady_clock::now() + wait;
  std::string problem = context.routeConsumerProblem(route);
  while (problem.empty() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(20ms);
    problem = context.routeConsumerProblem(route);
  }
  return problem;
}

TEST(AmqpRestartTest, TheBrokersConnectionCountStaysConstantOverTenThousandRequests) {
  BrokerHarness h;
  std::string q = uniqueQueue("count");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).process([](Exchange&) {}); });
  std::string uri = "amqp:queue:" + q + "?replyTo=" + q + ".reply&replyToType=Exclusive";
  ASSERT_TRUE(h.producer.requestBody(uri, Value("first")));
  int before = rabbitConnections();
  EXPECT_EQ(before, 2);  // the producers' connection and the consumers'
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 10; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        if (!h.producer.requestBody(uri, Value(i))) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(rabbitConnections(), before);
  EXPECT_EQ(amqpConnectionCounts(h.context).opened, 2u);
}

TEST(AmqpRestartTest, AConsumedQueueTakenAwayIsConsumedAgainOnceItIsBack) {
  BrokerHarness h;
  AmqpConfig raw;  // no prefix: /amq/queue/NAME consumes a queue that must exist
  raw.remoteUri = rabbitUrl();
  raw.reconnectDelay = std::chrono::milliseconds(100);
  raw.maxReconnectDelay = std::chrono::milliseconds(400);
  registerAmqpComponent(h.context, "raw", raw);
  registerAmqpComponent(h.context, "again", raw);  // a sender link of its own declares anew
  std::string q = uniqueQueue("taken");
  ASSERT_TRUE(h.producer.sendBody("raw:queue:/queue/" + q, Value("first")));  // declares it
  h.start([&](RouteBuilder& b) {
    b.from("raw:queue:/amq/queue/" + q).routeId("taken").to("mock:out");
  });
  h.mock("mock:out").expectedBodiesReceived({Value("first")});
  ASSERT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  LogCapture log;
  setLogLevel(LoggingLevel::Info);
  ASSERT_EQ(brokers(("delete-queue " + q).c_str()), 0);
  // RabbitMQ drops the consumer's connection when the queue goes; after the reconnect the
  // link is refused (its session ended) until the queue is back: only the link is retried.
  for (int i = 0; i < 200 && log.find(LoggingLevel::Warn, "the broker ended the link").empty(); ++i) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_FALSE(log.find(LoggingLevel::Warn, "the broker ended the link").empty());
  EXPECT_THAT(consumerProblemWithin(h.context, "taken", 15s),
              ::testing::HasSubstr("0 of 1 receiver links to '/amq/queue/" + q + "' open"));
  ASSERT_TRUE(h.producer.sendBody("again:queue:/queue/" + q, Value("second")));  // back again
  h.mock("mock:out").expectedBodiesReceived({Value("first"), Value("second")});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  EXPECT_FALSE(log.find(LoggingLevel::Info, "consuming again").empty());
  EXPECT_EQ(h.context.routeConsumerProblem("taken"), "");
}

TEST(AmqpRestartTest, AConsumerIsReportedDownWhileItsBrokerIsAwayAndUpOnceItIsBack) {
  BrokerHarness h;
  std::string q = uniqueQueue("away");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).routeId("away").to("mock:out"); });
  EXPECT_EQ(h.context.routeConsumerProblem("away"), "");
  ASSERT_EQ(brokers("stop-rabbitmq"), 0);
  std::string problem = consumerProblemWithin(h.context, "away", 15s);
  ASSERT_EQ(brokers("start-rabbitmq"), 0);
  EXPECT_EQ(problem, "not connected to the broker at " + rabbitUrl() + " (reconnecting)");
  auto end = std::chrono::steady_clock::now() + 60s;
  while (!h.context.routeConsumerProblem("away").empty() &&
         std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(h.context.routeConsumerProblem("away"), "");
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("back")));
  h.mock("mock:out").expectedBodiesReceived({Value("back")});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
}

TEST(AmqpRestartTest, PersistentMessagesWaitingInAQueueSurviveABrokerRestart) {
  // RabbitMQ declares a queue when a link to it attaches; a non-durable one (what it makes
  // unless the link asks for a durable node) is gone after a restart, with its messages.
  BrokerHarness h;
  std::string q = uniqueQueue("waiting");
  h.start([&](RouteBuilder&) {});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value(i)));
  ASSERT_EQ(brokers("restart-rabbitmq"), 0);
  ASSERT_TRUE(
      h.context.addRoutes([&](RouteBuilder& b) { b.from("amqp:queue:" + q).to("mock:out"); }));
  h.mock("mock:out").expectedBodiesReceived({Value(0), Value(1), Value(2), Value(3), Value(4)});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(30s));
}

TEST(AmqpRestartTest, BrokerRestartMidStreamLosesNoPersistentMessage) {
  BrokerHarness h;
  std::string q = uniqueQueue("restart");
  std::mutex mutex;
  std::set<int64_t> seen;
  std::atomic<int64_t> processed{0};
  h.start([&](RouteBuilder& b) {
    // The sending route retries what the broker did not confirm, as a Camel route would.
    b.errorHandler(defaultErrorHandler().maximumRedeliveries(200).redeliveryDelay(100ms));
    b.from("direct:send").to("amqp:queue:" + q + "?requestTimeout=5000");
    b.from("amqp:queue:" + q).process([&](Exchange& ex) {
      std::lock_guard lock(mutex);
      seen.insert(ex.message().body().as<int64_t>());
      processed.fetch_add(1);
    });
  });
  constexpr int64_t kCount = 400;
  std::atomic<int> send_failures{0};
  std::thread sender([&] {
    for (int64_t i = 0; i < kCount; ++i) {
      if (!h.producer.sendBody("direct:send", Value(i))) ++send_failures;
      std::this_thread::sleep_for(5ms);
    }
  });
  std::this_thread::sleep_for(500ms);
  ASSERT_EQ(brokers("restart-rabbitmq"), 0);
  sender.join();
  auto end = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < end) {
    {
      std::lock_guard lock(mutex);
      if (static_cast<int64_t>(seen.size()) == kCount) break;
    }
    std::this_thread::sleep_for(50ms);
  }
  std::lock_guard lock(mutex);
  EXPECT_EQ(send_failures.load(), 0);
  EXPECT_EQ(static_cast<int64_t>(seen.size()), kCount);  // every one, at least once
  int64_t sum = 0;
  for (int64_t v : seen) sum += v;
  EXPECT_EQ(sum, kCount * (kCount - 1) / 2);
  EXPECT_GE(processed.load(), kCount);
}

}  // namespace
}  // namespace dromedary::testing
