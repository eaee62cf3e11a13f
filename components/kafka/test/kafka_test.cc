// SPDX-License-Identifier: Apache-2.0
// The kafka component against a Kafka protocol cluster on loopback (librdkafka's mock
// cluster, in this process): produce and consume with keys, partitions and headers;
// commits after completion; breakOnFirstError; seekTo; patterns; failures.
#include <gmock/gmock.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <dromedary/kafka/kafka.h>
#include <fmt/format.h>

#include "mock_cluster.h"
#include "support/eventually.h"
#include "support/log_capture.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

class KafkaTest : public ::testing::Test {
 protected:
  KafkaTest() : cluster(3) {}

  std::string uri(const std::string& topic, const std::string& options = {}) {
    return "kafka:" + topic + "?brokers=" + cluster.bootstrap() + (options.empty() ? "" : "&") +
           options;
  }
  std::string consumerUri(const std::string& topic, const std::string& group,
                          const std::string& options = {}) {
    return uri(topic, "groupId=" + group +
                          "&autoOffsetReset=earliest&pollTimeoutMs=100&sessionTimeoutMs=3000"
                          "&heartbeatIntervalMs=500" +
                          (options.empty() ? "" : "&" + options));
  }

  MockKafkaCluster cluster;
};

TEST_F(KafkaTest, ARecordSentIsConsumedWithItsKeyHeadersAndPlace) {
  cluster.createTopic("orders", 3);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("orders"));
    b.from(consumerUri("orders", "g1")).to("mock:got");
  });
  auto& got = h.mock("mock:got");
  got.expectedBodiesReceived({Value("order-1")});
  ASSERT_TRUE(h.producer.sendBodyAndHeaders(
      "direct:send", Value("order-1"),
      {{"kafka.KEY", Value("k1")}, {"trace", Value("t-9")}, {"CamelSecret", Value("no")},
       {"count", Value(int64_t{3})}}));
  ASSERT_TRUE(got.assertIsSatisfied(20s)) << "nothing consumed";
  auto ex = got.receivedExchanges().front();
  const Headers& headers = ex->message().headers();
  EXPECT_EQ(headers.get("kafka.KEY")->toString(), "k1");
  EXPECT_EQ(headers.get("kafka.TOPIC")->toString(), "orders");
  EXPECT_TRUE(headers.get("kafka.PARTITION")->isInt());
  EXPECT_EQ(headers.get("kafka.OFFSET")->getInt(), 0);
  EXPECT_TRUE(headers.get("kafka.TIMESTAMP")->isInt());
  EXPECT_EQ(headers.get("trace")->toString(), "t-9");
  EXPECT_EQ(headers.get("CamelSecret"), nullptr);  // Camel's headers stay inside
  EXPECT_EQ(headers.get("count")->toString(), std::string("\0\0\0\0\0\0\0\x03", 8));
}

TEST_F(KafkaTest, TheSendersExchangeGetsTheRecordsMetadata) {
  cluster.createTopic("meta", 2);
  RouteHarness h;
  h.start([&](RouteBuilder& b) { b.from("direct:send").to(uri("meta", "partitionKey=1")); });
  auto reply = h.producer.requestBody("direct:send", Value("x"));
  ASSERT_TRUE(reply) << reply.error().toString();
  Exchange ex(&h.context);
  ex.message().setBody("y");
  ex.message().setHeader("kafka.PARTITION_KEY", Value(int64_t{0}));
  ASSERT_TRUE(h.producer.send("direct:send", ex));
  const Value* meta = ex.message().headers().get("kafka.RECORD_META");
  ASSERT_NE(meta, nullptr);
  ASSERT_TRUE(meta->isList());
  const ValueMap& first = meta->getList().front().getMap();
  EXPECT_EQ(first[0].second.toString(), "meta");
  EXPECT_EQ(first[1].second.getInt(), 0);  // kafka.PARTITION_KEY over the option
  EXPECT_EQ(first[2].second.getInt(), 0);
}

