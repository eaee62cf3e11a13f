// SPDX-License-Identifier: Apache-2.0
#pragma once

/// AggregationRepository: where aggregate() also keeps its groups, so that they survive a
/// restart (Camel's AggregationRepository / RecoverableAggregationRepository, reduced to
/// what the aggregator needs). Groups always live in memory too; a repository is written
/// through on every change and read once, when the aggregator's route starts.
///
/// The aggregator stores an open group under its correlation key after every exchange, and a
/// completed group under a key of its own until the group's steps have finished successfully.
/// On start it carries on with the open groups and runs the completed ones again (their steps
/// did not finish: the process stopped, or they failed).
///
/// Thread-safety: called by the aggregator under its lock; a repository shared by several
/// aggregators must be thread-safe. Failures are thrown (the exchange being aggregated fails).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/exchange.h>

namespace dromedary {

class AggregationRepository {
 public:
  virtual ~AggregationRepository() = default;
  /// Stores `aggregate` under `key`, replacing what was there.
  virtual void add(std::string_view key, const Exchange& aggregate) = 0;
  /// Forgets `key` (absent keys are fine).
  virtual void remove(std::string_view key) = 0;
  /// Everything stored, as exchanges of `context`.
  virtual std::vector<std::pair<std::string, ExchangePtr>> recover(Context& context) = 0;
};

}  // namespace dromedary
