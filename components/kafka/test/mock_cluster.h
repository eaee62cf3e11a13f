// SPDX-License-Identifier: Apache-2.0
#pragma once

// A Kafka cluster for tests: librdkafka's mock cluster (rdkafka_mock.h), N brokers on
// loopback that speak the Kafka protocol to any process, with topics, consumer groups and
// fault injection. It lives in the process that creates it (a test, or the
// dromedary-kafka-cluster program) and stops when destroyed.

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <stdexcept>
#include <string>

namespace dromedary::testing {

class MockKafkaCluster {
 public:
  explicit MockKafkaCluster(int brokers = 3) {
    char error[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    // The handle only hosts the cluster: quiet, and pointed at nothing.
    rd_kafka_conf_set(conf, "log_level", "0", error, sizeof error);
    rd_kafka_conf_set(conf, "bootstrap.servers", "127.0.0.1:1", error, sizeof error);
    rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
    if (!rk_) throw std::runtime_error(error);
    cluster_ = rd_kafka_mock_cluster_new(rk_, brokers);
    if (!cluster_) throw std::runtime_error("rd_kafka_mock_cluster_new failed");
    bootstrap_ = rd_kafka_mock_cluster_bootstraps(cluster_);
  }
  ~MockKafkaCluster() {
    rd_kafka_mock_cluster_destroy(cluster_);
    rd_kafka_destroy(rk_);
  }
  MockKafkaCluster(const MockKafkaCluster&) = delete;
  MockKafkaCluster& operator=(const MockKafkaCluster&) = delete;

  /// "127.0.0.1:PORT,127.0.0.1:PORT,...".
  const std::string& bootstrap() const noexcept { return bootstrap_; }
  void createTopic(const std::string& name, int partitions, int replication = 1) {
    if (rd_kafka_mock_topic_create(cluster_, name.c_str(), partitions, replication) !=
        RD_KAFKA_RESP_ERR_NO_ERROR) {
      throw std::runtime_error("cannot create topic " + name);
    }
  }
  /// Broker ids are 1..N.
  void brokerDown(int id) { rd_kafka_mock_broker_set_down(cluster_, id); }
  void brokerUp(int id) { rd_kafka_mock_broker_set_up(cluster_, id); }
  rd_kafka_mock_cluster_t* handle() const noexcept { return cluster_; }

 private:
  rd_kafka_t* rk_ = nullptr;
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  std::string bootstrap_;
};

}  // namespace dromedary::testing
