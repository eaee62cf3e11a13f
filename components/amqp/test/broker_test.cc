// SPDX-License-Identifier: Apache-2.0
// The amqp component against real brokers on loopback: RabbitMQ (AMQP 1.0 plugin) and Qpid
// Proton's example broker for temporary reply queues. CTest starts both (amqp_brokers).
#include <atomic>
#include <thread>

#include <fmt/format.h>
#include <gmock/gmock.h>

#include <dromedary/dsl/route_loader.h>

#include "broker_harness.h"
#include "support/eventually.h"
#include "support/busy_workers.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void uppercaseBody(Exchange& ex) {
  ex.message().setBody(upper(ex.message().body().as<std::string>()));
}

TEST(AmqpBrokerTest, OneWayMessagesReachTheConsumerRouteInOrder) {
  BrokerHarness h;
  std::string q = uniqueQueue("oneway");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).to("mock:out"); });
  std::vector<Value> expected;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value(fmt::format("m{}", i))));
    expected.emplace_back(fmt::format("m{}", i));
  }
  h.mock("mock:out").expectedBodiesReceived(expected);
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
}

TEST(AmqpBrokerTest, RequestReplyOverATemporaryReplyQueue) {
  BrokerHarness h;
  std::string q = uniqueQueue("temp");
  h.start([&](RouteBuilder& b) { b.from("amqpp:queue:" + q).process(uppercaseBody); });
  for (int i = 0; i < 5; ++i) {
    auto reply = h.producer.requestBody("amqpp:queue:" + q, Value(fmt::format("hello{}", i)));
    ASSERT_TRUE(reply) << reply.error().toString();
    EXPECT_EQ(*reply, Value(fmt::format("HELLO{}", i)));
  }
}

TEST(AmqpBrokerTest, RequestReplyOverAnExclusiveReplyQueue) {
  BrokerHarness h;
  std::string q = uniqueQueue("excl");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).process(uppercaseBody); });
  std::string uri = "amqp:queue:" + q + "?replyTo=" + q + ".reply&replyToType=Exclusive";
  for (int i = 0; i < 5; ++i) {
    auto reply = h.producer.requestBody(uri, Value(fmt::format("abc{}", i)));
    ASSERT_TRUE(reply) << reply.error().toString();
    EXPECT_EQ(*reply, Value(fmt::format("ABC{}", i)));
  }
}

TEST(AmqpBrokerTest, TemporaryReplyQueueOnRabbitMqFailsWithAHint) {
  BrokerHarness h;
  std::string q = uniqueQueue("notemp");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).process(uppercaseBody); });
  auto reply = h.producer.requestBody("amqp:queue:" + q + "?requestTimeout=5000", Value("x"));
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().toString(), HasSubstr("replyTo=NAME"));
  // The refusal ended only the reply queue's session: the connection and its links stay.
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("still connected")));
  EXPECT_EQ(amqpConnectionCounts(h.context).opened, 2u);
}

// Ten threads at once, each checking every reply is the answer to its own request.
void concurrentRequesters(BrokerHarness& h, const std::string& uri, int threads, int each) {
  std::atomic<int> mismatches{0}, failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < each; ++i) {
        std::string body = fmt::format("t{}-{}", t, i);
        auto reply = h.producer.requestBody(uri, Value(body));
        if (!reply) {
          ++failures;
        } else if (*reply != Value(upper(body))) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& t : pool) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(AmqpBrokerTest, TenConcurrentRequestersGetTheirOwnReplies) {
  BrokerHarness h;
  std::string q = uniqueQueue("conc");
  h.start([&](RouteBuilder& b) {
    b.from("amqp:queue:" + q + "?concurrentConsumers=3").process(uppercaseBody);
    b.from("amqpp:queue:" + q).process(uppercaseBody);
  });
  concurrentRequesters(h, "amqp:queue:" + q + "?replyTo=" + q + ".r&replyToType=Exclusive", 10,
                       30);
  concurrentRequesters(h, "amqpp:queue:" + q, 10, 30);
}

TEST(AmqpBrokerTest, ARequestWithoutAReplyTimesOutNamingTheCorrelationId) {
  BrokerHarness h;
  std::string q = uniqueQueue("timeout");
  h.start([](RouteBuilder&) {});
  auto started = std::chrono::steady_clock::now();
  auto reply = h.producer.requestBody("amqpp:queue:" + q + "?requestTimeout=300", Value("x"));
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::Timeout);
  EXPECT_THAT(reply.error().toString(), HasSubstr("correlation id"));
  EXPECT_THAT(reply.error().toString(), HasSubstr("amqpp:queue:" + q));
  EXPECT_GE(took, 250ms);
}

