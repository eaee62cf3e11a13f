// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Processor: one step of work on an exchange.
///
/// A processor returns a Status: Continue (done; the route goes on), Fail (the exchange's
/// error slot is set), or Suspend (the processor has parked the exchange and someone will
/// call `exchange.resume()` later, from any thread; the route continues at the next node
/// without holding a thread while it waits).
///
/// User processors may throw: the engine catches at the node boundary and records the
/// exception on the exchange for the error handler. Built-in steps never throw.
///
/// Example:
///   class Upper : public Processor {
///     Status process(Exchange& ex) override {
///       std::string s = ex.message().body().as<std::string>();
///       for (char& c : s) c = std::toupper(c);
///       ex.message().setBody(std::move(s));
///       return Status::Continue;
///     }
///   };
///
/// Thread-safety: one processor instance serves every exchange of its route, concurrently.
///
/// `mayBlock()`: whether `process` may wait before it returns (a lock, I/O, a sleep, another
/// exchange). A consumer on an I/O thread (amqp) runs its route on that thread, with no thread
/// hand-off, only when nothing in the route may block; anything else runs on the workers.
/// The default is true, and a user processor keeps it unless it is sure: a processor that
/// returns promptly, or parks the exchange and returns Suspend, may return false.

#include <functional>
#include <memory>

#include <dromedary/core/exchange.h>

namespace dromedary {

class Processor {
 public:
  virtual ~Processor() = default;
  virtual Status process(Exchange& exchange) = 0;
  virtual bool mayBlock() const noexcept { return true; }
};

/// A processor from a function (Fail when it leaves the exchange failed), for onRedelivery
/// and other places that take a Processor.
std::shared_ptr<Processor> processorOf(std::function<void(Exchange&)> fn);

}  // namespace dromedary
