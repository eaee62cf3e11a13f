// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's interceptors (docs/eip.md "intercept"): `intercept` runs its steps before every step
// of a route, `interceptFrom` before the first one of routes whose `from` matches its pattern,
// `interceptSendToEndpoint` before a send to an endpoint matching its pattern (then sends, or
// skips the send, then optionally sends to `afterUri`). They are compiled into the route
// itself when it starts: `intercept` as a step before each step, the others as a block in
// place of the send, so a route without interceptors pays nothing.

#include <dromedary/core/result.h>
#include <dromedary/engine/expression_builder.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/route_model.h"

namespace dromedary {

class Producer;

namespace detail {

enum class InterceptKind : uint8_t { Intercept, InterceptFrom, InterceptSendToEndpoint };

struct InterceptModel {
  InterceptKind kind = InterceptKind::Intercept;
  /// interceptFrom / interceptSendToEndpoint: the endpoint pattern (Camel's matchEndpoint: the
  /// exact URI, a prefix ending in '*', or a regular expression); empty: every endpoint.
  std::string uri;
  std::optional<PredicateDefinition> onWhen;
  bool skipSendToOriginalEndpoint = false;  ///< interceptSendToEndpoint only
  std::string afterUri;                     ///< interceptSendToEndpoint only
  BlockModel body;
  SourceRef where;
};

/// A route's interceptors while it compiles (RouteCompiler holds it); the steps made from it
/// share what it compiled.
struct Interception;

/// Compiles the route's intercept bodies and predicates; null when it has no interceptors.
Result<std::shared_ptr<Interception>> prepareInterception(RouteCompiler& compiler,
                                                          const RouteModel& model);

/// The steps every `intercept` puts before a step (appended to `out`; named "intercept" by
/// the caller, which has the route).
void interceptStep(const Interception& interception, std::vector<std::unique_ptr<Step>>& out);

/// The interceptFrom steps for a route from `from_uri`, to run before its first step (named
/// "interceptFrom" by the caller).
void interceptFromSteps(const Interception& interception, const std::string& from_uri,
                        std::vector<std::unique_ptr<Step>>& out);

/// A send to `uri` through `producer`, wrapped in the matching interceptSendToEndpoint
/// clauses; `send` itself when none matches.
Result<std::unique_ptr<Step>> interceptedSend(RouteCompiler& compiler,
                                              const Interception& interception,
                                              const std::string& uri, std::unique_ptr<Step> send);

/// For a send whose URI is known only per exchange (toD): the clauses that may match, or
/// null when the route has none. `run` pushes the chain for `uri` (Continue), or returns
/// nullopt when no clause matches it and the caller sends as usual.
class DynamicSendInterception {
 public:
  virtual ~DynamicSendInterception() = default;
  virtual std::optional<Status> run(Exchange& exchange, std::string_view uri) const noexcept = 0;
};
Result<std::unique_ptr<DynamicSendInterception>> dynamicSendInterception(
    RouteCompiler& compiler, const Interception& interception);

}  // namespace detail
}  // namespace dromedary