TEST(AmqpBrokerTest, HeadersAndBodyTypesRoundTrip) {
  BrokerHarness h;
  std::string q = uniqueQueue("types");
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).to("mock:out"); });
  Headers headers{{"count", Value(42)},
                  {"ratio", Value(1.5)},
                  {"ok", Value(true)},
                  {"name", Value("n")},
                  {"CamelInternal", Value("not sent")}};
  Value body(ValueMap{{"id", Value(7)}, {"tags", Value(ValueList{Value("a"), Value("b")})}});
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("amqp:queue:" + q, body, headers));
  h.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  auto got = h.mock("mock:out").receivedExchanges().at(0);
  const Message& m = got->message();
  EXPECT_EQ(m.body(), body);
  EXPECT_EQ(*m.getHeader("count"), Value(42));
  EXPECT_EQ(*m.getHeader("ratio"), Value(1.5));
  EXPECT_EQ(*m.getHeader("ok"), Value(true));
  EXPECT_EQ(*m.getHeader("name"), Value("n"));
  EXPECT_EQ(m.getHeader("CamelInternal"), nullptr);
  EXPECT_NE(m.getHeader("JMSMessageID"), nullptr);
  EXPECT_EQ(*m.getHeader("JMSDeliveryMode"), Value(2));
}

TEST(AmqpBrokerTest, AFailedConsumerExchangeIsNotAcknowledgedAndComesBack) {
  BrokerHarness h;
  std::string q = uniqueQueue("redeliver");
  std::atomic<int> attempts{0};
  h.start([&](RouteBuilder& b) {
    b.from("amqp:queue:" + q).routeId("consumer")
        .process([&](Exchange&) {
          if (attempts.fetch_add(1) == 0) throw std::runtime_error("first attempt fails");
        })
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("once")));
  h.mock("mock:out").expectedBodiesReceived({Value("once")});
  ASSERT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  EXPECT_EQ(attempts.load(), 2);
  auto got = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(*got->message().getHeader("JMSRedelivered"), Value(true));
  RouteStats s = *h.context.routeStatistics("consumer");
  EXPECT_EQ(s.exchangesTotal, 2u);
  EXPECT_EQ(s.externalRedeliveries, 1u) << "the second delivery was the broker's redelivery";
}

// A graceful stop waits for the exchange in the route and acknowledges it: the broker does not
// deliver it again to the next consumer (it was processed). Before, the stop closed the link at
// once, the late acknowledgement went nowhere and the message came back.
TEST(AmqpBrokerTest, AGracefulStopAcknowledgesTheExchangeItWaitedFor) {
  std::string q = uniqueQueue("graceful");
  {
    BrokerHarness first;
    std::atomic<bool> entered{false};
    first.start([&](RouteBuilder& b) {
      b.from("amqp:queue:" + q)
          .process([&](Exchange&) { entered = true; })
          .delay(800ms)
          .to("mock:first");
    });
    ASSERT_TRUE(first.producer.sendBody("amqp:queue:" + q, Value("in flight at the stop")));
    ASSERT_TRUE(eventually([&] { return entered.load(); }, 3s));
    // Two more, prefetched behind it: not started by a stopping consumer, and not lost.
    ASSERT_TRUE(first.producer.sendBody("amqp:queue:" + q, Value("waiting 1")));
    ASSERT_TRUE(first.producer.sendBody("amqp:queue:" + q, Value("waiting 2")));
    StopReport report = first.context.stop();
    EXPECT_TRUE(report.graceful);
    EXPECT_EQ(first.mock("mock:first").receivedBodies(),
              std::vector<Value>{Value("in flight at the stop")});
  }
  BrokerHarness second;
  second.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).to("mock:second"); });
  ASSERT_TRUE(second.producer.sendBody("amqp:queue:" + q, Value("after")));
  second.mock("mock:second").expectedBodiesReceivedInAnyOrder(
      {Value("waiting 1"), Value("waiting 2"), Value("after")});
  auto ok = second.mock("mock:second").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
}

