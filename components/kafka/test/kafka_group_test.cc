// SPDX-License-Identifier: Apache-2.0
// Two `dromedary run` processes in one consumer group on a 6-partition topic; one is killed
// with SIGKILL mid-stream. Every record must be processed at least once (count and checksum),
// duplicates may only come from the killed instance's uncommitted window, and the survivor
// must own every partition once the group has noticed (its session timeout) and rebalanced.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "mock_cluster.h"
#include "support/dromedary_process.h"

namespace dromedary::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr int kRecords = 6000;
constexpr int kSessionTimeoutMs = 6000;

// `dromedary run ROUTES` with INSTANCE and BOOTSTRAP in its environment, its output in LOG.
class Instance : public DromedaryProcess {
 public:
  Instance(const std::string& name, const fs::path& routes, const std::string& bootstrap,
           const fs::path& log)
      : DromedaryProcess({routes.string()}, {"INSTANCE=" + name, "BOOTSTRAP=" + bootstrap}, log) {}

  // The partitions of the last "assigned" line of its log ("orders[3]" ...), or empty.
  int assignedPartitions() const {
    std::string text = log();
    size_t at = text.rfind("assigned ");
    if (at == std::string::npos) return 0;
    size_t end = text.find('\n', at);
    std::string line = text.substr(at, end - at);
    int n = 0;
    for (size_t p = line.find("orders["); p != std::string::npos; p = line.find("orders[", p + 1)) {
      ++n;
    }
    return n;
  }
};

class RecordSender {
 public:
  explicit RecordSender(const std::string& bootstrap) {
    char error[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof error);
    rd_kafka_conf_set(conf, "partitioner", "murmur2_random", error, sizeof error);
    rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  }
  ~RecordSender() {
    rd_kafka_flush(rk_, 30000);
    rd_kafka_destroy(rk_);
  }
  void send(int id) {
    std::string text = std::to_string(id);
    rd_kafka_producev(rk_, RD_KAFKA_V_TOPIC("orders"), RD_KAFKA_V_KEY(text.data(), text.size()),
                      RD_KAFKA_V_VALUE(text.data(), text.size()),
                      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    rd_kafka_poll(rk_, 0);
  }

 private:
  rd_kafka_t* rk_;
};

// Reads the "done" topic from its start: each output's id and the instance that wrote it.
class OutputReader {
 public:
  explicit OutputReader(const std::string& bootstrap) {
    char error[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof error);
    rd_kafka_conf_set(conf, "group.id", "checker", error, sizeof error);
    rk_ = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(list, "done", 0)->offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_assign(rk_, list);
    rd_kafka_topic_partition_list_destroy(list);
  }
  ~OutputReader() {
    rd_kafka_consumer_close(rk_);
    rd_kafka_destroy(rk_);
  }
  // Reads until `distinct` ids were seen or `timeout`.
  void readUntil(size_t distinct, std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    while (seen.size() < distinct && Clock::now() < deadline) {
      rd_kafka_message_t* m = rd_kafka_consumer_poll(rk_, 200);
      if (!m) continue;
      if (!m->err) {
        int id = std::stoi(std::string(static_cast<const char*>(m->payload), m->len));
        rd_kafka_headers_t* headers = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        std::string instance;
        if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
            rd_kafka_header_get_last(headers, "instance", &value, &size) ==
                RD_KAFKA_RESP_ERR_NO_ERROR) {
          instance.assign(static_cast<const char*>(value), size);
        }
        seen[id].push_back(instance);
      }
      rd_kafka_message_destroy(m);
    }
  }
  std::map<int, std::vector<std::string>> seen;

 private:
  rd_kafka_t* rk_;
};

TEST(KafkaGroupTest, AnInstanceKilledMidStreamLosesNothingAndTheOtherTakesItsPartitions) {
  MockKafkaCluster cluster(3);
  cluster.createTopic("orders", 6);
  cluster.createTopic("done", 1);
  fs::path dir = fs::temp_directory_path() / ("dromedary-kafka-group-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path routes = dir / "workers.yaml";
  std::ofstream(routes) << R"(- route:
    id: worker
    from:
      uri: kafka:orders
      parameters:
        brokers: "{{env:BOOTSTRAP}}"
        groupId: workers
        autoOffsetReset: earliest
        sessionTimeoutMs: )" << kSessionTimeoutMs << R"(
        heartbeatIntervalMs: 1000
        autoCommitIntervalMs: 500
        pollTimeoutMs: 100
      steps:
        - setHeader:
            name: instance
            constant: "{{env:INSTANCE}}"
        - delay:
            constant: 2
        - to:
            uri: kafka:done
            parameters:
              brokers: "{{env:BOOTSTRAP}}"
)";
  Instance a("A", routes, cluster.bootstrap(), dir / "a.log");
  Instance b("B", routes, cluster.bootstrap(), dir / "b.log");
  ASSERT_TRUE(a.running() && b.running());
  // Both in the group, three partitions each.
  auto deadline = Clock::now() + 30s;
  while ((a.assignedPartitions() == 0 || b.assignedPartitions() == 0) && Clock::now() < deadline) {
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(a.assignedPartitions() + b.assignedPartitions(), 6) << a.log() << b.log();

  Clock::time_point killed;
  {
    RecordSender sender(cluster.bootstrap());
    for (int i = 0; i < kRecords; ++i) {
      sender.send(i);
      if (i % 100 == 99) std::this_thread::sleep_for(50ms);  // ~2,000 records/s
      if (i == kRecords / 3) {
        a.stop(SIGKILL);
        killed = Clock::now();
      }
    }
  }
  // The survivor takes every partition once the group notices (after the session timeout).
  while (b.assignedPartitions() != 6 && Clock::now() < killed + 30s) {
    std::this_thread::sleep_for(50ms);
  }
  auto takeover = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - killed);
  ASSERT_EQ(b.assignedPartitions(), 6) << b.log();

  OutputReader reader(cluster.bootstrap());
  reader.readUntil(kRecords, 60s);
  int64_t sum = 0;
  size_t duplicates = 0, from_a = 0;
  bool duplicate_without_a = false;
  for (const auto& [id, instances] : reader.seen) {
    sum += id;
    from_a += static_cast<size_t>(std::count(instances.begin(), instances.end(), "A"));
    if (instances.size() > 1) {
      duplicates += instances.size() - 1;
      duplicate_without_a |= std::count(instances.begin(), instances.end(), "A") == 0;
    }
  }
  EXPECT_EQ(reader.seen.size(), static_cast<size_t>(kRecords)) << b.log();
  EXPECT_EQ(sum, int64_t{kRecords} * (kRecords - 1) / 2);
  EXPECT_FALSE(duplicate_without_a) << "a record was processed twice without the killed instance";
  // A's uncommitted window: what it did since its last commit (every 500 ms), at most. (On a
  // loaded machine A may not have finished a record before the kill: then none is repeated.)
  EXPECT_LE(duplicates, from_a);
  std::cout << "[ figures  ] records " << kRecords << ", by A before the kill " << from_a
            << ", duplicates " << duplicates << ", survivor owned all 6 partitions "
            << takeover.count() << " ms after the kill (session timeout " << kSessionTimeoutMs
            << " ms)\n";
  // The group notices a member that died after the session timeout; the test cluster then
  // waits (session timeout - 1 s) for the others to rejoin, where a Kafka broker goes on as
  // soon as they have (docs/kafka.md): two session timeouts, a heartbeat and a little slack.
  EXPECT_LT(takeover.count(), 2 * kSessionTimeoutMs + 3000);
  b.stop(SIGTERM);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dromedary::testing
