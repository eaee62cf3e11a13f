// SPDX-License-Identifier: Apache-2.0
// dromedary-kafka-cluster: a Kafka protocol test cluster on loopback (librdkafka's mock
// cluster), for trying kafka: routes and for tests in other processes. Prints the bootstrap
// address on its first line, then reads commands on stdin until it ends or SIGTERM:
//   topic NAME PARTITIONS     create a topic
//   down ID / up ID           take broker ID (1..N) down or bring it back
//
//   dromedary-kafka-cluster --brokers 3 --topic orders:6
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "mock_cluster.h"

int main(int argc, char** argv) {
  CLI::App app{"A Kafka protocol test cluster on loopback (librdkafka's mock cluster)"};
  int brokers = 3;
  std::vector<std::string> topics;
  std::string bootstrap_file;
  app.add_option("--brokers", brokers, "How many brokers")->check(CLI::Range(1, 16));
  app.add_option("--topic", topics, "NAME:PARTITIONS, created at start (repeatable)");
  app.add_option("--bootstrap-file", bootstrap_file, "Also write the bootstrap address here");
  CLI11_PARSE(app, argc, argv);

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  // Blocked before librdkafka starts its threads, which inherit the mask: sigwait below
  // takes the signal, and the cluster is destroyed in order.
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  dromedary::testing::MockKafkaCluster cluster(brokers);
  for (const std::string& t : topics) {
    size_t colon = t.rfind(':');
    int partitions = colon == std::string::npos ? 1 : std::stoi(t.substr(colon + 1));
    cluster.createTopic(t.substr(0, colon), partitions);
  }
  std::cout << cluster.bootstrap() << std::endl;
  if (!bootstrap_file.empty()) {
    std::string tmp = bootstrap_file + ".tmp";
    if (FILE* f = std::fopen(tmp.c_str(), "w")) {
      std::fprintf(f, "%s\n", cluster.bootstrap().c_str());
      std::fclose(f);
      std::rename(tmp.c_str(), bootstrap_file.c_str());
    }
  }
  // Commands on a thread of their own; this one waits for the signal that ends the program
  // (stdin may stay open and idle for the cluster's whole life).
  std::thread commands([&cluster] {
    std::string line;
    while (std::getline(std::cin, line)) {
      std::istringstream in(line);
      std::string command;
      in >> command;
      if (command == "topic") {
        std::string name;
        int partitions = 1;
        in >> name >> partitions;
        cluster.createTopic(name, partitions);
      } else if (command == "down" || command == "up") {
        int id = 0;
        in >> id;
        if (command == "down") cluster.brokerDown(id); else cluster.brokerUp(id);
      } else if (!command.empty()) {
        std::cerr << "unknown command: " << command << "\n";
        continue;
      }
      std::cout << "ok" << std::endl;
    }
  });
  commands.detach();
  int signal = 0;
  sigwait(&signals, &signal);
  return 0;
}
