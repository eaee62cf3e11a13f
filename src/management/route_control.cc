// SPDX-License-Identifier: Apache-2.0
#include "management/route_control.h"

#include <fmt/format.h>

#include <dromedary/engine/context.h>

namespace dromedary {

std::optional<Result<void>> RouteControl::run(const std::string& id, const std::string& action,
                                              std::chrono::milliseconds wait) {
  std::shared_future<Result<void>> done;
  {
    std::lock_guard lock(mutex_);
    auto it = running_.find(id);
    if (it != running_.end()) {
      if (it->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        return Result<void>(makeError(ErrorCode::RouteNotStarted,
                                      fmt::format("route '{}' is still {}", id,
                                                  routeStatusName(context_.routeStatus(id)))));
      }
      running_.erase(it);
    }
    std::packaged_task<Result<void>()> task([this, id, action]() -> Result<void> {
      auto report = action == "stop" ? context_.stopRoute(id) : context_.suspendRoute(id);
      if (!report) return report.error();
      return {};
    });
    done = task.get_future().share();
    running_.emplace(id, done);
    threads_.emplace_back(std::move(task));
  }
  if (done.wait_for(wait) != std::future_status::ready) return std::nullopt;
  return done.get();
}

void RouteControl::join() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(threads_);
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace dromedary
