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

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/spi/language.h>

namespace dromedary {

/// How the aggregator runs again the completed groups whose steps failed (Camel's
/// RecoverableAggregationRepository): every `interval`, the groups this instance completed and
/// that are not running; after `maximumRedeliveries` runs again (0: no limit) a group goes to
/// `deadLetterUri` and is forgotten. Groups are also run again once when the route starts.
struct AggregationRecovery {
  bool enabled = false;
  std::chrono::milliseconds interval{5000};
  int maximumRedeliveries = 0;
  std::string deadLetterUri;
};

class AggregationRepository {
 public:
  virtual ~AggregationRepository() = default;
  /// Stores `aggregate` under `key`, replacing what was there.
  virtual void add(std::string_view key, const Exchange& aggregate) = 0;
  /// Forgets `key` (absent keys are fine).
  virtual void remove(std::string_view key) = 0;
  /// Everything stored, as exchanges of `context`.
  virtual std::vector<std::pair<std::string, ExchangePtr>> recover(Context& context) = 0;

  // --- Optimistic locking: a repository shared by several instances -----------------------
  /// True for a repository that several processes may share with the aggregator's
  /// `optimisticLocking` (Camel's, on a JDBC repository): the aggregator then keeps no group in
  /// memory. For every exchange it reads the group (get), folds the exchange in, and writes it
  /// back with the version it read (put, or complete when the group completed); a write that
  /// finds another version (another instance wrote first) returns false, and the aggregator
  /// reads and folds again. Nothing is lost and nothing counted twice. Completions by time
  /// (completionTimeout, completionInterval) are not available then.
  virtual bool supportsOptimisticLocking() const noexcept { return false; }
  /// Whether and how completed groups whose steps failed run again (default: only at start).
  virtual AggregationRecovery recovery() const { return {}; }
  /// The completed groups waiting for their steps (what recover() returns of them); by
  /// default all of recover(), which the aggregator filters.
  virtual std::vector<std::pair<std::string, ExchangePtr>> completedGroups(Context& context) {
    return recover(context);
  }
  /// The group under `key` and its version; null and 0 when there is none.
  virtual std::pair<ExchangePtr, int64_t> get(Context& context, std::string_view key) {
    (void)context;
    (void)key;
    return {ExchangePtr(), 0};
  }

  /// What a conditional write did.
  enum class Write {
    Written,    ///< stored
    Conflict,   ///< another writer changed the group first: read and fold again
    Duplicate,  ///< the member was folded before (see memberId): nothing stored
  };

  /// How the aggregator names each exchange it folds, for a repository that remembers the
  /// members it folded (null: it does not). The aggregator evaluates it on the exchange and
  /// passes the text to put and complete, which write it in the same transaction as the group
  /// and refuse a member written before: a record delivered twice (a broker's redelivery, a
  /// Kafka partition read again after a rebalance) is then folded once, whichever instance
  /// gets it, even after its group completed.
  virtual const Expression* memberId() const noexcept { return nullptr; }

  /// Stores `aggregate` under `key` if the stored version is still `version` (0: no group yet)
  /// and `member` (empty: none) was not folded before.
  virtual Write put(std::string_view key, const Exchange& aggregate, int64_t version,
                    std::string_view member) {
    (void)version;
    (void)member;
    add(key, aggregate);
    return Write::Written;
  }

  /// In one transaction: removes `key` if its version is still `version` (-1: whatever it is)
  /// and `member` (empty: none) was not folded before, and stores the completed `aggregate`
  /// under `completed_key` (until its steps succeed).
  virtual Write complete(std::string_view key, int64_t version, std::string_view completed_key,
                         const Exchange& aggregate, std::string_view member) {
    (void)version;
    (void)member;
    add(completed_key, aggregate);
    remove(key);
    return Write::Written;
  }
};

}  // namespace dromedary