// Sends are pooled with the metadata value they last made, and the next send fills it in
// place once no exchange holds it: a copy someone kept must never change under them.
TEST_F(KafkaTest, RecordMetadataKeptFromOneSendIsNotChangedByTheSendsAfterIt) {
  cluster.createTopic("kept", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) { b.from("direct:send").to(uri("kept")); });
  std::vector<Value> kept_lists, kept_records;
  for (int i = 0; i < 40; ++i) {
    Exchange ex(&h.context);
    ex.message().setBody(fmt::format("r{}", i));
    ASSERT_TRUE(h.producer.send("direct:send", ex));
    const Value* meta = ex.message().headers().get("kafka.RECORD_META");
    ASSERT_NE(meta, nullptr);
    ASSERT_EQ(meta->getList().size(), 1u);
    EXPECT_EQ(meta->getList()[0].mapGet("offset")->getInt(), i);
    // Every third keeps the whole list, every third one record of it, the rest nothing.
    if (i % 3 == 0) kept_lists.push_back(*meta);
    if (i % 3 == 1) kept_records.push_back(meta->getList()[0]);
  }
  // A batch after them: one list of three records, from pooled sends whose values are kept.
  Exchange batch(&h.context);
  batch.message().setBody(Value(ValueList{Value("a"), Value("b"), Value("c")}));
  ASSERT_TRUE(h.producer.send("direct:send", batch));
  const ValueList& records = batch.message().headers().get("kafka.RECORD_META")->getList();
  ASSERT_EQ(records.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(records[i].mapGet("offset")->getInt(), 40 + i);
  for (size_t k = 0; k < kept_lists.size(); ++k) {
    const Value& record = kept_lists[k].getList()[0];
    EXPECT_EQ(record.mapGet("offset")->getInt(), static_cast<int64_t>(3 * k)) << k;
    EXPECT_EQ(record.mapGet("topic")->getString(), "kept");
  }
  for (size_t k = 0; k < kept_records.size(); ++k) {
    EXPECT_EQ(kept_records[k].mapGet("offset")->getInt(), static_cast<int64_t>(3 * k + 1)) << k;
  }
}

TEST_F(KafkaTest, AListBodyIsSentAsOneRecordPerElement) {
  cluster.createTopic("batch", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("batch"));
    b.from(consumerUri("batch", "g")).to("mock:got");
  });
  auto& got = h.mock("mock:got");
  got.expectedBodiesReceived({Value("a"), Value("b"), Value("c")});
  Exchange ex(&h.context);
  ex.message().setBody(Value(ValueList{Value("a"), Value("b"), Value("c")}));
  ASSERT_TRUE(h.producer.send("direct:send", ex));
  EXPECT_EQ(ex.message().headers().get("kafka.RECORD_META")->getList().size(), 3u);
  EXPECT_TRUE(got.assertIsSatisfied(20s));
}

// A text body is sent from where it is (the exchange waits for the report); a number's or a
// map's text is made in a buffer the next record reuses, so each of those is copied.
TEST_F(KafkaTest, RecordsMadeFromNumbersAndMapsKeepTheirOwnText) {
  cluster.createTopic("texts", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("texts"));
    b.from(consumerUri("texts", "g")).to("mock:got");
  });
  auto& got = h.mock("mock:got");
  got.expectedBodiesReceived({Value("1"), Value("22"), Value("{\"a\":333}"), Value("text")});
  Exchange ex(&h.context);
  ex.message().setBody(Value(ValueList{Value(int64_t{1}), Value(int64_t{22}),
                                       Value(ValueMap{{"a", Value(int64_t{333})}}),
                                       Value("text")}));
  ASSERT_TRUE(h.producer.send("direct:send", ex));
  EXPECT_TRUE(got.assertIsSatisfied(20s));
}

TEST_F(KafkaTest, OverrideTopicSendsElsewhereAndIsRemoved) {
  cluster.createTopic("a", 1);
  cluster.createTopic("b", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("a")).to("mock:after");
    b.from(consumerUri("b", "g")).to("mock:b");
  });
  h.mock("mock:b").expectedBodiesReceived({Value("to-b")});
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:send", Value("to-b"), "kafka.OVERRIDE_TOPIC",
                                           Value("b")));
  EXPECT_TRUE(h.mock("mock:b").assertIsSatisfied(20s));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges().front()->message().headers().get(
                "kafka.OVERRIDE_TOPIC"),
            nullptr);
}

