// SPDX-License-Identifier: Apache-2.0
#pragma once

// What an exchange carries for error handling, beyond the plain fields of ExecState: the
// message saved before the running step (redelivery), the message as it entered its first
// route (useOriginalMessage), the failures being handled, and the message history.
// Created on first need and kept with the pooled exchange, so its buffers are reused: a
// steady state of failures and redeliveries allocates nothing here.

#include <array>
#include <cstdint>
#include <vector>

#include <dromedary/core/exchange.h>

#include "engine/exec_state.h"

namespace dromedary {
class Step;
}

namespace dromedary::detail {

struct Route;
struct CompiledErrorHandler;
struct CompiledClause;

/// An onException block or dead letter endpoint at work on a failure.
struct FailureContext {
  ExchangeError caught;
  const Route* route = nullptr;  // the route whose error handler took the failure
  const CompiledErrorHandler* handler = nullptr;
  const CompiledClause* clause = nullptr;
  bool handled = false;
  bool continued = false;
  bool deadLetter = false;  // the failure processor is the dead letter endpoint
  int attempts = 0;         // deliveries tried, for the log line
};

/// One step an exchange went through (message history, when the context keeps it).
struct HistoryEntry {
  const Route* route;
  const Step* step;
  int64_t startNanos;  // steady clock
};
inline constexpr uint32_t kHistorySize = 32;

struct FailureState {
  Message snapshot;  // the message before the running step (Checkpoint::Taken)
  Message original;  // the message as it entered its first route
  bool hasOriginal = false;

  int redeliveryCounter = 0;  // per exchange, as Camel's CamelRedeliveryCounter header
  int64_t lastDelayMs = 0;    // the previous delay for the same step (back-off)
  const void* lastFailingBlock = nullptr;
  uint32_t lastFailingIndex = 0;

  std::vector<FailureContext> contexts;  // failure blocks in progress, innermost last
  std::vector<ExchangeError> pending;    // failures waiting for a doFinally to end
  ExchangeError caught;                  // the last failure handled (caughtError())
  bool hasCaught = false;

  std::array<HistoryEntry, kHistorySize> history;
  uint32_t historyCount = 0;  // entries written (the ring keeps the last kHistorySize)
};

/// The exchange's failure state, created on first use.
FailureState& failureState(Exchange& exchange);
/// Clears for the exchange's next use, keeping capacity.
void resetFailureState(FailureState& state) noexcept;

}  // namespace dromedary::detail
