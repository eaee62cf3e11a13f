// SPDX-License-Identifier: Apache-2.0
#pragma once

// Stopping and suspending routes for the management API without holding its I/O thread: a
// stop waits for in-flight exchanges up to the shutdown timeout (45 s by default), so it runs
// on a thread of its own; the request waits a moment for it, and answers 202 (the route
// "Stopping") when it takes longer. The API stays responsive meanwhile.

#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <dromedary/core/result.h>

namespace dromedary {

class Context;

class RouteControl {
 public:
  explicit RouteControl(Context& context) : context_(context) {}
  ~RouteControl() { join(); }
  RouteControl(const RouteControl&) = delete;
  RouteControl& operator=(const RouteControl&) = delete;

  /// Runs "stop" or "suspend" on `id` on a thread of its own and waits up to `wait` for it:
  /// its result when it finished, nothing when it still runs. An action still running on the
  /// same route is an error (409 for the API).
  std::optional<Result<void>> run(const std::string& id, const std::string& action,
                                  std::chrono::milliseconds wait);

  /// Waits for every action still running (the server is stopping).
  void join();

 private:
  Context& context_;
  std::mutex mutex_;
  std::map<std::string, std::shared_future<Result<void>>, std::less<>> running_;  // by route
  std::vector<std::thread> threads_;
};

}  // namespace dromedary