TEST_F(KafkaTest, RecordsOfOnePartitionAreProcessedInOrderOneAtATime) {
  cluster.createTopic("seq", 1);
  RouteHarness h;
  std::atomic<int> running{0}, most{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("seq"));
    b.from(consumerUri("seq", "g"))
        .process([&](Exchange&) {
          int now = ++running;
          most = std::max(most.load(), now);
        })
        .delay(constant(int64_t{5}))
        .process([&](Exchange&) { --running; })
        .to("mock:got");
  });
  std::vector<Value> bodies;
  for (int i = 0; i < 20; ++i) bodies.emplace_back(std::to_string(i));
  h.mock("mock:got").expectedBodiesReceived(bodies);
  for (const Value& body : bodies) ASSERT_TRUE(h.producer.sendBody("direct:send", body));
  EXPECT_TRUE(h.mock("mock:got").assertIsSatisfied(30s));
  EXPECT_EQ(most.load(), 1);
}

// The committed offset of `group` on partition 0 of `topic`, as another member sees it.
int64_t committed(const std::string& bootstrap, const std::string& topic,
                  const std::string& group) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof error);
  rd_kafka_conf_set(conf, "group.id", group.c_str(), error, sizeof error);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), 0);
  rd_kafka_committed(rk, list, 10000);
  int64_t offset = list->elems[0].offset;
  rd_kafka_topic_partition_list_destroy(list);
  rd_kafka_destroy(rk);
  return offset;
}

TEST_F(KafkaTest, OffsetsAreCommittedOnlyForCompletedExchanges) {
  cluster.createTopic("work", 1);
  RouteHarness h;
  std::atomic<bool> release{false};
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("work"));
    b.from(consumerUri("work", "g", "autoCommitIntervalMs=100"))
        .process([&](Exchange& ex) {
          if (ex.message().body().toString() == "3") {
            while (!release) std::this_thread::sleep_for(10ms);
          }
        })
        .to("mock:got");
  });
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(h.producer.sendBody("direct:send", Value(std::to_string(i))));
  h.mock("mock:got").expectedMessageCount(3);
  ASSERT_TRUE(h.mock("mock:got").assertIsSatisfied(20s));
  std::this_thread::sleep_for(500ms);  // several auto-commit intervals
  EXPECT_EQ(committed(cluster.bootstrap(), "work", "g"), 3);  // 0..2 done, 3 in flight
  release = true;
  h.mock("mock:got").expectedMessageCount(6);
  ASSERT_TRUE(h.mock("mock:got").assertIsSatisfied(20s));
  h.context.stop();  // commits on stop
  EXPECT_EQ(committed(cluster.bootstrap(), "work", "g"), 6);
}

TEST_F(KafkaTest, AFailedExchangeUnderRedeliveryLosesNothing) {
  cluster.createTopic("retry", 3);
  RouteHarness h;
  std::mutex mutex;
  std::set<int> failed_once;
  h.start([&](RouteBuilder& b) {
    b.errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(1ms));
    b.from("direct:send").to(uri("retry"));
    b.from(consumerUri("retry", "g"))
        .process([&](Exchange& ex) {
          // Every 7th record fails its first attempt.
          int n = std::stoi(ex.message().body().toString());
          std::lock_guard lock(mutex);
          if (n % 7 == 0 && failed_once.insert(n).second) throw std::runtime_error("flaky");
        })
        .to("mock:got");
  });
  std::vector<Value> bodies;
  for (int i = 0; i < 100; ++i) bodies.emplace_back(std::to_string(i));
  h.mock("mock:got").expectedBodiesReceivedInAnyOrder(bodies);
  for (const Value& body : bodies) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:send", body, "kafka.KEY", body));
  }
  EXPECT_TRUE(h.mock("mock:got").assertIsSatisfied(30s));
  std::lock_guard lock(mutex);
  EXPECT_EQ(failed_once.size(), 15u);  // 0, 7, ... 98: each failed once, then went through
}

TEST_F(KafkaTest, BreakOnFirstErrorConsumesTheFailedRecordAgain) {
  cluster.createTopic("poison", 1);
  RouteHarness h;
  std::atomic<int> failures{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("poison"));
    b.from(consumerUri("poison", "g", "breakOnFirstError=true"))
        .process([&](Exchange& ex) {
          if (ex.message().body().toString() == "b" && ++failures <= 2) {
            throw std::runtime_error("not yet");
          }
        })
        .to("mock:got");
  });
  h.mock("mock:got").expectedBodiesReceived({Value("a"), Value("b"), Value("c")});
  for (const char* body : {"a", "b", "c"}) ASSERT_TRUE(h.producer.sendBody("direct:send", body));
  EXPECT_TRUE(h.mock("mock:got").assertIsSatisfied(30s));
  EXPECT_EQ(failures.load(), 3);
}

