// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's two tracers, configured as Camel's properties configure them (tracer.cc reads them):
//
//  - the trace log (camel.main.tracing): each exchange logged as it enters a route, before
//    each step, and as it leaves, in Camel's shape, on the logger org.apache.camel.Tracing:
//      *--> [orders      ] [from[direct:orders]             ] Exchange[Id: ..., Body: x]
//           [orders      ] [choice1                         ] Exchange[...]
//      *<-- [orders      ] [from[direct:orders]             ] Exchange[...]
//  - the backlog tracer (camel.trace.enabled): the same events kept in memory, the last
//    backlogSize of them, for the management API (/api/trace) and `dromedary trace`.
//
// Both trace only what their pattern names (route or node ids, Camel's patterns); a route's
// own `trace: true` traces it whatever the pattern. Standby compiles the hooks in but leaves
// them off until enabled at runtime. Off (the default), a route pays nothing: the executor's
// per-step flag word, which it reads anyway, has no tracing bit set.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dromedary {

struct TracingOptions {
  // camel.main.*: the trace log
  bool logging = false;         ///< camel.main.tracing
  bool loggingStandby = false;  ///< camel.main.tracingStandby
  std::string loggingPattern;   ///< camel.main.tracingPattern: route or node ids, comma-separated
  // camel.trace.*: the backlog tracer
  bool backlog = false;                   ///< camel.trace.enabled
  bool backlogStandby = false;            ///< camel.trace.standby
  uint32_t backlogSize = 100;             ///< camel.trace.backlogSize (1 to 1000)
  bool removeOnDump = true;               ///< camel.trace.removeOnDump
  int64_t bodyMaxChars = 32 * 1024;       ///< camel.trace.bodyMaxChars (0 or less: whole)
  bool includeExchangeProperties = true;  ///< camel.trace.includeExchangeProperties
  bool includeException = true;           ///< camel.trace.includeException
  bool traceRests = true;                 ///< camel.trace.traceRests
  bool traceTemplates = false;            ///< camel.trace.traceTemplates (and Kamelets)
  std::string backlogPattern;             ///< camel.trace.tracePattern
  std::string backlogFilter;              ///< camel.trace.traceFilter: a Simple predicate
};

/// One traced moment of an exchange: it entered a route, reached a step, or left a route.
struct TraceEvent {
  enum class Kind { RouteIn, Node, RouteOut };
  uint64_t uid = 0;  ///< rising, unique in the process
  Kind kind = Kind::Node;
  bool first = false;           ///< RouteIn/RouteOut of the exchange's first route
  int64_t timestampMillis = 0;  ///< epoch milliseconds
  int64_t elapsedMillis = 0;    ///< since the exchange was created
  std::string exchangeId;
  std::string routeId;
  std::string nodeId;    ///< the step's id; the route's id for RouteIn/RouteOut
  std::string label;     ///< what the node is: `to[mock:out]`, `from[direct:a]`
  std::string location;  ///< file:line of the node, when read from a file
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::pair<std::string, std::string>> properties;
  std::string bodyType;
  std::string body;  ///< cut to bodyMaxChars
  bool failed = false;
  std::string exception;  ///< the failure's text, when failed and includeException
};

/// What to read from the backlog.
struct TraceQuery {
  std::string routeId;    ///< only this route's events (empty: all)
  uint64_t afterUid = 0;  ///< only events newer than this one
  size_t limit = 0;       ///< at most this many, the newest (0: all kept)
};

}  // namespace dromedary
