// SPDX-License-Identifier: Apache-2.0
#pragma once

/// ConsumerWaits: for a consumer whose own threads route one exchange at a time and wait for
/// each (processAndWait's use: a queue's threads, a poll's thread), a wait the consumer can
/// give up on. A context's stop waits for the exchanges in flight up to its shutdown timeout;
/// past it the consumer must go even while an exchange hangs (a long delay, a reply that never
/// comes). abandon() makes every waiting thread return at once; each exchange it waited for
/// ends alone, and its end goes to the callback given with it instead of the thread.
///
/// Nothing is allocated per exchange (each thread takes one Slot for its life), and no lock is
/// taken for an exchange that ends before its thread waits.
///
/// Example:
///   ConsumerWaits waits;  // the consumer's
///   // on each of its threads:
///   ConsumerWaits::Member member(waits);
///   while (...) {
///     auto outcome = waits.process(member.slot(), exchange, route, &ConsumerWaits::recycle,
///                                  nullptr);
///     if (outcome == ConsumerWaits::Outcome::Abandoned) break;  // no longer ours
///     ...
///   }
///   // on stop, past the timeout:
///   waits.abandon();

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace dromedary {

class Exchange;
class Processor;

class ConsumerWaits {
 public:
  enum class Outcome : uint8_t {
    Completed,  ///< ended; the exchange is the caller's again
    Failed,     ///< ended failed; the exchange is the caller's again
    Abandoned,  ///< abandon() came meanwhile: it ends alone and goes to `when_abandoned`
    Refused,    ///< abandon() came first: not routed, the exchange is still the caller's
  };
  /// Called at the end of an exchange whose wait was given up, on whichever thread ends it;
  /// the exchange is its to recycle or hand on.
  using WhenAbandoned = void (*)(Exchange& exchange, void* arg) noexcept;
  /// A WhenAbandoned that gives the exchange back to its pool (nothing waits for its result).
  static void recycle(Exchange& exchange, void* arg) noexcept;
  /// A thread's place to wait (opaque).
  struct Slot;

  ConsumerWaits() = default;
  ConsumerWaits(const ConsumerWaits&) = delete;
  ConsumerWaits& operator=(const ConsumerWaits&) = delete;
  /// Every thread has left.
  ~ConsumerWaits();

  /// A slot for the calling thread, until leave().
  Slot* join();
  void leave(Slot* slot) noexcept;
  /// A thread's slot for as long as this object lives (join() and leave() paired).
  class Member {
   public:
    explicit Member(ConsumerWaits& waits) : waits_(waits), slot_(waits.join()) {}
    ~Member() { waits_.leave(slot_); }
    Member(const Member&) = delete;
    Member& operator=(const Member&) = delete;
    Slot& slot() const noexcept { return *slot_; }

   private:
    ConsumerWaits& waits_;
    Slot* slot_;
  };

  /// Routes `exchange` through `processor` on this thread and waits for its end, also when a
  /// step suspended it.
  Outcome process(Slot& slot, Exchange& exchange, Processor& processor,
                  WhenAbandoned when_abandoned, void* arg) noexcept;

  /// The waits under way return Abandoned, and process() refuses from now on.
  void abandon() noexcept;
  /// process() routes again (the consumer starts again).
  void reset() noexcept { abandoning_.store(false, std::memory_order_release); }
  bool abandoning() const noexcept { return abandoning_.load(); }  // seq_cst: see process()

 private:
  std::atomic<bool> abandoning_{false};
  std::mutex mutex_;
  std::vector<Slot*> slots_;  // under mutex_
};

}  // namespace dromedary