TEST_F(KafkaTest, SeekToBeginningReadsWhatTheGroupHadCommitted) {
  cluster.createTopic("replay", 1);
  {
    RouteHarness h;
    h.start([&](RouteBuilder& b) {
      b.from("direct:send").to(uri("replay"));
      b.from(consumerUri("replay", "g")).to("mock:got");
    });
    h.mock("mock:got").expectedMessageCount(2);
    ASSERT_TRUE(h.producer.sendBody("direct:send", "1"));
    ASSERT_TRUE(h.producer.sendBody("direct:send", "2"));
    ASSERT_TRUE(h.mock("mock:got").assertIsSatisfied(20s));
  }
  RouteHarness again;
  again.start([&](RouteBuilder& b) {
    b.from(consumerUri("replay", "g", "seekTo=beginning")).to("mock:got");
  });
  again.mock("mock:got").expectedBodiesReceived({Value("1"), Value("2")});
  EXPECT_TRUE(again.mock("mock:got").assertIsSatisfied(20s));
}

TEST_F(KafkaTest, APatternSubscribesToEveryMatchingTopic) {
  cluster.createTopic("events.eu", 1);
  cluster.createTopic("events.us", 1);
  cluster.createTopic("other", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:eu").to(uri("events.eu"));
    b.from("direct:us").to(uri("events.us"));
    b.from("direct:other").to(uri("other"));
    b.from(consumerUri("events\\..*", "g", "topicIsPattern=true")).to("mock:got");
  });
  auto& got = h.mock("mock:got");
  got.expectedBodiesReceivedInAnyOrder({Value("eu"), Value("us")});
  // Sent until both arrive: the subscription finds new topics on its metadata refresh.
  ASSERT_TRUE(h.producer.sendBody("direct:eu", "eu"));
  ASSERT_TRUE(h.producer.sendBody("direct:us", "us"));
  ASSERT_TRUE(h.producer.sendBody("direct:other", "other"));
  EXPECT_TRUE(got.assertIsSatisfied(30s));
}

TEST_F(KafkaTest, ManualCommitCommitsWhatTheRouteSays) {
  cluster.createTopic("manual", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("manual"));
    b.from(consumerUri("manual", "g", "autoCommitEnable=false&allowManualCommit=true"))
        .process([](Exchange& ex) {
          const KafkaManualCommit* commit = kafkaManualCommit(ex);
          if (!commit) throw std::runtime_error("no KafkaManualCommit");
          if (ex.message().body().toString() == "2") commit->commit().value();
        })
        .to("mock:got");
  });
  h.mock("mock:got").expectedMessageCount(4);
  for (int i = 1; i <= 4; ++i) ASSERT_TRUE(h.producer.sendBody("direct:send", Value(std::to_string(i))));
  ASSERT_TRUE(h.mock("mock:got").assertIsSatisfied(20s));
  h.context.stop();
  EXPECT_EQ(committed(cluster.bootstrap(), "manual", "g"), 2);  // after "2" (offset 1)
  // A KafkaManualCommit kept past its consumer says so instead of committing.
  auto kept = h.mock("mock:got").receivedExchanges().back();
  auto late = kafkaManualCommit(*kept)->commit();
  ASSERT_FALSE(late);
  EXPECT_THAT(late.error().message, AllOf(HasSubstr("manual[0]@3"), HasSubstr("has stopped")));
}

TEST_F(KafkaTest, ASlowRouteTakesABigBatchAPartitionAtATimeLosingNothing) {
  // 150 records per partition wait in librdkafka's queue for their partition; the member
  // takes at most maxPollRecords of a partition in a row.
  cluster.createTopic("slow", 2);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("slow"));
    b.from(consumerUri("slow", "g", "maxPollRecords=5"))
        .delay(constant(int64_t{2}))
        .to("mock:got");
  });
  std::vector<Value> bodies;
  for (int i = 0; i < 300; ++i) bodies.emplace_back(std::to_string(i));
  h.mock("mock:got").expectedBodiesReceivedInAnyOrder(bodies);
  Exchange batch(&h.context);
  batch.message().setBody(Value(ValueList(bodies)));  // one send, 300 records
  ASSERT_TRUE(h.producer.send("direct:send", batch));
  EXPECT_TRUE(h.mock("mock:got").assertIsSatisfied(60s));
}

