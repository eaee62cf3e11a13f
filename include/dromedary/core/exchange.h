// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Exchange: one message in flight.
///
/// An exchange carries its pattern (InOnly or InOut), the current Message, exchange
/// properties, an error slot, a lazily created unique id and its creation time. Where it is
/// in its routes (a small fixed stack of frames) lives in plain fields, not a map, so the
/// per-message path touches no allocator. Exchanges are pooled per thread: an exchange a
/// component creates with `context.createExchange()` goes back to the pool when released.
///
/// The error slot (`error()`) is how a failure travels on the hot path: a code, a reason
/// pointing at static text, a subject pointing at stable text (an endpoint URI), the failing
/// node's id, and an exception only when user code threw. Setting it never allocates.
///
/// Example (a processor that parks the exchange and finishes it later on another thread):
///   Status process(Exchange& ex) override {
///     queue.push(&ex);          // another thread later calls ex.resume()
///     return Status::Suspend;   // the route continues at the next node on resume
///   }
///
/// Thread-safety: an exchange is used by one thread at a time; hand-offs (suspend/resume)
/// establish happens-before through whatever queue carries the exchange.

#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include <dromedary/core/message.h>
#include <dromedary/core/result.h>

namespace dromedary {

class Context;
class Exchange;
struct ExchangeRecycler;
/// An exchange from the pool; released back to the pool when it goes out of scope.
using ExchangePtr = std::unique_ptr<Exchange, ExchangeRecycler>;

/// The message exchange pattern.
enum class Pattern : uint8_t { InOnly, InOut };
std::string_view patternName(Pattern pattern) noexcept;

/// What a step returns: go on, wait (the exchange is parked and will be resumed), or fail
/// (the error slot is set).
enum class Status : uint8_t { Continue, Suspend, Fail };

/// The failure recorded on an exchange. Holding only views and an exception_ptr, it is
/// filled without allocation; `message()` builds the text on demand.
struct ExchangeError {
  ErrorCode code = ErrorCode::Ok;
  std::string_view reason;   ///< static text, e.g. "No consumers available on endpoint"
  std::string_view subject;  ///< stable text it is about (endpoint URI), may be empty
  std::string_view nodeId;   ///< the failing node, when known
  std::string_view routeId;  ///< the route of the failing node, when known
  std::exception_ptr exception;  ///< set only when user code threw
  std::string detail;        ///< optional owned text, for rare failures that need it

