// SPDX-License-Identifier: Apache-2.0
// The context's flight recorder API: its size, a route's recent exchanges, and their dump to
// the log (SIGUSR2 in `dromedary run`).
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include "engine/compiled_route.h"
#include "engine/context_impl.h"
#include "engine/flight_recorder.h"

namespace dromedary {

void Context::setFlightRecorderSize(uint32_t exchanges) noexcept {
  impl_->flightRecorderSize.store(exchanges, std::memory_order_relaxed);
}

std::optional<RecentExchanges> Context::recentExchanges(std::string_view route_id) const {
  const detail::Route* r = impl_->findRoute(route_id);
  if (!r) return std::nullopt;
  if (!r->recorder) return RecentExchanges{};
  return r->recorder->snapshot(r->id);
}

void Context::logRecentExchanges() const {
  Logger log = Logger::get("dromedary.flightRecorder");
  auto line = [&](const RecordedExchange& e) {
    std::string text =
        fmt::format("  {} {} createdMillis {} +{:.3f} ms", e.failed ? "FAILED" : "ok",
                    e.exchangeId.empty() ? "-" : e.exchangeId, e.createdMillis, e.elapsedMillis);
    if (e.failed) text += fmt::format(" at {}: {}", e.nodeId, e.error);
    text += fmt::format(" Headers: {{{}}} BodyType: {} Body: {}", e.headers, e.bodyType, e.body);
    log.log(LoggingLevel::Info, text);
  };
  for (const std::string& id : routeIds()) {
    auto recent = recentExchanges(id);
    if (!recent) continue;
    log.log(LoggingLevel::Info, fmt::format("route {}: last {} completed, last {} failed", id,
                                            recent->completed.size(), recent->failed.size()));
    for (const RecordedExchange& e : recent->completed) line(e);
    for (const RecordedExchange& e : recent->failed) line(e);
  }
}

}  // namespace dromedary