// Past the shutdown timeout the stop goes without the exchange: its link closes and the broker
// delivers the message again (at-least-once), to the next consumer.
TEST(AmqpBrokerTest, AnExchangeOutlastingTheShutdownTimeoutIsDeliveredAgain) {
  std::string q = uniqueQueue("outlasting");
  {
    BrokerHarness first;
    first.context.setShutdownTimeout(500ms);
    std::atomic<bool> entered{false};
    first.start([&](RouteBuilder& b) {
      b.from("amqp:queue:" + q)
          .process([&](Exchange&) { entered = true; })
          .delay(3000ms)
          .to("mock:first");
    });
    ASSERT_TRUE(first.producer.sendBody("amqp:queue:" + q, Value("slow")));
    ASSERT_TRUE(eventually([&] { return entered.load(); }, 3s));
    const auto begin = std::chrono::steady_clock::now();
    StopReport report = first.context.stop();
    EXPECT_FALSE(report.graceful);
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 2500ms) << "the timeout did not hold";
  }
  BrokerHarness second;
  second.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).to("mock:second"); });
  second.mock("mock:second").expectedBodiesReceived({Value("slow")});
  auto ok = second.mock("mock:second").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
}

// Suspended with an exchange in flight and messages waiting, then resumed: each message is
// processed once (the one in flight acknowledged at the suspend, the others after the resume).
TEST(AmqpBrokerTest, ASuspendAndResumeProcessesEachMessageOnce) {
  BrokerHarness h;
  std::string q = uniqueQueue("suspend");
  std::atomic<bool> entered{false};
  h.start([&](RouteBuilder& b) {
    b.from("amqp:queue:" + q).routeId("suspended")
        .process([&](Exchange&) { entered = true; })
        .delay(300ms)
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("m0")));
  ASSERT_TRUE(eventually([&] { return entered.load(); }, 3s));
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("m1")));
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("m2")));
  auto suspended = h.context.suspendRoute("suspended");
  ASSERT_TRUE(suspended) << suspended.error().toString();
  EXPECT_TRUE(suspended->graceful);
  EXPECT_EQ(h.mock("mock:out").receivedBodies(), std::vector<Value>{Value("m0")});
  ASSERT_TRUE(h.context.resumeRoute("suspended"));
  h.mock("mock:out").expectedBodiesReceivedInAnyOrder({Value("m0"), Value("m1"), Value("m2")});
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
  std::this_thread::sleep_for(500ms);  // nothing comes twice
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 3u);
}

TEST(AmqpBrokerTest, TransferExceptionFailsTheRequesterWithTheRemoteError) {
  BrokerHarness h;
  std::string q = uniqueQueue("transfer");
  h.start([&](RouteBuilder& b) {
    b.from("amqpp:queue:" + q + "?transferException=true").process([](Exchange&) {
      throw std::runtime_error("remote says no");
    });
  });
  auto reply =
      h.producer.requestBody("amqpp:queue:" + q + "?transferException=true", Value("x"));
  ASSERT_FALSE(reply);
  EXPECT_THAT(reply.error().toString(), HasSubstr("remote says no"));
}

TEST(AmqpBrokerTest, ConnectionsAreReusedOverTenThousandRequests) {
  BrokerHarness h;
  std::string q = uniqueQueue("reuse");
  h.start([&](RouteBuilder& b) { b.from("amqpp:queue:" + q).process(uppercaseBody); });
  concurrentRequesters(h, "amqpp:queue:" + q, 10, 1000);
  AmqpConnectionCounts counts = amqpConnectionCounts(h.context, "amqpp");
  EXPECT_EQ(counts.opened, 2u);  // one for producers, one for consumers, each opened once
  EXPECT_EQ(counts.open, 2u);
}

TEST(AmqpBrokerTest, ATopicReachesEverySubscriber) {
  BrokerHarness h;
  std::string t = uniqueQueue("topic");
  h.start([&](RouteBuilder& b) {
    b.from("amqp:topic:" + t).to("mock:a");
    b.from("amqp:topic:" + t).to("mock:b");
  });
  ASSERT_TRUE(h.producer.sendBody("amqp:topic:" + t, Value("news")));
  h.mock("mock:a").expectedBodiesReceived({Value("news")});
  h.mock("mock:b").expectedBodiesReceived({Value("news")});
  EXPECT_TRUE(h.mock("mock:a").assertIsSatisfied(15s));
  EXPECT_TRUE(h.mock("mock:b").assertIsSatisfied(15s));
}

