// SPDX-License-Identifier: Apache-2.0
#pragma once

// VirtualTimeHarness: a RouteHarness whose context runs on a VirtualScheduler. At the end it
// stops the context on another thread while advancing the clock, since a graceful stop waits
// for parked exchanges that only advancing time finishes.

#include <atomic>
#include <thread>

#include <dromedary/engine/virtual_scheduler.h>

#include "support/route_harness.h"

namespace dromedary::testing {

class VirtualTimeHarness {
 public:
  VirtualTimeHarness() : clock(std::make_shared<VirtualScheduler>()) {
    routes.context.setScheduler(clock);
  }
  ~VirtualTimeHarness() {
    std::atomic<bool> stopped{false};
    std::thread stopper([&] {
      routes.context.stop();
      stopped = true;
    });
    while (!stopped) clock->advance(std::chrono::seconds(1));
    stopper.join();
  }

  std::shared_ptr<VirtualScheduler> clock;
  RouteHarness routes;
};

}  // namespace dromedary::testing
