// SPDX-License-Identifier: Apache-2.0
// At-least-once across a crash of the consumer: `dromedary run` consuming persistent messages
// from RabbitMQ is killed with SIGKILL mid-stream and a second instance started. Every message
// is processed, and the only ones processed twice are those the killed instance had taken and
// not yet acknowledged (at most its prefetch).
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "broker_harness.h"
#include "support/dromedary_process.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kMessages = 600;
constexpr int kPrefetch = 20;

// The ids an instance finished, one per line of its file, counted.
void countLines(const fs::path& file, std::map<int, int>& seen, size_t& lines) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++seen[std::stoi(line)];
    ++lines;
  }
}

size_t lineCount(const fs::path& file) {
  std::map<int, int> seen;
  size_t lines = 0;
  countLines(file, seen, lines);
  return lines;
}

TEST(AmqpKillTest, AConsumerKilledMidStreamLosesNothingAndRepeatsOnlyWhatItHadNotAcknowledged) {
  fs::path dir = fs::temp_directory_path() / ("dromedary-amqp-kill-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "routes");
  std::string queue = uniqueQueue("kill");
  std::ofstream(dir / "routes" / "application.properties")
      << "camel.component.amqp.remoteURI=" << rabbitUrl() << "\n"
      << "camel.component.amqp.queuePrefix=/queue/\n";
  // Each finished message appends its id to its instance's file, then is acknowledged.
  std::ofstream(dir / "routes" / "worker.yaml") << R"(- route:
    id: worker
    from:
      uri: "amqp:queue:)" << queue << R"(?prefetch=)" << kPrefetch << R"("
      steps:
        - delay:
            constant: 3
        - setBody:
            simple: "${body}\n"
        - to: "file:)" << dir.string() << R"(?fileName=done-{{env:INSTANCE}}.txt&fileExist=Append"
)";

  BrokerHarness h;
  h.start([](RouteBuilder&) {});
  for (int i = 0; i < kMessages; ++i) {
    ASSERT_TRUE(h.producer.sendBody(
        "amqp:queue:" + queue + "?deliveryPersistent=true", Value(std::to_string(i))));
  }

  {
    DromedaryProcess a({(dir / "routes").string()}, {"INSTANCE=A"}, dir / "a.log");
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (lineCount(dir / "done-A.txt") < kMessages / 3 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);
    }
    ASSERT_GE(lineCount(dir / "done-A.txt"), size_t{kMessages / 3}) << a.log();
    a.stop(SIGKILL);
  }
  DromedaryProcess b({(dir / "routes").string()}, {"INSTANCE=B"}, dir / "b.log");
  std::map<int, int> seen;
  size_t lines = 0;
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (seen.size() < static_cast<size_t>(kMessages) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    seen.clear();
    lines = 0;
    countLines(dir / "done-A.txt", seen, lines);
    countLines(dir / "done-B.txt", seen, lines);
  }
  std::map<int, int> by_a;
  size_t from_a = 0;
  countLines(dir / "done-A.txt", by_a, from_a);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kMessages)) << "every message was processed\n"
                                                         << b.log();
  size_t duplicates = lines - seen.size();
  for (const auto& [id, count] : seen) {
    if (count > 1) {
      EXPECT_TRUE(by_a.count(id)) << id << " repeated without the killed instance";
    }
  }
  EXPECT_LE(duplicates, size_t{kPrefetch}) << "only what A had taken and not acknowledged";
  std::printf("killed after %zu of %d; %zu processed twice (prefetch %d)\n", from_a, kMessages,
              duplicates, kPrefetch);
  b.stop(SIGTERM);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dromedary::testing
