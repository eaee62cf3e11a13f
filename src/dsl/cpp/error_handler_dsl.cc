// SPDX-License-Identifier: Apache-2.0
// The C++ DSL of error handling: ErrorHandlerDefinition, and RouteDefinition's onException,
// doTry/doCatch/doFinally, circuitBreaker/onFallback and onCompletion scopes.
#include "engine/error_handler_model.h"
#include "dsl/cpp/route_scope.h"

namespace dromedary {

using detail::RedeliveryPolicyModel;

// --- ErrorHandlerDefinition -----------------------------------------------------------------

ErrorHandlerDefinition::ErrorHandlerDefinition(Kind kind, std::string dead_letter_uri)
    : model_(std::make_shared<detail::ErrorHandlerModel>()) {
  model_->kind = kind;
  model_->deadLetterUri = std::move(dead_letter_uri);
}

ErrorHandlerDefinition::Kind ErrorHandlerDefinition::kind() const noexcept { return model_->kind; }

detail::ErrorHandlerModel& ErrorHandlerDefinition::mutableModel() {
  // Copies share the model until one of them changes it.
  if (model_.use_count() > 1) model_ = std::make_shared<detail::ErrorHandlerModel>(*model_);
  return *model_;
}

RedeliveryPolicyModel* ErrorHandlerDefinition::openPolicy(const char*) {
  return &mutableModel().policy;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::retryWhile(PredicateDefinition predicate) {
  mutableModel().retryWhile = std::move(predicate);
  return *this;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::onRedelivery(std::shared_ptr<Processor> p) {
  mutableModel().onRedelivery = std::move(p);
  return *this;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::onRedeliveryRef(std::string name) {
  mutableModel().onRedeliveryRef = std::move(name);
  return *this;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::useOriginalMessage() {
  mutableModel().useOriginalMessage = true;
  return *this;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::useOriginalBody() {
  mutableModel().useOriginalBody = true;
  return *this;
}

ErrorHandlerDefinition& ErrorHandlerDefinition::deadLetterHandleNewException(bool handled) {
  mutableModel().deadLetterHandleNewException = handled;
  return *this;
}

ErrorHandlerDefinition defaultErrorHandler() {
  return ErrorHandlerDefinition(ErrorHandlerDefinition::Kind::Default);
}

ErrorHandlerDefinition deadLetterChannel(std::string uri) {
  return ErrorHandlerDefinition(ErrorHandlerDefinition::Kind::DeadLetterChannel, std::move(uri));
}

ErrorHandlerDefinition noErrorHandler() {
  return ErrorHandlerDefinition(ErrorHandlerDefinition::Kind::None);
}

// The redelivery options, for both classes: each sets one field of the open policy.
#define DROMEDARY_DEFINE_OPTION(Self, Name, Type, Field, Convert)         \
  Self& Self::Name(Type value) {                                          \
    if (RedeliveryPolicyModel* p = openPolicy(#Name)) p->Field = Convert; \
    return *this;                                                         \
  }
#define DROMEDARY_DEFINE_REDELIVERY_OPTIONS(Self)                                                 \
  DROMEDARY_DEFINE_OPTION(Self, maximumRedeliveries, int, maximumRedeliveries, value)             \
  DROMEDARY_DEFINE_OPTION(Self, redeliveryDelay, std::chrono::milliseconds, redeliveryDelayMs,   \
                          value.count())                                                          \
  DROMEDARY_DEFINE_OPTION(Self, backOffMultiplier, double, backOffMultiplier, value)              \
  DROMEDARY_DEFINE_OPTION(Self, useExponentialBackOff, bool, useExponentialBackOff, value)        \
  DROMEDARY_DEFINE_OPTION(Self, maximumRedeliveryDelay, std::chrono::milliseconds,               \
                          maximumRedeliveryDelayMs, value.count())                                \
  DROMEDARY_DEFINE_OPTION(Self, useCollisionAvoidance, bool, useCollisionAvoidance, value)        \
  DROMEDARY_DEFINE_OPTION(Self, collisionAvoidanceFactor, double, collisionAvoidanceFactor,      \
                          value)                                                                  \
  DROMEDARY_DEFINE_OPTION(Self, delayPattern, std::string, delayPattern, std::move(value))        \
  DROMEDARY_DEFINE_OPTION(Self, retryAttemptedLogLevel, LoggingLevel, retryAttemptedLogLevel,    \
                          value)                                                                  \
  DROMEDARY_DEFINE_OPTION(Self, retriesExhaustedLogLevel, LoggingLevel,                          \
                          retriesExhaustedLogLevel, value)                                        \
  DROMEDARY_DEFINE_OPTION(Self, logStackTrace, bool, logStackTrace, value)                        \
  DROMEDARY_DEFINE_OPTION(Self, logRetryAttempted, bool, logRetryAttempted, value)                \
  DROMEDARY_DEFINE_OPTION(Self, logExhausted, bool, logExhausted, value)                          \
  DROMEDARY_DEFINE_OPTION(Self, logHandled, bool, logHandled, value)                              \
  DROMEDARY_DEFINE_OPTION(Self, logContinued, bool, logContinued, value)                          \
  DROMEDARY_DEFINE_OPTION(Self, logExhaustedMessageHistory, bool, logExhaustedMessageHistory,    \
                          value)                                                                  \
  DROMEDARY_DEFINE_OPTION(Self, asyncDelayedRedelivery, bool, asyncDelayedRedelivery, value)

DROMEDARY_DEFINE_REDELIVERY_OPTIONS(ErrorHandlerDefinition)
DROMEDARY_DEFINE_REDELIVERY_OPTIONS(RouteDefinition)

// --- RouteDefinition: onException ------------------------------------------------------------

RouteDefinition& RouteDefinition::errorHandler(ErrorHandlerDefinition handler) {
  model_->more().errorHandler = handler.modelForEngine();
  return *this;
}

RouteDefinition& RouteDefinition::onException(std::vector<std::string> exception_types) {
  if (scopes_.back().kind != Scope::Root) {
    misuse("onException() must be given at the top of a route, not inside a block");
    return *this;
  }
  auto clause = std::make_shared<detail::OnExceptionModel>();
  clause->exceptions = std::move(exception_types);
  clause->where = model_->where;
  model_->more().onExceptions.push_back(clause);
  scopes_.push_back({Scope::OnException, &clause->body});
  scopes_.back().onException = clause.get();
  return *this;
}

detail::OnExceptionModel* RouteDefinition::openOnException(const char* option) {
  if (scopes_.back().kind == Scope::OnException) return scopes_.back().onException;
  misuse(std::string(option) + "() outside an onException() clause");
  return nullptr;
}

RedeliveryPolicyModel* RouteDefinition::openPolicy(const char* option) {
  detail::OnExceptionModel* clause = openOnException(option);
  return clause ? &clause->policy : nullptr;
}

RouteDefinition& RouteDefinition::handled(PredicateDefinition predicate) {
  if (auto* c = openOnException("handled")) c->handled = std::move(predicate);
  return *this;
}

RouteDefinition& RouteDefinition::handled(bool handled_flag) {
  return handled(PredicateDefinition(constant(Value(handled_flag))));
}

RouteDefinition& RouteDefinition::continued(PredicateDefinition predicate) {
  if (auto* c = openOnException("continued")) c->continued = std::move(predicate);
  return *this;
}

RouteDefinition& RouteDefinition::continued(bool continued_flag) {
  return continued(PredicateDefinition(constant(Value(continued_flag))));
}

RouteDefinition& RouteDefinition::retryWhile(PredicateDefinition predicate) {
  if (auto* c = openOnException("retryWhile")) c->retryWhile = std::move(predicate);
  return *this;
}

RouteDefinition& RouteDefinition::useOriginalMessage() {
  if (auto* c = openOnException("useOriginalMessage")) c->useOriginalMessage = true;
  return *this;
}

RouteDefinition& RouteDefinition::useOriginalBody() {
  if (auto* c = openOnException("useOriginalBody")) c->useOriginalBody = true;
  return *this;
}

RouteDefinition& RouteDefinition::onRedelivery(std::shared_ptr<Processor> processor) {
  if (auto* c = openOnException("onRedelivery")) c->onRedelivery = std::move(processor);
  return *this;
}

RouteDefinition& RouteDefinition::onRedeliveryRef(std::string name) {
  if (auto* c = openOnException("onRedeliveryRef")) c->onRedeliveryRef = std::move(name);
  return *this;
}

RouteDefinition& RouteDefinition::onWhen(PredicateDefinition predicate) {
  Scope& top = scopes_.back();
  switch (top.kind) {
    case Scope::OnException: top.onException->onWhen = std::move(predicate); break;
    case Scope::Catch: top.doCatch->onWhen = std::move(predicate); break;
    case Scope::OnCompletion: top.onCompletion->onWhen = std::move(predicate); break;
    case Scope::Intercept: top.intercept->onWhen = std::move(predicate); break;
    default: misuse("onWhen() outside onException(), doCatch(), onCompletion() or intercept()");
  }
  return *this;
}

// --- doTry / doCatch / doFinally ------------------------------------------------------------

RouteDefinition& RouteDefinition::doTry() {
  detail::BlockModel* block = currentBlock();
  if (!block) return *this;
  auto step = std::make_unique<eip::TryModel>();
  eip::TryModel* t = step.get();
  block->steps.push_back(std::move(step));
  scopes_.push_back({Scope::Try, &t->body});
  scopes_.back().doTry = t;
  return *this;
}

RouteDefinition& RouteDefinition::doCatch(std::vector<std::string> exception_types) {
  Scope::Kind k = scopes_.back().kind;
  if (k == Scope::Finally) {
    misuse("doCatch() after doFinally(): doFinally() comes last");
    return *this;
  }
  if (k == Scope::Catch) scopes_.pop_back();
  if (scopes_.back().kind != Scope::Try) {
    misuse("doCatch() without an open doTry()");
    return *this;
  }
  eip::TryModel* t = scopes_.back().doTry;
  auto c = std::make_unique<eip::TryModel::CatchModel>();
  c->exceptions = std::move(exception_types);
  eip::TryModel::CatchModel* raw = c.get();
  t->catches.push_back(std::move(c));
  scopes_.push_back({Scope::Catch, &raw->body});
  scopes_.back().doTry = t;
  scopes_.back().doCatch = raw;
  return *this;
}

RouteDefinition& RouteDefinition::doFinally() {
  Scope::Kind k = scopes_.back().kind;
  if (k == Scope::Catch) scopes_.pop_back();
  if (scopes_.back().kind != Scope::Try) {
    misuse(k == Scope::Finally ? "doFinally() given twice in one doTry()"
                               : "doFinally() without an open doTry()");
    return *this;
  }
  eip::TryModel* t = scopes_.back().doTry;
  t->finallyBody = std::make_unique<detail::BlockModel>();
  scopes_.push_back({Scope::Finally, t->finallyBody.get()});
  scopes_.back().doTry = t;
  return *this;
}

// --- circuitBreaker / onFallback -------------------------------------------------------------

RouteDefinition& RouteDefinition::circuitBreaker(CircuitBreakerConfig config) {
  detail::BlockModel* block = currentBlock();
  if (!block) return *this;
  auto step = std::make_unique<eip::CircuitBreakerModel>();
  step->config = std::move(config);
  eip::CircuitBreakerModel* cb = step.get();
  block->steps.push_back(std::move(step));
  scopes_.push_back({Scope::CircuitBreaker, &cb->body});
  scopes_.back().circuitBreaker = cb;
  return *this;
}

RouteDefinition& RouteDefinition::inheritErrorHandler(bool inherit) {
  Scope::Kind k = scopes_.back().kind;
  if (k != Scope::CircuitBreaker && k != Scope::Fallback) {
    misuse("inheritErrorHandler() outside a circuitBreaker()");
    return *this;
  }
  scopes_.back().circuitBreaker->inheritErrorHandler = inherit;
  return *this;
}

RouteDefinition& RouteDefinition::onFallback() {
  Scope::Kind k = scopes_.back().kind;
  if (k != Scope::CircuitBreaker) {
    misuse(k == Scope::Fallback ? "onFallback() given twice in one circuitBreaker()"
                                : "onFallback() without an open circuitBreaker()");
    return *this;
  }
  eip::CircuitBreakerModel* cb = scopes_.back().circuitBreaker;
  cb->fallback = std::make_unique<detail::BlockModel>();
  scopes_.push_back({Scope::Fallback, cb->fallback.get()});
  scopes_.back().circuitBreaker = cb;
  return *this;
}

// --- onCompletion ----------------------------------------------------------------------------

RouteDefinition& RouteDefinition::onCompletion() {
  if (scopes_.back().kind != Scope::Root) {
    misuse("onCompletion() must be given at the top of a route, not inside a block");
    return *this;
  }
  auto oc = std::make_shared<detail::OnCompletionModel>();
  oc->where = model_->where;
  model_->more().onCompletions.push_back(oc);
  scopes_.push_back({Scope::OnCompletion, &oc->body});
  scopes_.back().onCompletion = oc.get();
  return *this;
}

RouteDefinition& RouteDefinition::onCompleteOnly() {
  if (scopes_.back().kind != Scope::OnCompletion) {
    misuse("onCompleteOnly() outside onCompletion()");
  } else {
    scopes_.back().onCompletion->onCompleteOnly = true;
  }
  return *this;
}

RouteDefinition& RouteDefinition::onFailureOnly() {
  if (scopes_.back().kind != Scope::OnCompletion) {
    misuse("onFailureOnly() outside onCompletion()");
  } else {
    scopes_.back().onCompletion->onFailureOnly = true;
  }
  return *this;
}

}  // namespace dromedary
