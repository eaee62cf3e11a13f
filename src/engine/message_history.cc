// SPDX-License-Identifier: Apache-2.0
#include "engine/message_history.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "engine/executor.h"
#include "engine/failure_state.h"

namespace dromedary::detail {

void recordHistory(Exchange& ex, const Step& step) noexcept {
  FailureState& fs = failureState(ex);
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  fs.history[fs.historyCount % kHistorySize] =
      HistoryEntry{currentRoute(detail::exec(ex)), &step, now};
  ++fs.historyCount;
}

std::string messageHistory(Exchange& ex, const Step* failing) {
  const ExchangeError* e = ex.failed() ? &ex.error() : ex.caughtError();
  ExecState& st = detail::exec(ex);
  FailureState& fs = failureState(ex);
  if (!failing && e) {
    const Step* top = lastStep(st);
    if (top && top->id() == e->nodeId) failing = top;
  }
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  auto row = [](std::string_view source, std::string_view id, std::string_view processor,
                std::string_view elapsed) {
    return fmt::format("{:<40} {:<30} {:<50} {:>12}\n", source, id, processor, elapsed);
  };
  auto source_of = [](const Step* s) -> std::string {
    if (!s || s->origin.where.line == 0) return {};
    const SourcePlace& w = s->origin.where;
    return fmt::format("{}:{}", w.file.str(), w.line);
  };
  std::string out;
  const bool kept = fs.historyCount > 0;
  out += kept ? "Message History\n" : "Message History (message history is disabled)\n";
  out += std::string(136, '-') + "\n";
  out += row("Source", "ID", "Processor", "Elapsed (ms)");
  const Route* from_route = st.fromRoute;
  if (from_route) {
    out += row("", fmt::format("{}/{}", from_route->id, from_route->id),
               fmt::format("from[{}]", from_route->fromUri),
               std::to_string(std::max<int64_t>(0, now_ms - ex.createdMillis())));
  }
  if (kept) {
    uint32_t n = std::min(fs.historyCount, kHistorySize);
    uint32_t first = fs.historyCount - n;
    int64_t end = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
    if (first > 0) out += row("", "...", fmt::format("({} earlier steps)", first), "");
    for (uint32_t k = first; k < fs.historyCount; ++k) {
      const HistoryEntry& h = fs.history[k % kHistorySize];
      int64_t next = k + 1 < fs.historyCount ? fs.history[(k + 1) % kHistorySize].startNanos : end;
      std::string label(h.step->label());
      out += row(source_of(h.step), fmt::format("{}/{}", h.route ? h.route->id : "", h.step->id()),
                 label, std::to_string((next - h.startNanos) / 1000000));
    }
  } else if (e && !e->nodeId.empty()) {
    const Step* s = failing;
    std::string label(e->nodeId);
    if (s) label = s->label();
    out += row(source_of(s), fmt::format("{}/{}", e->routeId, e->nodeId), label, "0");
  }
  return out;
}

}  // namespace dromedary::detail
