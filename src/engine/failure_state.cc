// SPDX-License-Identifier: Apache-2.0
#include "engine/failure_state.h"

namespace dromedary {

namespace detail {

void FailureStateDeleter::operator()(FailureState* state) const noexcept { delete state; }

FailureState& failureState(Exchange& ex) {
  auto& slot = detail::exec(ex).failure;
  if (!slot) slot.reset(new FailureState());
  return *slot;
}

void resetFailureState(FailureState& fs) noexcept {
  fs.hasOriginal = false;
  fs.redeliveryCounter = 0;
  fs.lastDelayMs = 0;
  fs.lastFailingBlock = nullptr;
  fs.lastFailingIndex = 0;
  fs.contexts.clear();
  fs.pending.clear();
  fs.hasCaught = false;
  fs.historyCount = 0;
}

}  // namespace detail

}  // namespace dromedary