TEST(AmqpBrokerTest, ARouteWithAnAmqpStepInTheMiddleContinuesWithTheReply) {
  BrokerHarness h;
  std::string q = uniqueQueue("middle");
  h.start([&](RouteBuilder& b) {
    b.from("amqpp:queue:" + q).process(uppercaseBody);
    b.from("direct:start").to("amqpp:queue:" + q + "?exchangePattern=InOut").to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", Value("mid")));
  h.mock("mock:out").expectedBodiesReceived({Value("MID")});
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
}

TEST(AmqpBrokerTest, AnAddressTheBrokerRefusesFailsTheExchangeNamingIt) {
  BrokerHarness h;
  AmqpConfig raw;  // no prefix: the address is used as written
  raw.remoteUri = rabbitUrl();
  registerAmqpComponent(h.context, "raw", raw);
  h.start([](RouteBuilder&) {});
  auto sent = h.producer.sendBody("raw:queue:/exchange/no-such-exchange/key?requestTimeout=10000",
                                  Value("x"));
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().toString(), HasSubstr("refused a sender to '/exchange/no-such-exchange/key'"));
  // The next message tries again (and is refused again), rather than waiting for ever.
  EXPECT_FALSE(h.producer.sendBody("raw:queue:/exchange/no-such-exchange/key", Value("y")));
  // Only the sender's own session ended: a good address goes on on the same connection.
  std::string q = uniqueQueue("refused-beside");
  EXPECT_TRUE(h.producer.sendBody("raw:queue:/queue/" + q, Value("z")));
  EXPECT_EQ(amqpConnectionCounts(h.context, "raw").opened, 1u);
}

TEST(AmqpBrokerTest, AQueueOfOtherDurabilityIsRefusedWithTheBrokersReason) {
  BrokerHarness h;  // durable queues (the default)
  AmqpConfig transient;
  transient.remoteUri = rabbitUrl();
  transient.queuePrefix = "/queue/";
  transient.durableQueues = false;
  registerAmqpComponent(h.context, "transient", transient);
  h.start([](RouteBuilder&) {});
  std::string q = uniqueQueue("durability");
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("declares it durable")));
  auto sent = h.producer.sendBody("transient:queue:" + q, Value("x"));
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().toString(), HasSubstr("refused a sender to '/queue/" + q + "'"));
  EXPECT_THAT(sent.error().toString(), HasSubstr("durable"));
}

TEST(AmqpBrokerTest, AConsumerTheBrokerRefusesFailsItsRouteAndDisturbsNoOtherLink) {
  BrokerHarness h;
  AmqpConfig raw;  // no prefix: the address is used as written
  raw.remoteUri = rabbitUrl();
  registerAmqpComponent(h.context, "raw", raw);
  std::string q = uniqueQueue("beside");
  h.start([&](RouteBuilder& b) {
    b.from("raw:queue:/queue/" + q).to("mock:ok");
    b.from("raw:queue:/amq/queue/no-such-queue").routeId("refused").autoStartup(false)
        .to("mock:never");
  });
  auto started = h.context.startRoute("refused");
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().toString(), HasSubstr("consume from '/amq/queue/no-such-queue'"));
  // The refusal ended the refused link's own session only: the other consumer goes on, on
  // the same connection, which was never re-opened.
  ASSERT_TRUE(h.producer.sendBody("raw:queue:/queue/" + q, Value("still here")));
  h.mock("mock:ok").expectedBodiesReceived({Value("still here")});
  EXPECT_TRUE(h.mock("mock:ok").assertIsSatisfied(15s));
  EXPECT_EQ(amqpConnectionCounts(h.context, "raw").opened, 2u);
  EXPECT_EQ(h.context.routeStatus("refused"), RouteStatus::Stopped);
}