TEST_F(KafkaTest, ConsumersCountMembersShareThePartitions) {
  cluster.createTopic("shared", 4);
  RouteHarness h;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("shared"));
    b.from(consumerUri("shared", "g", "consumersCount=2"))
        .process([&](Exchange&) {
          std::lock_guard lock(mutex);
          threads.insert(std::this_thread::get_id());
        })
        .to("mock:got");
  });
  // The second member may join after the first has taken every partition and consumed what
  // was there (a busy machine): records are sent 40 at a time until both members have run
  // some, each on its own thread. At least once: a commit refused while the two members
  // rebalance makes the records after the last commit come again, so every body must arrive,
  // some maybe twice.
  auto threadCount = [&] {
    std::lock_guard lock(mutex);
    return threads.size();
  };
  int sent = 0;
  std::set<std::string> bodies;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    for (int i = 0; i < 40; ++i, ++sent) {
      ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:send", Value(std::to_string(sent)),
                                               "kafka.KEY", Value(std::to_string(sent))));
    }
    while (std::chrono::steady_clock::now() < deadline) {
      bodies.clear();
      for (const Value& body : h.mock("mock:got").receivedBodies()) {
        bodies.insert(body.toString());
      }
      if (bodies.size() >= static_cast<size_t>(sent)) break;
      std::this_thread::sleep_for(50ms);
    }
    if (threadCount() >= 2) break;
  }
  EXPECT_EQ(bodies.size(), static_cast<size_t>(sent)) << "every body sent arrived";
  EXPECT_EQ(threadCount(), 2u) << "each member runs its records on its own thread";
}

// Two members of group "g" on a 4-partition topic: the first takes all partitions and is
// consuming (20 ms a record) when the second joins, and records keep coming. Counts how many
// times each of the 200 bodies was seen.
class KafkaHandoverTest : public KafkaTest {
 protected:
  std::map<std::string, int> run(const std::string& options) {
    cluster.createTopic("handover", 4);
    std::mutex mutex;
    std::map<std::string, int> seen;
    auto count = [&](Exchange& ex) {
      std::lock_guard lock(mutex);
      ++seen[ex.message().body().toString()];
    };
    auto seenCount = [&] {
      std::lock_guard lock(mutex);
      return seen.size();
    };
    auto waitFor = [&](size_t n) {
      auto deadline = std::chrono::steady_clock::now() + 60s;
      while (seenCount() < n && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
      }
    };
    RouteHarness first, second;
    first.start([&](RouteBuilder& b) {
      b.from("direct:send").to(uri("handover"));
      b.from(consumerUri("handover", "g", options)).delay(constant(int64_t{20})).process(count);
    });
    auto send = [&](int from, int to) {
      for (int i = from; i < to; ++i) {
        ASSERT_TRUE(first.producer.sendBodyAndHeader("direct:send", Value(std::to_string(i)),
                                                     "kafka.KEY", Value(std::to_string(i))));
      }
    };
    send(0, 100);
    waitFor(10);  // the first member owns the partitions and is at work
    second.start([&](RouteBuilder& b) {
      b.from(consumerUri("handover", "g", options)).delay(constant(int64_t{20})).process(count);
    });
    send(100, 200);
    waitFor(200);
    std::lock_guard lock(mutex);
    return seen;
  }

  static int duplicates(const std::map<std::string, int>& seen) {
    int n = 0;
    for (const auto& [body, times] : seen) n += times - 1;
    return n;
  }
};

TEST_F(KafkaHandoverTest, AMemberJoiningMidStreamCausesNoDuplicates) {
  // Cooperative rebalancing: the first member learns which partitions it gives up once the
  // group is stable again; it lets their exchanges finish and commits them before giving them
  // up, so the second starts after them.
  auto seen = run("partitionAssignor=CooperativeStickyAssignor");
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_EQ(duplicates(seen), 0);
}