  bool failed() const noexcept { return code != ErrorCode::Ok; }
  /// "reason: subject" plus the exception's what() or the detail.
  std::string message() const;
  /// What the failure itself says, as Java's getMessage(): a thrown exception's what(), else
  /// message().
  std::string causeMessage() const;
};

namespace detail {
struct Block;
struct Route;
/// One level of the exchange's position: a block of nodes and the next index in it.
struct Frame {
  const Block* block;
  uint32_t index;
  bool routeEntry;  ///< this frame is a route's top block (route exit runs when it pops)
  bool rethrow = false;  ///< a doFinally block run for a failure it passes on when done
  /// The base of a sub-exchange's own unit of work (a split item, a multicast branch): the
  /// route of its block handles failures inside it, as a route frame does.
  bool unitEntry = false;
  uint32_t counter = 0;  ///< loop(): iterations done, and how many to do
  uint32_t limit = 0;
};
inline constexpr uint32_t kMaxFrames = 32;
/// A function run when the exchange has left its last route.
struct CompletionHook {
  void (*fn)(Exchange&, void*) noexcept;
  void* arg;
};
inline constexpr uint32_t kMaxCompletionHooks = 8;
/// Why the exchange stops running steps, successfully (bits of ExecState::stop).
inline constexpr uint8_t kStopRoute = 1;    ///< a stop() step ran
inline constexpr uint8_t kStopHandled = 2;  ///< an error handler handled a failure
/// Whether the message must be saved before the running step changes it (redelivery).
enum class Checkpoint : uint8_t {
  None,   ///< nothing to restore if the step fails
  Armed,  ///< save the message on its first change (Exchange::message())
  Taken,  ///< saved: a redelivery restores it
};
/// Error handling state, created on an exchange's first failure (or checkpoint) and kept
/// with the pooled exchange; defined by the engine.
struct FailureState;
struct FailureStateDeleter {
  void operator()(FailureState* state) const noexcept;
};
/// The state of a split, multicast or recipient list at work on this exchange (at most one
/// at a time), created on first use and kept with the pooled exchange; defined by src/eip.
struct FanOutState;
struct FanOutStateDeleter {
  void operator()(FanOutState* state) const noexcept;
};
/// The part of the execution state that starts at zero on every use of an exchange: kept
/// together so that resetting it is a few wide stores (Exchange::resetExecution).
struct ExecRun {
  uint32_t depth = 0;
  uint32_t base = 0;         ///< depth at which the running loop returns
  bool tailCall = false;     ///< a `to` step is calling a producer: routes may push a frame
  uint8_t stop = 0;          ///< kStopRoute | kStopHandled: the exchange ends, successfully
  Checkpoint checkpoint = Checkpoint::None;
  bool failureHandled = false;  ///< an error handler gave up on the failure: pass it on
  uint32_t hookCount = 0;
  const std::string* toEndpoint = nullptr;  ///< the URI of the last to(): CamelToEndpoint
  const Route* fromRoute = nullptr;
  void (*onDone)(Exchange&, void*) = nullptr;  ///< called when an async run completes
  void* onDoneArg = nullptr;
  /// The onDone its caller said cannot block (processAsync): while onDone is this one, an
  /// I/O thread may resume the exchange (resumeMayBlock).
  void (*nonBlockingDone)(Exchange&, void*) = nullptr;
  // Statistics: a timed exchange (1: its routes, 2: its routes and steps) reads the clock at
  // node boundaries; the others only count.
  uint8_t timed = 0;
  /// A broker delivered the message before (Exchange::isExternalRedelivered); in what would
  /// be padding, so the reset stays the same stores.
  bool externalRedelivered = false;
  /// It waits for a redelivery's delay (set before it is handed to the scheduler): the
  /// resume is not a step's (Exchange::resume counts a step's resumptions).
  bool redeliveryWait = false;
  const void* timedStep = nullptr;  ///< the step whose time runs (a Step)
};
/// Engine-owned execution state, in plain fields.
struct ExecState : ExecRun {
  std::array<Frame, kMaxFrames> frames;
  std::array<CompletionHook, kMaxCompletionHooks> hooks;
  std::unique_ptr<FailureState, FailureStateDeleter> failure;
  std::unique_ptr<FanOutState, FanOutStateDeleter> fanOut;
  int64_t timedStart = 0;
  std::array<int64_t, kMaxFrames> routeStart;  ///< per frame depth, for timed exchanges
};
}  // namespace detail

class Exchange {
 public:
  explicit Exchange(Context* context = nullptr) noexcept;
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  Context* context() const noexcept { return context_; }

  Pattern pattern() const noexcept { return pattern_; }
  void setPattern(Pattern pattern) noexcept { pattern_ = pattern; }

  /// The current message (Camel's getIn()/getMessage()).
  /// (Under an error handler that redelivers, the first non-const access in a step saves
  /// the message, so a redelivery can restore it: use the const overload to only read.)
  Message& message() noexcept {
    if (exec_.checkpoint == detail::Checkpoint::Armed) [[unlikely]] takeCheckpoint();
    return message_;
  }
  const Message& message() const noexcept { return message_; }
  Message& in() noexcept { return message(); }

  Headers& properties() noexcept { return properties_; }
  const Headers& properties() const noexcept { return properties_; }
  const Value* getProperty(std::string_view name) const noexcept { return properties_.get(name); }
  void setProperty(std::string_view name, const Value& value) { properties_.set(name, value); }
  bool removeProperty(std::string_view name) noexcept { return properties_.remove(name); }

  /// The unique id, created on first use (never on the hot path unless asked for).
  const std::string& exchangeId() const;
  /// Creation time, milliseconds since the epoch.
  int64_t createdMillis() const noexcept { return created_ms_; }

  // --- failure ---------------------------------------------------------------
  bool failed() const noexcept { return error_.code != ErrorCode::Ok; }
  const ExchangeError& error() const noexcept { return error_; }
  /// Records a failure with static reason text and a stable subject. Never allocates.
  void fail(ErrorCode code, std::string_view reason, std::string_view subject = {}) noexcept;
  /// Records a failure with an owned detail text (allocates; for rare failures).
  void failWithDetail(ErrorCode code, std::string_view reason, std::string detail);
  /// Records an exception thrown by user code.
  void setException(std::exception_ptr exception) noexcept;
  /// Clears the error slot.
  void clearError() noexcept;
  ExchangeError& mutableErrorForEngine() noexcept { return error_; }

