// SPDX-License-Identifier: Apache-2.0
#include <dromedary/spi/consumer_waits.h>

#include <algorithm>
#include <condition_variable>

#include <dromedary/core/exchange.h>
#include <dromedary/spi/component.h>

namespace dromedary {

// Held by its thread and, while an exchange is in flight, by that exchange: a wait given up
// leaves the slot to the exchange, whose end frees it when the thread has left.
//
// No lock when the exchange ends before the thread waits (most do: nothing suspended them):
// the end and the give-up each move the state from Running with a compare-and-swap, and the
// thread sleeps on the condition only when the exchange is still running. The end notifies
// only a thread that said it sleeps (`sleeping`); both sides use sequentially consistent
// operations, so that of "the thread says it sleeps, then looks at the state" and "the end
// moves the state, then looks whether it sleeps" at least one sees the other.
struct ConsumerWaits::Slot {
  enum class State : uint8_t { Idle, Running, Done, Abandoned };

  std::atomic<int> refs{1};
  std::atomic<State> state{State::Idle};
  std::atomic<bool> sleeping{false};
  std::mutex mutex;
  std::condition_variable ended;
  WhenAbandoned whenAbandoned = nullptr;
  void* arg = nullptr;

  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Wakes the thread if it sleeps (under the lock, so that it cannot be between its look at
  // the state and its sleep).
  void wake() noexcept {
    std::lock_guard lock(mutex);
    ended.notify_one();
  }

  static void onEnd(Exchange& exchange, void* self) noexcept {
    auto* slot = static_cast<Slot*>(self);
    State running = State::Running;
    if (slot->state.compare_exchange_strong(running, State::Done)) {
      if (slot->sleeping.load()) slot->wake();
    } else {  // given up: the exchange is the callback's
      slot->whenAbandoned(exchange, slot->arg);
    }
    slot->release();  // the exchange's reference
  }
};

ConsumerWaits::~ConsumerWaits() = default;

void ConsumerWaits::recycle(Exchange& exchange, void*) noexcept { ExchangeRecycler{}(&exchange); }

ConsumerWaits::Slot* ConsumerWaits::join() {
  auto* slot = new Slot();
  std::lock_guard lock(mutex_);
  slots_.push_back(slot);
  return slot;
}

void ConsumerWaits::leave(Slot* slot) noexcept {
  {
    std::lock_guard lock(mutex_);
    slots_.erase(std::remove(slots_.begin(), slots_.end(), slot), slots_.end());
  }
  slot->release();
}

ConsumerWaits::Outcome ConsumerWaits::process(Slot& slot, Exchange& exchange,
                                              Processor& processor, WhenAbandoned when_abandoned,
                                              void* arg) noexcept {
  using State = Slot::State;
  // A slot given up is its exchange's until that ends; its thread routes nothing more.
  if (slot.state.load() == State::Abandoned) return Outcome::Refused;
  slot.whenAbandoned = when_abandoned;
  slot.arg = arg;
  slot.state.store(State::Running);
  // abandon() sets its flag before it visits the slots: either it is seen here, or abandon()
  // finds this slot running (and gives it up, with no exchange in it yet).
  if (abandoning()) {
    slot.state.store(State::Idle);
    return Outcome::Refused;
  }
  slot.refs.fetch_add(1, std::memory_order_relaxed);  // the exchange's
  processAsync(exchange, processor, &Slot::onEnd, &slot);
  if (slot.state.load() == State::Running) {
    std::unique_lock lock(slot.mutex);
    slot.sleeping.store(true);
    slot.ended.wait(lock, [&] { return slot.state.load() != State::Running; });
    slot.sleeping.store(false);
  }
  if (slot.state.load() == State::Abandoned) return Outcome::Abandoned;
  slot.state.store(State::Idle);
  return exchange.failed() ? Outcome::Failed : Outcome::Completed;
}

void ConsumerWaits::abandon() noexcept {
  abandoning_.store(true);
  std::lock_guard lock(mutex_);
  for (Slot* slot : slots_) {
    Slot::State running = Slot::State::Running;
    if (slot->state.compare_exchange_strong(running, Slot::State::Abandoned)) slot->wake();
  }
}

}  // namespace dromedary