TEST_F(KafkaHandoverTest, AMemberJoiningMidStreamUnderEagerRebalancingLosesNothing) {
  // Eager rebalancing (Camel's default RangeAssignor) gives up every partition while the group
  // is rebalancing. The commit made then is what Kafka accepts from the current generation,
  // but librdkafka's test cluster refuses it (REBALANCE_IN_PROGRESS): so here the records
  // after the last background commit may be consumed twice (at least once), never lost.
  auto seen = run("");
  EXPECT_EQ(seen.size(), 200u);
}

TEST_F(KafkaTest, StoppingLetsTheExchangeInFlightFinishAndCommitsIt) {
  cluster.createTopic("drain", 1);
  RouteHarness h;
  std::atomic<int> started{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("drain"));
    b.from(consumerUri("drain", "g"))
        .process([&](Exchange&) { ++started; })
        .delay(constant(int64_t{500}))
        .to("mock:got");
  });
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBody("direct:send", Value(std::to_string(i))));
  ASSERT_TRUE(eventually([&] { return started.load() > 0; }, 20s));
  ASSERT_EQ(started.load(), 1);
  h.context.stop();
  EXPECT_EQ(h.mock("mock:got").receivedCount(), 1u);  // finished, not cut short
  EXPECT_EQ(started.load(), 1);                       // and nothing new began
  EXPECT_EQ(committed(cluster.bootstrap(), "drain", "g"), 1);
}

// camel.main.shutdownTimeout bounds the stop also when an exchange outlasts it: the consumer
// goes without committing that record (it is consumed again), not after the kafka endpoint's
// own shutdownTimeout (30 s by default).
TEST_F(KafkaTest, AnExchangeOutlastingTheContextsShutdownTimeoutDoesNotHoldTheStop) {
  cluster.createTopic("outlast", 1);
  RouteHarness h;
  h.context.setShutdownTimeout(500ms);
  std::atomic<int> started{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("outlast"));
    b.from(consumerUri("outlast", "g"))
        .process([&](Exchange&) { ++started; })
        .delay(constant(int64_t{4000}))
        .to("mock:got");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:send", Value("slow")));
  ASSERT_TRUE(eventually([&] { return started.load() > 0; }, 20s));
  ASSERT_EQ(started.load(), 1);
  const auto begin = std::chrono::steady_clock::now();
  StopReport report = h.context.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2500ms) << "the timeout did not hold";
  EXPECT_FALSE(report.graceful);
  EXPECT_EQ(h.mock("mock:got").receivedCount(), 0u);
  EXPECT_LT(committed(cluster.bootstrap(), "outlast", "g"), 1) << "an unfinished record committed";
}

TEST_F(KafkaTest, ABrokerGoingDownMidStreamLosesNothing) {
  cluster.createTopic("resilient", 3, 3);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("resilient"));
    b.from(consumerUri("resilient", "g")).to("mock:got");
  });
  std::vector<Value> bodies;
  for (int i = 0; i < 60; ++i) bodies.emplace_back(std::to_string(i));
  // Sends wait for their acknowledgement: those to partitions led by the broker that is down
  // wait (librdkafka retries) until it is back.
  std::atomic<int> sent{0};
  std::thread sender([&] {
    for (const Value& body : bodies) {
      EXPECT_TRUE(h.producer.sendBodyAndHeader("direct:send", body, "kafka.KEY", body));
      ++sent;
    }
  });
  while (sent.load() < 20) std::this_thread::sleep_for(1ms);
  cluster.brokerDown(2);
  std::this_thread::sleep_for(2s);
  cluster.brokerUp(2);
  sender.join();
  // At least once: a send retried across the outage, or a record redelivered after the
  // rebalance, may arrive twice (CI saw it); none may be missing.
  auto missing = [&] {
    std::set<std::string> got;
    for (const Value& v : h.mock("mock:got").receivedBodies()) got.insert(v.toString());
    std::string absent;
    for (const Value& v : bodies) {
      if (!got.count(v.toString())) absent += v.toString() + " ";
    }
    return absent;
  };
  auto until = std::chrono::steady_clock::now() + 60s;
  while (!missing().empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(missing(), "") << "lost";
  std::printf("%zu received for 60 sent\n", h.mock("mock:got").receivedCount());
}

