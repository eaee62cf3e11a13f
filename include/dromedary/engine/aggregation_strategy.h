// SPDX-License-Identifier: Apache-2.0
#pragma once

/// AggregationStrategy: how split, multicast, recipientList (and later aggregate and
/// enrich) combine the exchanges they produce into one, as Camel's AggregationStrategy.
///
/// `aggregate(oldExchange, newExchange)` is called once per finished sub-exchange, in order
/// (for parallelProcessing too), with `oldExchange` null the first time. It returns the
/// exchange that is the result so far: `oldExchange` after folding `newExchange` into it,
/// or `newExchange` itself. The engine recycles whichever one is not returned, so a
/// strategy never copies a message it does not need and a sequential split keeps at most
/// two sub-exchanges alive. The final result is copied onto the input exchange (message,
/// properties, and a failure if the result carries one).
///
/// Example (sum the bodies):
///   auto sum = aggregationStrategy([](Exchange* old, Exchange& ex) -> Exchange* {
///     if (!old) return &ex;
///     old->message().setBody(old->message().body().as<int64_t>() +
///                            ex.message().body().as<int64_t>());
///     return old;
///   });
///   from("direct:in").split(body(), sum).to("mock:item").end().to("mock:sum");
///
/// Thread-safety: calls are serialised per split/multicast run; one strategy instance serves
/// every run of its step concurrently, so it must keep no state between calls.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/exchange.h>

namespace dromedary {

class AggregationStrategy {
 public:
  virtual ~AggregationStrategy() = default;
  /// Folds `newExchange` into `oldExchange` (null the first time); returns one of the two.
  /// A failed `newExchange` (its error slot set) is offered too: the strategy decides whether
  /// the failure survives (see UseLatest).
  virtual Exchange* aggregate(Exchange* oldExchange, Exchange& newExchange) = 0;
  /// Called once on the final result, before it is copied onto the input exchange.
  virtual void onCompletion(Exchange& result) { (void)result; }
  /// pollEnrich only: nothing came from the polled endpoint in time (where Camel calls
  /// aggregate(original, null)). The default leaves `original` as it is.
  virtual void noResource(Exchange& original) { (void)original; }
};

/// The exchanges a GroupedExchange strategy collects (the result's body holds one).
struct GroupedExchanges {
  std::vector<std::shared_ptr<const Exchange>> exchanges;
};

/// Camel's built-in strategies. None takes a lock.
namespace AggregationStrategies {
/// The latest exchange wins; an earlier failure is kept when the latest has none (Camel's
/// UseLatestAggregationStrategy, the default of multicast and recipientList).
std::shared_ptr<AggregationStrategy> useLatest();
/// The input exchange continues unchanged; a failure of any sub-exchange is propagated
/// unless `propagate_exception` is false (the default of split).
std::shared_ptr<AggregationStrategy> useOriginal(bool propagate_exception = true);
/// The bodies, in order, as a list body.
std::shared_ptr<AggregationStrategy> groupedBody();
/// The sub-exchanges themselves, as a GroupedExchanges object body.
std::shared_ptr<AggregationStrategy> groupedExchange();
/// The bodies as text, joined by `delimiter` (Camel's StringAggregationStrategy).
std::shared_ptr<AggregationStrategy> string(std::string delimiter = "");
/// A strategy by Camel's class name, with or without package and a `#class:` prefix
/// ("UseLatestAggregationStrategy", "#class:org.apache.camel.processor.aggregate.
/// GroupedBodyAggregationStrategy" ...), or null when the name is not one of the above.
std::shared_ptr<AggregationStrategy> byClassName(std::string_view name);
/// The class names byClassName knows, for error messages.
std::vector<std::string_view> classNames();
}  // namespace AggregationStrategies

/// A strategy from a function with aggregate()'s signature.
std::shared_ptr<AggregationStrategy> aggregationStrategy(
    std::function<Exchange*(Exchange* oldExchange, Exchange& newExchange)> fn);

}  // namespace dromedary
