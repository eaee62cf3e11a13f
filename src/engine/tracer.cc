// SPDX-License-Identifier: Apache-2.0
#include "engine/tracer.h"

#include <dromedary/core/file_body.h>
#include <dromedary/core/value_stream.h>
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <chrono>

#include "engine/compiled_route.h"
#include "engine/context_impl.h"
#include "engine/route_model.h"
#include "engine/step.h"

namespace dromedary::detail {

namespace {

// Camel's DefaultTracer: `String.format("%-4.4s [%-12.12s] [%-33.33s]", arrow, route, label)`,
// then the exchange as DefaultExchangeFormatter shows it with its id and headers.
ExchangeFormatOptions logFormat() {
  ExchangeFormatOptions o;
  o.showExchangeId = true;
  o.showExchangePattern = false;
  o.showHeaders = true;
  return o;
}

std::vector<NamePattern> patternsOf(const std::string& list) {
  std::vector<NamePattern> out;
  size_t start = 0;
  while (start <= list.size() && !list.empty()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string one = list.substr(start, end - start);
    if (!one.empty()) out.emplace_back(std::move(one));
    start = end + 1;
  }
  return out;
}

// Camel's shouldTracePattern: a pattern names the node's id or its route's.
bool matchesAny(const std::vector<NamePattern>& patterns, const Route& route, const Step* step) {
  if (patterns.empty()) return true;
  for (const NamePattern& p : patterns) {
    if ((step && p.matches(step->id())) || p.matches(route.id)) return true;
  }
  return false;
}

std::string routeLabel(const Route& route) { return "from[" + route.fromUri + "]"; }


std::vector<std::pair<std::string, std::string>> textsOf(const Headers& headers) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(headers.size());
  for (const Headers::Entry& e : headers) {
    std::string value;
    if (e.value.isNull()) {
      value = "null";
    } else {
      e.value.appendTo(value);
    }
    out.emplace_back(e.name, std::move(value));
  }
  return out;
}

int64_t nowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Tracer::Tracer(TracingOptions options, std::vector<NamePattern> log_patterns,
               std::vector<NamePattern> backlog_patterns, std::unique_ptr<Predicate> filter)
    : options_(std::move(options)),
      log_patterns_(std::move(log_patterns)),
      backlog_patterns_(std::move(backlog_patterns)),
      filter_(std::move(filter)),
      formatter_(logFormat()) {
  logging_.store(options_.logging, std::memory_order_relaxed);
  backlog_.store(options_.backlog, std::memory_order_relaxed);
}

Result<std::unique_ptr<Tracer>> Tracer::create(TracingOptions options, Context& context) {
  if (options.backlogSize < 1 || options.backlogSize > 1000) {
    return makeError(
        ErrorCode::InvalidOption,
        fmt::format("camel.trace.backlogSize must be 1 to 1000, not {}", options.backlogSize));
  }
  std::unique_ptr<Predicate> filter;
  if (!options.backlogFilter.empty()) {
    Language* simple = context.language("simple");
    if (!simple) return makeError(ErrorCode::InvalidOption, "the simple language is missing");
    auto made = simple->createPredicate(options.backlogFilter, context);
    if (!made) {
      Error e = made.error();
      e.message = fmt::format("camel.trace.traceFilter '{}': {}", options.backlogFilter, e.message);
      return e;
    }
    filter = std::move(*made);
  }
  auto log_patterns = patternsOf(options.loggingPattern);
  auto backlog_patterns = patternsOf(options.backlogPattern);
  return std::unique_ptr<Tracer>(new Tracer(std::move(options), std::move(log_patterns),
                                            std::move(backlog_patterns), std::move(filter)));
}

bool Tracer::installed() const noexcept {
  return options_.logging || options_.loggingStandby || options_.backlog || options_.backlogStandby;
}

bool Tracer::marks(const Route& route, const Step* step) const {
  if (route.trace) return *route.trace;  // the route's own `trace`
  if (route.kamelet && !options_.traceTemplates) return false;
  if ((options_.logging || options_.loggingStandby) && matchesAny(log_patterns_, route, step)) {
    return true;
  }
  return (options_.backlog || options_.backlogStandby) &&
         matchesAny(backlog_patterns_, route, step);
}

bool Tracer::logs(const Route& route, const Step* step) const noexcept {
  if (route.trace) return *route.trace;
  return logging() && matchesAny(log_patterns_, route, step);
}

bool Tracer::keeps(Exchange& ex, const Route& route, const Step* step) const noexcept {
  if (!backlog()) return false;
  if (!route.trace && !matchesAny(backlog_patterns_, route, step)) return false;
  return !filter_ || filter_->matches(ex);
}

void Tracer::routeIn(Exchange& ex, const Route& route) noexcept {
  emit(ex, route, nullptr, TraceEvent::Kind::RouteIn, false);
}

void Tracer::routeOut(Exchange& ex, const Route& route, bool failed) noexcept {
  emit(ex, route, nullptr, TraceEvent::Kind::RouteOut, failed);
}

void Tracer::node(Exchange& ex, const Route* route, const Step& step) noexcept {
  if (route) emit(ex, *route, &step, TraceEvent::Kind::Node, ex.failed());
}

void Tracer::emit(Exchange& ex, const Route& route, const Step* step, TraceEvent::Kind kind,
                  bool failed) noexcept {
  try {
    const bool first = kind != TraceEvent::Kind::Node && ex.fromRouteId() == route.id;
    std::string label = step ? std::string(step->label()) : routeLabel(route);
    if (logs(route, step)) {
      std::string_view arrow = kind == TraceEvent::Kind::RouteIn    ? (first ? "*-->" : "--->")
                               : kind == TraceEvent::Kind::RouteOut ? (first ? "*<--" : "<---")
                                                                    : "";
      logLine(ex, arrow, route, label);
    }
    if (!keeps(ex, route, step)) return;
    TraceEvent e;
    e.kind = kind;
    e.first = first;
    e.timestampMillis = nowMillis();
    e.elapsedMillis = std::max<int64_t>(0, e.timestampMillis - ex.createdMillis());
    e.exchangeId = ex.exchangeId();
    e.routeId = route.id;
    e.nodeId = step ? std::string(step->id()) : route.id;
    e.label = std::move(label);
    const SourcePlace* where = step && step->origin.known() ? &step->origin.where : &route.where;
    if (where->line > 0) {
      e.location = fmt::format("{}:{}", where->file.str(), where->line);
    }
    e.headers = textsOf(ex.message().headers());
    if (options_.includeExchangeProperties) e.properties = textsOf(ex.properties());
    const Value& body = ex.message().body();
    e.bodyType = std::string(body.typeName());
    if (const FileBody* file = body.getIf<FileBody>()) {
      e.body = file->logText();  // not read: a trace never loads a whole file
    } else if (const StreamBody* stream = body.getIf<StreamBody>()) {
      e.body = stream->logText();  // not read: reading would use its items up
    } else if (!body.isNull()) {
      body.appendTo(e.body);
    }
    if (options_.bodyMaxChars > 0 && static_cast<int64_t>(e.body.size()) > options_.bodyMaxChars) {
      e.body.resize(static_cast<size_t>(options_.bodyMaxChars));
      e.body += "... [Body clipped after " + std::to_string(options_.bodyMaxChars) + " chars]";
    }
    e.failed = failed || ex.failed();
    if (e.failed && options_.includeException && ex.failed()) e.exception = ex.error().message();
    keep(std::move(e));
  } catch (...) {
    // Out of memory while tracing: the exchange goes on untraced.
  }
}

void Tracer::logLine(Exchange& ex, std::string_view arrow, const Route& route,
                     std::string_view label) const {
  if (!log_.enabled(LoggingLevel::Info)) return;
  // Camel cuts the label to 50 characters before the format cuts it to 33.
  std::string line =
      fmt::format("{:<4.4} [{:<12.12}] [{:<33.33}] ", arrow, route.id, label.substr(0, 50));
  formatter_.format(ex, line);
  log_.log(LoggingLevel::Info, line);
}

void Tracer::keep(TraceEvent event) {
  std::lock_guard lock(mutex_);
  event.uid = next_uid_++;
  events_.push_back(std::move(event));
  while (events_.size() > options_.backlogSize) events_.pop_front();
}

std::vector<TraceEvent> Tracer::dump(const TraceQuery& query) {
  std::lock_guard lock(mutex_);
  std::vector<TraceEvent> out;
  for (const TraceEvent& e : events_) {
    if (e.uid <= query.afterUid) continue;
    if (!query.routeId.empty() && e.routeId != query.routeId) continue;
    out.push_back(e);
  }
  if (query.limit > 0 && out.size() > query.limit) {
    out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(query.limit));
  }
  if (options_.removeOnDump && !out.empty()) {
    const uint64_t last = out.back().uid;
    std::erase_if(events_, [&](const TraceEvent& e) {
      return e.uid <= last && (query.routeId.empty() || e.routeId == query.routeId);
    });
  }
  return out;
}

}  // namespace dromedary::detail

namespace dromedary {

Result<void> Context::setTracing(TracingOptions options) {
  // Running routes call the tracer they were compiled with: it is never replaced under them.
  if (isStarted()) {
    return makeError(ErrorCode::InvalidRoute,
                     "tracing is configured before the routes start; at runtime, turn it on "
                     "or off with setTracingEnabled (standby)");
  }
  DROMEDARY_TRY(tracer, detail::Tracer::create(std::move(options), *this));
  impl_->tracer = std::move(tracer);
  return {};
}

void Context::setTracingEnabled(bool logging, bool backlog) noexcept {
  if (!impl_->tracer) return;
  impl_->tracer->setLogging(logging);
  impl_->tracer->setBacklog(backlog);
}

std::pair<bool, bool> Context::tracingEnabled() const noexcept {
  if (!impl_->tracer) return {false, false};
  return {impl_->tracer->logging(), impl_->tracer->backlog()};
}

std::vector<TraceEvent> Context::traceEvents(const TraceQuery& query) {
  if (!impl_->tracer) return {};
  return impl_->tracer->dump(query);
}

}  // namespace dromedary