TEST(AmqpBrokerTest, ToWithInOutAsksAndTheRouteGoesOnInOnly) {
  BrokerHarness h;
  std::string q = uniqueQueue("pattern");
  h.start([&](RouteBuilder& b) {
    b.from("amqpp:queue:" + q).process(uppercaseBody);
    b.from("direct:start").to(Pattern::InOut, "amqpp:queue:" + q).to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:start", Value("ask")));
  h.mock("mock:out").expectedBodiesReceived({Value("ASK")});
  ASSERT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[0]->pattern(), Pattern::InOnly);
}

// --- routes that cannot block run on the connection's thread ---

// A processor that says it returns promptly (Processor::mayBlock false): it fails its first
// `failures` calls, counting them.
class PromptFlaky final : public Processor {
 public:
  explicit PromptFlaky(int failures) : failures_(failures) {}
  Status process(Exchange& ex) override {
    if (calls_.fetch_add(1) < failures_) {
      throw std::runtime_error("not yet: " + ex.message().body().as<std::string>());
    }
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }
  int calls() const { return calls_.load(); }

 private:
  const int failures_;
  std::atomic<int> calls_{0};
};

TEST(AmqpBrokerTest, ARouteThatCannotBlockIsConsumedWhileEveryWorkerIsBusy) {
  BrokerHarness h;
  h.context.setWorkerThreads(1);
  std::string quick = uniqueQueue("inline");
  std::string slow = uniqueQueue("onworker");
  h.start([&](RouteBuilder& b) {
    b.from("amqp:queue:" + quick).setBody(simple("${body}!")).to("mock:quick");
    b.from("amqp:queue:" + slow).process([](Exchange&) {}).to("mock:slow");  // may block
  });
  BusyWorkers busy(h.context, 1);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + quick, Value(fmt::format("q{}", i))));
  }
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + slow, Value("s")));
  h.mock("mock:quick").expectedBodiesReceived(
      {Value("q0!"), Value("q1!"), Value("q2!"), Value("q3!"), Value("q4!")});
  auto ok = h.mock("mock:quick").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
  // The other route's message waits for a worker.
  EXPECT_EQ(h.mock("mock:slow").receivedCount(), 0u);
  busy.release();
  h.mock("mock:slow").expectedBodiesReceived({Value("s")});
  EXPECT_TRUE(h.mock("mock:slow").assertIsSatisfied(15s));
}

TEST(AmqpBrokerTest, ARequestReplyInTheMiddleOfARouteThatCannotBlockNeedsNoWorker) {
  // The front route asks the back route over the broker and goes on with the reply: the reply
  // resumes it on the connection's thread, since nothing after the request can block.
  BrokerHarness h;
  h.context.setWorkerThreads(1);
  std::string front = uniqueQueue("front");
  std::string back = uniqueQueue("back");
  h.start([&](RouteBuilder& b) {
    b.from("amqpp:queue:" + front)
        .to("amqpp:queue:" + back + "?exchangePattern=InOut")
        .setBody(simple("${body}!"))
        .to("mock:out");
    b.from("amqpp:queue:" + back).transform(simple("${body}-back"));
  });
  BusyWorkers busy(h.context, 1);
  ASSERT_TRUE(h.producer.sendBody("amqpp:queue:" + front, Value("x")));
  h.mock("mock:out").expectedBodiesReceived({Value("x-back!")});
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
}

TEST(AmqpBrokerTest, ARouteThatCannotBlockRepliesToRequests) {
  BrokerHarness h;
  std::string q = uniqueQueue("inlinereply");
  h.start([&](RouteBuilder& b) { b.from("amqpp:queue:" + q).transform(simple("${body}-reply")); });
  for (int i = 0; i < 5; ++i) {
    auto reply = h.producer.requestBody("amqpp:queue:" + q, Value(fmt::format("r{}", i)));
    ASSERT_TRUE(reply) << reply.error().toString();
    EXPECT_EQ(*reply, Value(fmt::format("r{}-reply", i)));
  }
}

TEST(AmqpBrokerTest, AFailedInlineExchangeIsNotAcknowledgedAndComesBack) {
  BrokerHarness h;
  std::string q = uniqueQueue("inlinefail");
  auto flaky = std::make_shared<PromptFlaky>(1);
  h.start([&](RouteBuilder& b) { b.from("amqp:queue:" + q).process(flaky).to("mock:out"); });
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value("once")));
  h.mock("mock:out").expectedBodiesReceived({Value("once")});
  ASSERT_TRUE(h.mock("mock:out").assertIsSatisfied(15s));
  EXPECT_EQ(flaky->calls(), 2);
  auto got = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(*got->message().getHeader("JMSRedelivered"), Value(true));
}