  // --- routing ---------------------------------------------------------------
  /// The id of the route that created this exchange, or empty.
  std::string_view fromRouteId() const noexcept;
  /// The id of the route currently processing this exchange, or empty.
  std::string_view routeId() const noexcept;
  /// True once a stop() step ran: the exchange ends without running further steps.
  bool isRouteStop() const noexcept { return (exec_.stop & detail::kStopRoute) != 0; }
  /// Whether a broker delivered this message before and this is its redelivery (Camel's
  /// isExternalRedelivered: JMSRedelivered, an AMQP delivery-count above 0). Set by the
  /// consumer that made the exchange; counted in its route's externalRedeliveries.
  bool isExternalRedelivered() const noexcept { return exec_.externalRedelivered; }
  void setExternalRedelivered(bool redelivered) noexcept {
    exec_.externalRedelivered = redelivered;
  }

  /// The failure an error handler or doCatch is handling (Camel's CamelExceptionCaught), or
  /// nullptr: set while an onException block, a dead letter endpoint or a doCatch block runs,
  /// and kept after it.
  const ExchangeError* caughtError() const noexcept;

  /// Runs `fn(*this, arg)` once, when the exchange has left its last route (completed or
  /// failed), on the thread that finished it; hooks run newest first. At most 8 per exchange:
  /// returns false when full. What throttle's ConcurrentRequests mode (and later
  /// onCompletion) stand on.
  bool addCompletionHook(void (*fn)(Exchange&, void*) noexcept, void* arg) noexcept {
    if (exec_.hookCount == detail::kMaxCompletionHooks) return false;
    exec_.hooks[exec_.hookCount++] = detail::CompletionHook{fn, arg};
    return true;
  }

  /// Continues a suspended exchange on the calling thread at the step after the one that
  /// suspended it. If the error slot was set before resuming, the exchange fails instead.
  void resume() noexcept;

  /// Copies pattern, message and properties from `other` (not id, error or position).
  void copyFrom(const Exchange& other);

  /// Resets for reuse from a pool (keeps capacity).
  void resetForReuse(Context* context) noexcept;
  /// Resets this (pooled) exchange into a copy of `input`: context, pattern, headers,
  /// properties and creation time, and the body unless `with_body` is false (it is then left
  /// as it was, for the caller to set). Keeps every capacity: how split and multicast make
  /// their sub-exchanges without allocating. Throws only when a copy must grow and cannot.
  /// `with_headers_and_properties` false leaves them as they are: for a caller that knows
  /// they are still a copy of the input's (Headers::version() says so).
  void resetAsCopyOf(const Exchange& input, bool with_body,
                     bool with_headers_and_properties = true);

  /// resetAsCopyOf for a sub-exchange whose last run went through every step in place (no
  /// failure, suspension, frame or hook left: the executor's runUnit says so) and whose
  /// message and properties are still the copy of `input`'s: only what a step can change
  /// outside them is reset (the pattern, the id, the last `to` endpoint).
  void resetAfterRunInPlace(const Exchange& input) noexcept {
    pattern_ = input.pattern_;
    exec_.toEndpoint = nullptr;
    if (!id_.empty()) [[unlikely]] id_.clear();
  }

  detail::ExecState& execForEngine() noexcept { return exec_; }
  const detail::ExecState& execForEngine() const noexcept { return exec_; }
  /// The message without taking a checkpoint (the engine saving or restoring it).
  Message& messageForEngine() noexcept { return message_; }

 private:
  void takeCheckpoint() noexcept;
  void resetExecution() noexcept;
  void copyMessageOf(const Exchange& input, bool with_body, bool with_headers_and_properties);
  /// resetForReuse for an exchange from the pool, whose message and properties the recycler
  /// has already emptied.
  void resetPooled(Context* context) noexcept;
  friend ExchangePtr acquireExchange(Context* context) noexcept;

  Context* context_;
  Pattern pattern_ = Pattern::InOnly;
  Message message_;
  Headers properties_;
  ExchangeError error_;
  mutable std::string id_;
  int64_t created_ms_;
  detail::ExecState exec_;
};

/// Returns an exchange to its thread's pool.
struct ExchangeRecycler {
  void operator()(Exchange* exchange) const noexcept;
};
/// Takes an exchange from this thread's pool (allocating only when the pool is empty).
ExchangePtr acquireExchange(Context* context) noexcept;

}  // namespace dromedary
