// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Error handlers and redelivery policies, with Camel's names and defaults.
///
/// A route's error handler decides what happens when a step fails: `defaultErrorHandler()`
/// (logs the failure with the message history; the caller sees the error),
/// `deadLetterChannel(uri)` (moves the failed exchange to an endpoint; the caller sees
/// success) or `noErrorHandler()` (the failure goes to whoever called the route, e.g. the
/// route that sent to it over direct:). Both handlers can redeliver: the failing step runs
/// again with the message as it was before that step, after a delay on the context's
/// scheduler that holds no thread.
///
/// Set one for every route of a RouteBuilder with `RouteBuilder::errorHandler(...)`, or for
/// one route with `RouteDefinition::errorHandler(...)`. `onException(...)` clauses refine
/// it per exception type (see RouteDefinition). Everything here is compiled when the route
/// starts; the success path pays nothing for it (see docs/error-handling.md).
///
/// Example:
///   errorHandler(deadLetterChannel("seda:dead")
///                    .maximumRedeliveries(3)
///                    .redeliveryDelay(std::chrono::milliseconds(200))
///                    .useExponentialBackOff()
///                    .useOriginalMessage());

#include <chrono>
#include <memory>
#include <string>

#include <dromedary/core/logging.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/spi/processor.h>

namespace dromedary {

namespace detail {
struct RedeliveryPolicyModel;
struct ErrorHandlerModel;
}  // namespace detail

/// The redelivery options shared by error handlers and onException clauses. An option left
/// unset in an onException clause takes the error handler's value.
#define DROMEDARY_REDELIVERY_OPTIONS(Self)                                                   \
  /** How many times to redeliver: 0 = never (the default), -1 = forever. */               \
  Self& maximumRedeliveries(int count);                                                     \
  /** The first delay between attempts (default 1000 ms). */                               \
  Self& redeliveryDelay(std::chrono::milliseconds delay);                                   \
  /** Each delay is the previous one times this (default 2.0) with exponential back-off. */ \
  Self& backOffMultiplier(double multiplier);                                               \
  Self& useExponentialBackOff(bool enabled = true);                                         \
  /** The largest delay ever used (default 60000 ms). */                                    \
  Self& maximumRedeliveryDelay(std::chrono::milliseconds delay);                            \
  /** Varies each delay randomly by up to +/- the factor (default 0.15). */                \
  Self& useCollisionAvoidance(bool enabled = true);                                         \
  Self& collisionAvoidanceFactor(double factor);                                            \
  /** Delays by attempt, "1:1000;5:5000": from attempt 1 wait 1 s, from 5 wait 5 s. */       \
  Self& delayPattern(std::string pattern);                                                  \
  Self& retryAttemptedLogLevel(LoggingLevel level);                                         \
  Self& retriesExhaustedLogLevel(LoggingLevel level);                                       \
  Self& logStackTrace(bool enabled);                                                        \
  Self& logRetryAttempted(bool enabled);                                                    \
  Self& logExhausted(bool enabled);                                                         \
  Self& logHandled(bool enabled);                                                           \
  Self& logContinued(bool enabled);                                                         \
  Self& logExhaustedMessageHistory(bool enabled);                                           \
  /** Accepted for Camel compatibility: delays never block a thread here. */               \
  Self& asyncDelayedRedelivery(bool enabled = true);

/// An error handler under construction: a value, cheap to copy, compiled per route.
class ErrorHandlerDefinition {
 public:
  enum class Kind { Default, DeadLetterChannel, None };

  explicit ErrorHandlerDefinition(Kind kind, std::string dead_letter_uri = {});
  Kind kind() const noexcept;

  DROMEDARY_REDELIVERY_OPTIONS(ErrorHandlerDefinition)
  /// Redelivers while the predicate holds (instead of counting up to maximumRedeliveries).
  ErrorHandlerDefinition& retryWhile(PredicateDefinition predicate);
  /// Runs before each redelivery, after the message has been restored.
  ErrorHandlerDefinition& onRedelivery(std::shared_ptr<Processor> processor);
  /// The processor bound to `name` in the context (Context::bindProcessor).
  ErrorHandlerDefinition& onRedeliveryRef(std::string name);
  /// Sends the message as it entered the route (or only its body) to the dead letter endpoint
  /// instead of the message as it was when the failure happened.
  ErrorHandlerDefinition& useOriginalMessage();
  ErrorHandlerDefinition& useOriginalBody();
  /// Whether a failure of the dead letter endpoint itself counts as handled (default true,
  /// as Camel: it is logged at WARN and counted as a failure of the route).
  ErrorHandlerDefinition& deadLetterHandleNewException(bool handled);

  std::shared_ptr<const detail::ErrorHandlerModel> modelForEngine() const { return model_; }

 private:
  detail::ErrorHandlerModel& mutableModel();
  detail::RedeliveryPolicyModel* openPolicy(const char* option);
  std::shared_ptr<detail::ErrorHandlerModel> model_;
};

/// Logs failures (with the message history) and lets the caller see them.
ErrorHandlerDefinition defaultErrorHandler();
/// Moves failed exchanges to `uri` once redeliveries are exhausted.
ErrorHandlerDefinition deadLetterChannel(std::string uri);
/// No handling: the failure goes to the caller of the route.
ErrorHandlerDefinition noErrorHandler();

}  // namespace dromedary