TEST(AmqpBrokerTest, AnInlineExchangeWaitingForARedeliveryHoldsTheNextMessagesInOrder) {
  // The redelivery delay parks the first exchange on a timer: the connection's thread goes
  // on, the messages after it wait in the link's backlog, and all settle in order.
  BrokerHarness h;
  std::string q = uniqueQueue("inlinedelay");
  auto flaky = std::make_shared<PromptFlaky>(2);
  h.start([&](RouteBuilder& b) {
    b.from("amqp:queue:" + q)
        .errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(100ms))
        .process(flaky)
        .to("mock:out");
  });
  for (const char* body : {"a", "b", "c"}) {
    ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + q, Value(body)));
  }
  h.mock("mock:out").expectedBodiesReceived({Value("a"), Value("b"), Value("c")});
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
  EXPECT_EQ(flaky->calls(), 5);  // a three times, b and c once
  auto got = h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(*got->message().getHeader("CamelRedeliveryCounter"), Value(2));
}

// The jms-amqp-10 Kamelets, as Camel's catalogue names them, on a broker of their own (the
// endpoint's remoteURI: Qpid Proton's broker, while the component's is RabbitMQ).
TEST(AmqpBrokerTest, TheJmsAmqpKameletsCarryMessagesThroughTheirOwnBroker) {
  BrokerHarness h;
  std::string q = uniqueQueue("kamelet");
  auto loaded = loadYamlRoutes(h.context, fmt::format(R"(
- from:
    uri: "kamelet:jms-amqp-10-source?remoteURI={0}&destinationName={1}"
    steps: [{{to: mock:out}}]
- from:
    uri: direct:in
    steps:
      - to:
          uri: kamelet:jms-amqp-10-sink
          parameters: {{remoteURI: "{0}", destinationName: "{1}"}}
)", protonBrokerUrl(), q), "kamelets.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  auto started = h.context.start();
  ASSERT_TRUE(started) << started.error().toString();
  h.mock("mock:out").expectedBodiesReceived({Value("one"), Value("two")});
  ASSERT_TRUE(h.producer.sendBody("direct:in", "one"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "two"));
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
  EXPECT_EQ(amqpConnectionCounts(h.context).open, 2u) << "producer and consumer connections to Proton";
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

// Camel's JMS-named components on the AMQP 1.0 client: a route written for activemq: consumes
// what one written for jms: sends; activemq's brokerUrl (tcp://) is the same host and port
// spoken to in AMQP 1.0; sjms2:, given nothing, takes the amqp component's settings
// (RabbitMQ's, from BrokerHarness) and consumes what amqp: sends there.
TEST(JmsNamedComponentsTest, JmsActiveMqAndSjms2EndpointsTalkAmqp) {
  BrokerHarness h;
  std::string broker = protonBrokerUrl();
  h.context.properties().set("camel.component.activemq.brokerUrl",
                             "failover:(tcp://" + broker.substr(7) + ")?randomize=false");
  h.context.properties().set("camel.component.jms.remoteURI", broker);
  std::string q = uniqueQueue("jms");
  std::string rq = uniqueQueue("sjms2");
  h.start([&](RouteBuilder& b) {
    b.from("activemq:queue:" + q).to("mock:out");
    b.from("sjms2:queue:" + rq).to("mock:rabbit");
  });
  ASSERT_TRUE(h.producer.sendBody("jms:queue:" + q, Value("over jms")));
  h.mock("mock:out").expectedBodiesReceived({Value("over jms")});
  auto ok = h.mock("mock:out").assertIsSatisfied(15s);
  EXPECT_TRUE(ok) << ok.error().toString();
  ASSERT_TRUE(h.producer.sendBody("amqp:queue:" + rq, Value("over amqp")));
  h.mock("mock:rabbit").expectedBodiesReceived({Value("over amqp")});
  auto rabbit = h.mock("mock:rabbit").assertIsSatisfied(15s);
  EXPECT_TRUE(rabbit) << rabbit.error().toString();
}

TEST(JmsNamedComponentsTest, ABrokerUrlOfAnotherKindFailsTheStartNamingTheProperty) {
  RouteHarness h;
  h.context.properties().set("camel.component.activemq.brokerUrl", "vm://localhost");
  auto added = h.context.addRoutes([](RouteBuilder& b) { b.from("activemq:q").to("log:x"); });
  auto started = added ? h.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message,
              HasSubstr("camel.component.activemq.brokerUrl=vm://localhost is not a broker"));
}

}  // namespace
}  // namespace dromedary::testing
