// SPDX-License-Identifier: Apache-2.0
#pragma once

// The tracer behind tracing.h: the trace log and the backlog tracer. The compiler asks it
// which routes and steps to mark (Route::traced, kStepTrace); the executor calls it only for
// marked ones, so routes nobody traces pay nothing. Tracing is a diagnostic: it formats and
// allocates per event, and the backlog is a mutex-guarded ring.

#include <dromedary/core/exchange.h>
#include <dromedary/core/exchange_formatter.h>
#include <dromedary/core/logging.h>
#include <dromedary/core/result.h>
#include <dromedary/engine/tracing.h>
#include <dromedary/spi/language.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/name_pattern.h"

namespace dromedary {
class Context;
class Step;
}  // namespace dromedary

namespace dromedary::detail {

struct Route;

class Tracer {
 public:
  /// Checks `options` (the filter compiles as a Simple predicate) and makes the tracer.
  static Result<std::unique_ptr<Tracer>> create(TracingOptions options, Context& context);

  /// Whether either tracer is installed (on or standby): otherwise nothing is marked.
  bool installed() const noexcept;
  /// At compile: whether to mark `route` (its entry and exit) and, with `step`, that step.
  bool marks(const Route& route, const Step* step) const;

  /// The executor's hooks, for marked routes and steps.
  void routeIn(Exchange& exchange, const Route& route) noexcept;
  void routeOut(Exchange& exchange, const Route& route, bool failed) noexcept;
  void node(Exchange& exchange, const Route* route, const Step& step) noexcept;

  /// Turns a tracer on or off at runtime (one installed, or in standby, at compile).
  void setLogging(bool on) noexcept { logging_.store(on, std::memory_order_relaxed); }
  void setBacklog(bool on) noexcept { backlog_.store(on, std::memory_order_relaxed); }
  bool logging() const noexcept { return logging_.load(std::memory_order_relaxed); }
  bool backlog() const noexcept { return backlog_.load(std::memory_order_relaxed); }
  const TracingOptions& options() const noexcept { return options_; }

  /// The backlog's events that `query` selects, oldest first; removed from the backlog when
  /// removeOnDump.
  std::vector<TraceEvent> dump(const TraceQuery& query);

 private:
  Tracer(TracingOptions options, std::vector<NamePattern> log_patterns,
         std::vector<NamePattern> backlog_patterns, std::unique_ptr<Predicate> filter);
  bool logs(const Route& route, const Step* step) const noexcept;
  bool keeps(Exchange& exchange, const Route& route, const Step* step) const noexcept;
  void emit(Exchange& exchange, const Route& route, const Step* step, TraceEvent::Kind kind,
            bool failed) noexcept;
  void logLine(Exchange& exchange, std::string_view arrow, const Route& route,
               std::string_view label) const;
  void keep(TraceEvent event);

  TracingOptions options_;
  std::vector<NamePattern> log_patterns_;
  std::vector<NamePattern> backlog_patterns_;
  std::unique_ptr<Predicate> filter_;
  std::atomic<bool> logging_{false};
  std::atomic<bool> backlog_{false};
  Logger log_ = Logger::get("org.apache.camel.Tracing");
  ExchangeFormatter formatter_;
  std::mutex mutex_;  // guards what follows
  std::deque<TraceEvent> events_;
  uint64_t next_uid_ = 1;
};

/// TracingOptions from the context's properties (camel.main.tracing*, camel.trace.*), each
/// checked; an error names the property and its value.
Result<TracingOptions> tracingOptionsFromProperties(Context& context);

}  // namespace dromedary::detail
