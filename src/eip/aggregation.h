// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the fan-out steps need to know about a strategy beyond aggregate(): UseOriginal is
// carried out by the step itself (the input exchange is the result; only failures move).

#include <dromedary/engine/aggregation_strategy.h>

namespace dromedary::eip {

class UseOriginalStrategy final : public AggregationStrategy {
 public:
  explicit UseOriginalStrategy(bool propagate_exception) : propagate(propagate_exception) {}
  Exchange* aggregate(Exchange* old, Exchange& ex) override;
  const bool propagate;
};

/// True for AggregationStrategies::useOriginal(); sets `*propagate` to its option.
bool isUseOriginal(const AggregationStrategy* strategy, bool* propagate) noexcept;

/// enrich / pollEnrich: folds `resource` into `ex` through `strategy` (null: the resource's
/// message is swapped in, not copied). A failed resource fails `ex` unless `on_exception`
/// lets the strategy see it. Continue, or Fail with `ex`'s error slot set.
Status enrichWith(Exchange& ex, Exchange& resource, AggregationStrategy* strategy,
                  bool on_exception) noexcept;

}  // namespace dromedary::eip
