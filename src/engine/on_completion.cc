// SPDX-License-Identifier: Apache-2.0
// onCompletion: a block that runs when an exchange has left its last route, on a copy of
// it (so it cannot change the reply), filtered by onCompleteOnly / onFailureOnly / onWhen.
// Registered as a completion hook when the exchange enters a route that has one; the copy
// comes from the exchange pool, so nothing is allocated in steady state.
#include <fmt/format.h>

#include "engine/failure_path.h"
#include "engine/executor.h"
#include "engine/failure_state.h"

namespace dromedary::detail {

namespace {

void onCompletionDone(Exchange& copy, void* arg) noexcept {
  const auto& oc = *static_cast<const CompiledOnCompletion*>(arg);
  if (copy.failed()) {
    static const Logger log = Logger::get("dromedary.onCompletion");
    if (log.enabled(LoggingLevel::Warn)) {
      try {
        log.log(LoggingLevel::Warn, fmt::format("onCompletion of route '{}' failed: {}",
                                                oc.route->id, copy.error().message()));
      } catch (...) {
      }
    }
  }
  ExchangeRecycler{}(&copy);
}

void runOnCompletion(Exchange& ex, void* arg) noexcept {
  const auto& oc = *static_cast<const CompiledOnCompletion*>(arg);
  const bool failed = ex.failed();
  if ((oc.onCompleteOnly && failed) || (oc.onFailureOnly && !failed)) return;
  if (oc.onWhen && !matchesOnFailure(ex, *oc.onWhen)) return;
  ExchangePtr copy = acquireExchange(ex.context());
  try {
    copy->copyFrom(ex);
    copy->setPattern(Pattern::InOnly);
    copy->properties().slot("CamelOnCompletion") = true;
    if (failed) {
      FailureState& fs = failureState(*copy);
      fs.caught = ex.error();
      fs.hasCaught = true;
      copy->properties().slot("CamelExceptionCaught") = ex.error().message();
    }
  } catch (...) {
    return;  // out of memory: the copy goes back to the pool
  }
  Exchange* raw = copy.release();
  ExecState& st = detail::exec(*raw);
  st.onDone = &onCompletionDone;
  st.onDoneArg = arg;
  if (!pushBlock(*raw, *oc.block)) {
    onCompletionDone(*raw, arg);
    return;
  }
  // Suspended: whoever resumes it last calls onCompletionDone.
  if (run(*raw) != Status::Suspend) onCompletionDone(*raw, arg);
}

}  // namespace

void registerOnCompletions(Exchange& ex, const Route& route) noexcept {
  for (const auto& oc : route.onCompletions()) {
    bool present = false;
    for (uint32_t k = 0; k < ex.completionHookCount(); ++k) {
      present = present || ex.completionHook(k).arg == oc.get();
    }
    if (!present) ex.addCompletionHook(&runOnCompletion, oc.get());
  }
}

}  // namespace dromedary::detail
