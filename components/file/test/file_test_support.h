// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fresh folder per test under the system's temp folder, removed afterwards, and small
// helpers to write, read and list files in it.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>

#include "support/route_harness.h"

namespace dromedary::testing {

class FileTest : public ::testing::Test {
 protected:
  FileTest() {
    dir = (std::filesystem::temp_directory_path() /
           ("dromedary_file_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++)))
              .string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~FileTest() override {
    harness.context.stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  static int& counter() {
    static int n = 0;
    return n;
  }

  std::string path(const std::string& relative) const { return dir + "/" + relative; }

  void write(const std::string& relative, const std::string& content) const {
    std::filesystem::create_directories(std::filesystem::path(path(relative)).parent_path());
    std::ofstream(path(relative), std::ios::binary) << content;
  }

  std::string read(const std::string& relative) const {
    std::ifstream in(path(relative), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  bool exists(const std::string& relative) const {
    return std::filesystem::exists(path(relative));
  }

  // Waits up to `timeout` for `condition`.
  template <class Condition>
  static bool eventually(Condition condition,
                         std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      if (condition()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return condition();
  }

  // The URI of the test folder (or a folder under it) with fast polling.
  std::string uri(const std::string& sub, const std::string& options = "") const {
    std::string u = "file:" + dir + (sub.empty() ? "" : "/" + sub) + "?initialDelay=0&delay=10";
    if (!options.empty()) u += "&" + options;
    return u;
  }

  std::string dir;
  RouteHarness harness;
};

}  // namespace dromedary::testing
