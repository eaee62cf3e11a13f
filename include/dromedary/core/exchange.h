// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Exchange: one message in flight.
///
/// An exchange carries its pattern (InOnly or InOut), the current Message, exchange
/// properties, an error slot, a lazily created unique id and its creation time. Where it is
/// in its routes is the engine's business: a block the engine owns (detail::EngineBlock),
/// made the first time it runs the exchange and kept with it, so the per-message path touches
/// no allocator. Exchanges are pooled per thread: an exchange a component creates with
/// `context.createExchange()` goes back to the pool when released.
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
/// A function run when the exchange has left its last route.
struct CompletionHook {
  void (*fn)(Exchange&, void*) noexcept;
  void* arg;
};
inline constexpr uint32_t kMaxCompletionHooks = 8;
/// Whether the message must be saved before the running step changes it (redelivery).
enum class Checkpoint : uint8_t {
  None,   ///< nothing to restore if the step fails
  Armed,  ///< save the message on its first change (Exchange::message())
  Taken,  ///< saved: a redelivery restores it
};
/// The engine's state for one exchange (where it is in its routes, its failure handling, a
/// fan-out at work), as core sees it: an interface the engine implements. Every exchange has
/// one from its construction (newEngineBlock) and a pooled exchange keeps it, so running it
/// allocates nothing. Core knows nothing of what is inside.
class EngineBlock {
 public:
  virtual ~EngineBlock() = default;
  /// Exchange::resume().
  virtual void resume(Exchange& exchange) noexcept = 0;
  /// Saves the message before a step changes it (Checkpoint::Armed).
  virtual void takeCheckpoint(Exchange& exchange) noexcept = 0;
  virtual std::string_view fromRouteId() const noexcept = 0;
  virtual std::string_view routeId() const noexcept = 0;
  virtual bool isRouteStop() const noexcept = 0;
  virtual const ExchangeError* caughtError() const noexcept = 0;
};
/// Makes an exchange's engine block, and resets it for the exchange's next use (from the
/// pool, or as a fresh copy of another). Declared here and defined by the engine: the one
/// place core calls up, by link rather than include, so that every exchange the engine sees
/// has its block without a test on the per-message path, and a reset is a direct call.
EngineBlock* newEngineBlock();
void resetEngineBlock(EngineBlock& block) noexcept;
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
    if (checkpoint_ == detail::Checkpoint::Armed) [[unlikely]] takeCheckpoint();
    return message_;
  }
  const Message& message() const noexcept { return message_; }
  Message& in() noexcept { return message(); }

  Headers& properties() noexcept { return properties_; }
  const Headers& properties() const noexcept { return properties_; }
  const Value* getProperty(std::string_view name) const noexcept { return properties_.get(name); }
  const Value* getProperty(const HeaderKey& key) const noexcept { return properties_.get(key); }
  void setProperty(std::string_view name, const Value& value) { properties_.set(name, value); }
  bool removeProperty(std::string_view name) noexcept { return properties_.remove(name); }

  /// Camel 4's exchange variables: values of the exchange's own that no EIP or component uses
  /// (properties are also the engine's). Kept apart, made on first use, so an exchange that
  /// has none pays nothing. These are the exchange's own: `global:` and `route:` variables
  /// live in the context (engine/variables.h resolves the prefixes).
  /// (Each call moves properties().version() on: a copy whose properties' version has not
  /// moved has the same variables too, which is how split skips copying an unchanged item.)
  Headers& variables() {
    properties_.touch();
    if (!variables_) variables_ = std::make_unique<Headers>();
    return *variables_;
  }
  /// The variables, or null when none was ever set.
  const Headers* variablesIfAny() const noexcept { return variables_.get(); }
  bool hasVariables() const noexcept { return variables_ && !variables_->empty(); }
  const Value* getVariable(std::string_view name) const noexcept {
    return variables_ ? variables_->get(name) : nullptr;
  }
  void setVariable(std::string_view name, const Value& value) { variables().set(name, value); }
  bool removeVariable(std::string_view name) noexcept {
    properties_.touch();
    return variables_ && variables_->remove(name);
  }
  void clearVariables() noexcept {
    if (variables_) [[unlikely]] {
      properties_.touch();
      variables_->clear();
    }
  }

  /// The unique id, created on first use (never on the hot path unless asked for): as Camel
  /// 4's default generator, a prefix random per process and a 16-digit hex counter
  /// ("3F9C1A2B7D4E5F6-000000000000002a"), unique across instances of the same routes.
  const std::string& exchangeId() const;
  /// The id if exchangeId() made it already, else empty: never makes one (the flight
  /// recorder's way to name an exchange without formatting an id for it).
  std::string_view exchangeIdIfMade() const noexcept { return id_; }
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
  bool isRouteStop() const noexcept { return engine_->isRouteStop(); }
  /// Whether a broker delivered this message before and this is its redelivery (Camel's
  /// isExternalRedelivered: JMSRedelivered, an AMQP delivery-count above 0). Set by the
  /// consumer that made the exchange; counted in its route's externalRedeliveries.
  bool isExternalRedelivered() const noexcept { return external_redelivered_; }
  void setExternalRedelivered(bool redelivered) noexcept { external_redelivered_ = redelivered; }

  /// The failure an error handler or doCatch is handling (Camel's CamelExceptionCaught), or
  /// nullptr: set while an onException block, a dead letter endpoint or a doCatch block runs,
  /// and kept after it.
  const ExchangeError* caughtError() const noexcept;

  /// Runs `fn(*this, arg)` once, when the exchange has left its last route (completed or
  /// failed), on the thread that finished it; hooks run newest first. At most 8 per exchange:
  /// returns false when full. What throttle's ConcurrentRequests mode (and later
  /// onCompletion) stand on.
  bool addCompletionHook(void (*fn)(Exchange&, void*) noexcept, void* arg) noexcept {
    if (hook_count_ == detail::kMaxCompletionHooks) return false;
    hooks_[hook_count_++] = detail::CompletionHook{fn, arg};
    return true;
  }

  /// Continues a suspended exchange on the calling thread at the step after the one that
  /// suspended it. If the error slot was set before resuming, the exchange fails instead.
  void resume() noexcept;

  /// Copies pattern, message, properties and variables from `other` (not id, error or
  /// position).
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
  /// outside them here is reset (the pattern, the id); the engine resets its own part.
  void resetAfterRunInPlace(const Exchange& input) noexcept {
    pattern_ = input.pattern_;
    if (!id_.empty()) [[unlikely]] id_.clear();
  }

  // --- for the engine ----------------------------------------------------------
  /// The engine's block (never null).
  detail::EngineBlock& engineBlock() noexcept { return *engine_; }
  const detail::EngineBlock& engineBlock() const noexcept { return *engine_; }
  /// The message without taking a checkpoint (the engine saving or restoring it).
  Message& messageForEngine() noexcept { return message_; }
  detail::Checkpoint checkpoint() const noexcept { return checkpoint_; }
  void setCheckpoint(detail::Checkpoint checkpoint) noexcept { checkpoint_ = checkpoint; }
  /// The completion hooks added so far (run newest first, by the engine).
  uint32_t completionHookCount() const noexcept { return hook_count_; }
  const detail::CompletionHook& completionHook(uint32_t i) const noexcept { return hooks_[i]; }
  /// Removes and returns the newest hook; completionHookCount() must be above 0.
  detail::CompletionHook popCompletionHook() noexcept { return hooks_[--hook_count_]; }

 private:
  void takeCheckpoint() noexcept;
  void resetExecution() noexcept;
  void copyMessageOf(const Exchange& input, bool with_body, bool with_headers_and_properties);
  void copyVariablesOf(const Exchange& other);
  /// resetForReuse for an exchange from the pool, whose message and properties the recycler
  /// has already emptied.
  void resetPooled(Context* context) noexcept;
  friend ExchangePtr acquireExchange(Context* context) noexcept;

  Context* context_;
  Pattern pattern_ = Pattern::InOnly;
  Message message_;
  Headers properties_;
  std::unique_ptr<Headers> variables_;  // null until a variable is set
  ExchangeError error_;
  mutable std::string id_;
  int64_t created_ms_;
  detail::Checkpoint checkpoint_ = detail::Checkpoint::None;
  bool external_redelivered_ = false;
  uint32_t hook_count_ = 0;
  std::array<detail::CompletionHook, detail::kMaxCompletionHooks> hooks_;
  std::unique_ptr<detail::EngineBlock> engine_;
};

/// Returns an exchange to its thread's pool.
struct ExchangeRecycler {
  void operator()(Exchange* exchange) const noexcept;
};
/// Takes an exchange from this thread's pool (allocating only when the pool is empty).
ExchangePtr acquireExchange(Context* context) noexcept;

}  // namespace dromedary