TEST_F(KafkaTest, AnUnreachableClusterFailsTheSendNamingTheEndpoint) {
  RouteHarness h;
  std::string target = "kafka:t?brokers=127.0.0.1:1&deliveryTimeoutMs=500&requestTimeoutMs=400";
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(target);
  });
  Exchange ex(&h.context);
  ex.message().setBody("x");
  (void)h.producer.send("direct:send", ex);
  ASSERT_TRUE(ex.failed());
  EXPECT_THAT(ex.error().message(), AllOf(HasSubstr(target), HasSubstr("not delivered")));
}

TEST_F(KafkaTest, AConsumerThatCannotReachTheClusterIsReportedDownNamingItsEndpoint) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("kafka:t?brokers=127.0.0.1:1&groupId=g").routeId("orders").to("mock:got");
  });
  auto deadline = std::chrono::steady_clock::now() + 20s;
  std::string problem;
  while (problem.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    problem = h.context.routeConsumerProblem("orders");
  }
  EXPECT_THAT(problem, AllOf(HasSubstr("kafka:t?brokers=127.0.0.1:1"),
                             HasSubstr("cannot reach any broker")));
}

TEST_F(KafkaTest, AProducerConnectsOnItsFirstSendNotWhenItsRouteStarts) {
  // `dromedary validate` compiles routes: a route that never sends reaches no broker.
  LogCapture logs;
  RouteHarness h;
  h.start([&](RouteBuilder& b) { b.from("direct:never").to("kafka:t?brokers=127.0.0.1:1"); });
  std::this_thread::sleep_for(300ms);
  for (const LoggedLine& line : logs.all()) {
    EXPECT_EQ(line.text.find("librdkafka"), std::string::npos) << line.text;
  }
}

TEST_F(KafkaTest, AProducerThatCannotStartFailsItsFirstSendNamingTheEndpoint) {
  // Accepted as a property, refused by librdkafka only when the producer is made.
  RouteHarness h;
  std::string target = "kafka:t?brokers=127.0.0.1:1&securityProtocol=SSL"
                       "&sslKeystoreLocation=/nonexistent/client.p12";
  h.start([&](RouteBuilder& b) { b.from("direct:send").to(target); });
  Exchange ex(&h.context);
  ex.message().setBody("x");
  (void)h.producer.send("direct:send", ex);
  ASSERT_TRUE(ex.failed());
  EXPECT_THAT(ex.error().message(), AllOf(HasSubstr(target), HasSubstr("Kafka producer")));
}

TEST_F(KafkaTest, ASendThatFindsTheQueueFullWaitsForRoom) {
  cluster.createTopic("narrow", 1);
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to(uri("narrow", "queueBufferingMaxMessages=1"));
    b.from(consumerUri("narrow", "g")).to("mock:got");
  });
  h.mock("mock:got").expectedBodiesReceived({Value("a"), Value("b"), Value("c")});
  Exchange ex(&h.context);
  ex.message().setBody(Value(ValueList{Value("a"), Value("b"), Value("c")}));
  ASSERT_TRUE(h.producer.send("direct:send", ex));  // 3 records through a queue of 1
  EXPECT_TRUE(h.mock("mock:got").assertIsSatisfied(20s));
}

TEST_F(KafkaTest, ASendThatWaitsForRoomPastMaxBlockMsFails) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.from("direct:send").to("kafka:t?brokers=127.0.0.1:1&queueBufferingMaxMessages=1"
                             "&maxBlockMs=100&deliveryTimeoutMs=1000");
  });
  Exchange ex(&h.context);
  ex.message().setBody(Value(ValueList{Value("a"), Value("b")}));
  (void)h.producer.send("direct:send", ex);
  ASSERT_TRUE(ex.failed());
  EXPECT_THAT(ex.error().message(), HasSubstr("was not delivered"));
}

TEST_F(KafkaTest, OnExceptionCatchesKafkasTimeoutByItsJavaName) {
  RouteHarness h;
  h.start([&](RouteBuilder& b) {
    b.onException({"org.apache.kafka.common.KafkaException"}).handled(true).setBody(
        constant("caught"));
    b.from("direct:send").to("kafka:t?brokers=127.0.0.1:1&deliveryTimeoutMs=300");
  });
  auto reply = h.producer.requestBody("direct:send", Value("x"));
  ASSERT_TRUE(reply) << reply.error().toString();
  EXPECT_EQ(reply->toString(), "caught");
}

}  // namespace
}  // namespace dromedary::testing
