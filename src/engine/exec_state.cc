// SPDX-License-Identifier: Apache-2.0
#include "engine/exec_state.h"

#include "engine/executor.h"
#include "engine/failure_state.h"

namespace dromedary::detail {

EngineBlock* newEngineBlock() { return new ExecState(); }

void resetEngineBlock(EngineBlock& block) noexcept { static_cast<ExecState&>(block).reset(); }

void ExecState::reset() noexcept {
  static_cast<ExecRun&>(*this) = ExecRun{};
  if (failure) resetFailureState(*failure);
}

void ExecState::resume(Exchange& exchange) noexcept {
  tailCall = false;  // left set by the `to` whose producer suspended (callProducer)
  countResumed(exchange);
  if (run(exchange) == Status::Suspend) return;
  // Read both before the call: the waiting side may recycle the exchange right after.
  auto done = onDone;
  void* arg = onDoneArg;
  if (done) done(exchange, arg);
}

void ExecState::takeCheckpoint(Exchange& exchange) noexcept {
  FailureState& fs = failureState(exchange);
  // Assigning keeps the snapshot's capacity: no allocation once it has held a message.
  const Message& current = exchange.messageForEngine();
  fs.snapshot.headers() = current.headers();
  fs.snapshot.body() = current.body();
  exchange.setCheckpoint(Checkpoint::Taken);
}

std::string_view ExecState::fromRouteId() const noexcept {
  return fromRoute ? std::string_view(fromRoute->id) : std::string_view();
}

std::string_view ExecState::routeId() const noexcept {
  const Route* r = currentRoute(*this);
  return r ? std::string_view(r->id) : std::string_view();
}

const ExchangeError* ExecState::caughtError() const noexcept {
  return failure && failure->hasCaught ? &failure->caught : nullptr;
}

}  // namespace dromedary::detail
