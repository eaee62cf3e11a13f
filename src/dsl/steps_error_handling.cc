// SPDX-License-Identifier: Apache-2.0
// The error handling of route files: error handlers, onException and onCompletion clauses,
// redelivery policies, routeConfigurations named by a route, and the doTry and circuitBreaker
// steps.
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include "core/name_pattern.h"
#include "core/text.h"
#include "dsl/translator.h"
#include "engine/intercept.h"
#include "engine/failure_path.h"
#include "eip/eip_schemas.h"

namespace dromedary::dsl {

namespace {

Result<void> doTry(Translator& t, RouteDefinition& def, const StepSource& s,
                   const std::optional<ExpressionDefinition>&) {
  return t.doTry(def, s);
}

Result<void> throwException(Translator& t, RouteDefinition& def, const StepSource& s,
                            const std::optional<ExpressionDefinition>&) {
  DROMEDARY_TRY(type, t.exceptionName(*attribute(s.attributes, "exceptionType"), s.kind));
  std::string message;
  if (const Scalar* m = attribute(s.attributes, "message")) {
    DROMEDARY_TRY(v, t.resolve(*m));
    message = std::move(v);
  }
  def.throwException(std::move(type), std::move(message));
  return {};
}

// A decimal attribute of a clause, or `fallback` when absent.
Result<double> decimal(Translator& t, const StepSource& s, std::string_view key, double fallback) {
  const Scalar* a = attribute(s.attributes, key);
  if (!a) return fallback;
  DROMEDARY_TRY(v, t.resolve(*a));
  if (isTemplateStandIn(v)) return fallback;
  auto n = parseDecimal(v);
  if (!n) return fileError(a->where, fmt::format("{} must be a number, not '{}'", key, v));
  return *n;
}

// A boolean attribute of a clause, or its schema's default when absent.
Result<bool> clauseFlag(Translator& t, const StepSource& s, std::string_view key) {
  if (!attribute(s.attributes, key)) {
    return eip::booleanDefault(eip::kCircuitBreakerSchema, s.kind, key);
  }
  return t.flag(s, key);
}

Result<int64_t> clauseNumber(Translator& t, const StepSource& s, std::string_view key) {
  return t.number(s, key, eip::integerDefault(eip::kCircuitBreakerSchema, s.kind, key));
}

// resilience4jConfiguration's options onto the breaker's.
Result<void> resilience4j(Translator& t, const StepSource& p, CircuitBreakerConfig& c) {
  for (std::string_view java : {"circuitBreaker", "config", "timeoutExecutorService"}) {
    if (const Scalar* a = attribute(p.attributes, java)) {
      return fileError(a->where, fmt::format("{} in {} names a Java object, which Dromedary does "
                                             "not have",
                                             java, p.kind),
                       "give the breaker's options here instead");
    }
  }
  DROMEDARY_TRY(wait_max, clauseNumber(t, p, "bulkheadMaxWaitDuration"));
  if (wait_max != 0) {
    return fileError(attribute(p.attributes, "bulkheadMaxWaitDuration")->where,
                     fmt::format("bulkheadMaxWaitDuration must be 0, not {}", wait_max),
                     "a call over the bulkhead's limit is refused at once: waiting would hold "
                     "its thread");
  }
  if (const Scalar* w = attribute(p.attributes, "slidingWindowType")) {
    DROMEDARY_TRY(v, t.resolve(*w));
    if (v != "COUNT_BASED" && v != "TIME_BASED") {
      return fileError(w->where,
                       fmt::format("slidingWindowType must be COUNT_BASED or TIME_BASED, not '{}'",
                                   v));
    }
    c.timeBasedSlidingWindow = v == "TIME_BASED";
  }
  DROMEDARY_TRY(rate, decimal(t, p, "failureRateThreshold", c.failureRateThreshold));
  DROMEDARY_TRY(slow_rate, decimal(t, p, "slowCallRateThreshold", c.slowCallRateThreshold));
  c.failureRateThreshold = rate;
  c.slowCallRateThreshold = slow_rate;
  int64_t n = 0;
  for (auto [key, target] : {std::pair<std::string_view, int*>{"permittedNumberOfCallsInHalfOpenState",
                                                                &c.permittedNumberOfCallsInHalfOpenState},
                             {"slidingWindowSize", &c.slidingWindowSize},
                             {"minimumNumberOfCalls", &c.minimumNumberOfCalls},
                             {"bulkheadMaxConcurrentCalls", &c.bulkheadMaxConcurrentCalls}}) {
    DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, key));
    *target = static_cast<int>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
  }
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "waitDurationInOpenState"));
  c.waitDurationInOpenState = std::chrono::seconds(n);
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "slowCallDurationThreshold"));
  c.slowCallDurationThreshold = std::chrono::seconds(n);
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "timeoutDuration"));
  c.timeoutDuration = std::chrono::milliseconds(n);
  DROMEDARY_TRY_ASSIGN(c.throwExceptionWhenHalfOpenOrOpenState,
                       clauseFlag(t, p, "throwExceptionWhenHalfOpenOrOpenState"));
  DROMEDARY_TRY_ASSIGN(c.automaticTransitionFromOpenToHalfOpenEnabled,
                       clauseFlag(t, p, "automaticTransitionFromOpenToHalfOpenEnabled"));
  DROMEDARY_TRY_ASSIGN(c.bulkheadEnabled, clauseFlag(t, p, "bulkheadEnabled"));
  DROMEDARY_TRY_ASSIGN(c.timeoutEnabled, clauseFlag(t, p, "timeoutEnabled"));
  for (std::string_view accepted : {"writableStackTraceEnabled", "timeoutCancelRunningFuture"}) {
    DROMEDARY_TRY_VOID(clauseFlag(t, p, accepted));
  }
  for (const auto& [key, value] : p.attributes) {
    if (key != "recordException" && key != "ignoreException") continue;
    DROMEDARY_TRY(type, t.exceptionName(value, key));
    (key == "recordException" ? c.recordExceptions : c.ignoreExceptions).push_back(type);
  }
  return {};
}

// faultToleranceConfiguration's options (MicroProfile Fault Tolerance) onto the same breaker:
// its rolling window of requestVolumeThreshold calls is the count-based window, and its
// successThreshold trial calls are the half-open ones.
Result<void> faultTolerance(Translator& t, const StepSource& p, CircuitBreakerConfig& c) {
  for (std::string_view java : {"circuitBreaker", "typedGuard", "timeoutScheduledExecutorService"}) {
    if (const Scalar* a = attribute(p.attributes, java)) {
      return fileError(a->where, fmt::format("{} in {} names a Java object, which Dromedary does "
                                             "not have",
                                             java, p.kind),
                       "give the breaker's options here instead");
    }
  }
  int64_t n = 0;
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "delay"));
  c.waitDurationInOpenState = std::chrono::milliseconds(n);
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "successThreshold"));
  c.permittedNumberOfCallsInHalfOpenState = static_cast<int>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "requestVolumeThreshold"));
  c.slidingWindowSize = c.minimumNumberOfCalls =
      static_cast<int>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "failureRatio"));
  c.failureRateThreshold = static_cast<double>(n);
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "timeoutDuration"));
  c.timeoutDuration = std::chrono::milliseconds(n);
  DROMEDARY_TRY_ASSIGN(n, clauseNumber(t, p, "bulkheadMaxConcurrentCalls"));
  c.bulkheadMaxConcurrentCalls = static_cast<int>(std::clamp<int64_t>(n, INT32_MIN, INT32_MAX));
  DROMEDARY_TRY_ASSIGN(c.timeoutEnabled, clauseFlag(t, p, "timeoutEnabled"));
  DROMEDARY_TRY_ASSIGN(c.bulkheadEnabled, clauseFlag(t, p, "bulkheadEnabled"));
  for (std::string_view accepted : {"timeoutPoolSize", "bulkheadWaitingTaskQueue"}) {
    DROMEDARY_TRY_VOID(clauseNumber(t, p, accepted));
  }
  return {};
}

Result<void> circuitBreaker(Translator& t, RouteDefinition& def, const StepSource& s,
                            const std::optional<ExpressionDefinition>&) {
  if (const Scalar* named = attribute(s.attributes, "configuration")) {
    return fileError(named->where, "circuitBreaker's configuration (a named configuration) is "
                                   "not supported",
                     "give the options in a resilience4jConfiguration inside the circuitBreaker");
  }
  if (s.policies.size() > 1) {
    return fileError(s.policies[1].where, "a circuitBreaker has one configuration",
                     fmt::format("'{}' was given already", s.policies[0].kind));
  }
  if (s.fallback.size() > 1) {
    return fileError(s.fallback[1].where, "a circuitBreaker has one onFallback");
  }
  CircuitBreakerConfig config;
  if (!s.policies.empty()) {
    const StepSource& p = s.policies[0];
    std::vector<std::string_view> keys = clauseKeys(*eip::kCircuitBreakerSchema.clause(p.kind));
    keys.push_back("id");
    DROMEDARY_TRY_VOID(t.checkKeys(p, keys, {}, false));
    if (!p.steps.empty()) {
      return fileError(p.steps.front().where, fmt::format("{} takes no steps", p.kind));
    }
    if (p.kind == "resilience4jConfiguration") {
      DROMEDARY_TRY_VOID(resilience4j(t, p, config));
    } else {
      DROMEDARY_TRY_VOID(faultTolerance(t, p, config));
    }
  }
  DROMEDARY_TRY(inherit, t.flag(s, "inheritErrorHandler"));
  def.circuitBreaker(std::move(config));
  t.place(def, s);
  if (inherit) def.inheritErrorHandler();
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  for (const StepSource& f : s.fallback) {
    DROMEDARY_TRY_VOID(t.checkKeys(f, {"id", "description", "fallbackViaNetwork"}, {}, false));
    if (const Scalar* network = attribute(f.attributes, "fallbackViaNetwork")) {
      DROMEDARY_TRY(v, t.resolve(*network));
      if (v == "true") {
        return fileError(network->where, "fallbackViaNetwork (Hystrix's) is not supported");
      }
    }
    def.onFallback();
    DROMEDARY_TRY_VOID(t.steps(def, f.steps));
  }
  def.end();
  return {};
}

constexpr StepTranslation kErrorHandling[] = {
    {"doTry", doTry, true},
    {"circuitBreaker", circuitBreaker, true},
    {"throwException", throwException},
};

}  // namespace

std::span<const StepTranslation> errorHandlingStepTranslations() { return kErrorHandling; }

// A processor name (onRedeliveryRef), checked now so that a mistake points at it.
Result<std::string> Translator::boundProcessor(const Scalar& ref) {
  DROMEDARY_TRY(name, resolve(ref));
  if (!context_.processorByName(name)) {
    return fileError(ref.where, fmt::format("no processor bound as '{}' for onRedeliveryRef", name),
                     fmt::format("bind one with Context::bindProcessor(\"{}\", ...)", name));
  }
  return name;
}

// An exception type's name, checked now so that a mistake points at the name itself.
Result<std::string> Translator::exceptionName(const Scalar& e, std::string_view what) {
  DROMEDARY_TRY(v, resolve(e));
  std::string name(trim(v));
  auto known = detail::resolveExceptionTypes(context_, {name}, what);
  if (!known) {
    std::string message = known.error().message;
    return fileError(e.where, message.substr(0, message.find(';')),
                     message.substr(std::min(message.size(), message.find(';') + 2)));
  }
  return name;
}

Result<std::vector<std::string>> Translator::exceptionNames(const StepSource& s) {
  std::vector<std::string> names;
  for (const Scalar& e : s.exceptions) {
    DROMEDARY_TRY(name, exceptionName(e, s.kind));
    names.push_back(std::move(name));
  }
  return names;
}

// Only the listed attributes and predicates; then a PredicateDefinition per predicate.
Result<void> Translator::checkKeys(const StepSource& s,
                                   const std::vector<std::string_view>& attributes,
                                   const std::vector<std::string_view>& predicates, bool policy) {
  for (const auto& [key, value] : s.attributes) {
    if (std::find(attributes.begin(), attributes.end(), key) == attributes.end()) {
      return fileError(value.where, fmt::format("unknown key '{}' in {}", key, s.kind),
                       suggestion(key, attributes));
    }
  }
  for (const auto& [key, e] : s.predicates) {
    if (std::find(predicates.begin(), predicates.end(), key) == predicates.end()) {
      return fileError(e.where, fmt::format("unknown key '{}' in {}", key, s.kind),
                       predicates.empty() ? std::string() : suggestion(key, predicates));
    }
  }
  if (!policy && !s.policy.empty()) {
    return fileError(s.policy.front().second.where,
                     fmt::format("unknown key 'redeliveryPolicy' in {}", s.kind));
  }
  if (s.expression) {
    return fileError(s.expression->where,
                     fmt::format("{} takes no expression ('{}')", s.kind, s.expression->language));
  }
  return {};
}

Result<std::optional<PredicateDefinition>> Translator::predicateOf(const StepSource& s,
                                                                   std::string_view key) {
  for (const auto& [k, e] : s.predicates) {
    if (k == key) {
      DROMEDARY_TRY(expr, expression(e));
      return std::optional<PredicateDefinition>(PredicateDefinition(std::move(expr)));
    }
  }
  return std::optional<PredicateDefinition>();
}

// The redelivery options, on an error handler or an onException clause (same names).
template <class Target>
Result<void> Translator::policyOptions(Target& t, const StepSource& s) {
  static const std::vector<std::string_view> kOptions = {"maximumRedeliveries",
                                                         "redeliveryDelay",
                                                         "backOffMultiplier",
                                                         "useExponentialBackOff",
                                                         "maximumRedeliveryDelay",
                                                         "useCollisionAvoidance",
                                                         "collisionAvoidanceFactor",
                                                         "delayPattern",
                                                         "retryAttemptedLogLevel",
                                                         "retriesExhaustedLogLevel",
                                                         "logStackTrace",
                                                         "logRetryAttempted",
                                                         "logExhausted",
                                                         "logHandled",
                                                         "logContinued",
                                                         "logExhaustedMessageHistory",
                                                         "asyncDelayedRedelivery"};
  for (const auto& entry : s.policy) {
    const std::string& key = entry.first;
    const Scalar& scalar = entry.second;
    DROMEDARY_TRY(v, resolve(scalar));
    auto bad = [&](std::string_view expected) {
      return fileError(scalar.where, fmt::format("{} must be {}, not '{}'", key, expected, v));
    };
    // The engine's own checks (ranges, delayPattern syntax), run now so the error points
    // at the value in the file rather than at the route when it starts.
    auto checked = [&](const detail::RedeliveryPolicyModel& m) -> Result<void> {
      detail::RedeliveryPolicy scratch;
      if (auto r = detail::applyPolicy(scratch, m); !r) {
        return fileError(scalar.where, r.error().message);
      }
      return {};
    };
    detail::RedeliveryPolicyModel one;
    if (key == "maximumRedeliveries") {
      auto n = parseInteger(v);
      if (!n) return bad("a whole number");
      one.maximumRedeliveries = static_cast<int>(*n);
      DROMEDARY_TRY_VOID(checked(one));
      t.maximumRedeliveries(static_cast<int>(*n));
    } else if (key == "redeliveryDelay" || key == "maximumRedeliveryDelay") {
      auto n = parseInteger(v);
      if (!n) return bad("a number of milliseconds");
      one.redeliveryDelayMs = *n;
      DROMEDARY_TRY_VOID(checked(one));
      key == "redeliveryDelay" ? t.redeliveryDelay(std::chrono::milliseconds(*n))
                               : t.maximumRedeliveryDelay(std::chrono::milliseconds(*n));
    } else if (key == "backOffMultiplier" || key == "collisionAvoidanceFactor") {
      char* end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || end != v.c_str() + v.size()) return bad("a number");
      if (key == "collisionAvoidanceFactor") {
        one.collisionAvoidanceFactor = d;
        DROMEDARY_TRY_VOID(checked(one));
      }
      key == "backOffMultiplier" ? t.backOffMultiplier(d) : t.collisionAvoidanceFactor(d);
    } else if (key == "delayPattern") {
      one.delayPattern = v;
      DROMEDARY_TRY_VOID(checked(one));
      t.delayPattern(v);
    } else if (key == "retryAttemptedLogLevel" || key == "retriesExhaustedLogLevel") {
      auto level = parseLoggingLevel(v);
      if (!level) return bad("one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
      key == "retryAttemptedLogLevel" ? t.retryAttemptedLogLevel(*level)
                                      : t.retriesExhaustedLogLevel(*level);
    } else if (std::find(kOptions.begin(), kOptions.end(), key) != kOptions.end()) {
      if (v != "true" && v != "false") return bad("true or false");
      const bool b = v == "true";
      if (key == "useExponentialBackOff") t.useExponentialBackOff(b);
      if (key == "useCollisionAvoidance") t.useCollisionAvoidance(b);
      if (key == "logStackTrace") t.logStackTrace(b);
      if (key == "logRetryAttempted") t.logRetryAttempted(b);
      if (key == "logExhausted") t.logExhausted(b);
      if (key == "logHandled") t.logHandled(b);
      if (key == "logContinued") t.logContinued(b);
      if (key == "logExhaustedMessageHistory") t.logExhaustedMessageHistory(b);
      if (key == "asyncDelayedRedelivery") t.asyncDelayedRedelivery(b);
    } else {
      return fileError(scalar.where, fmt::format("unknown key '{}' in redeliveryPolicy", key),
                       suggestion(key, kOptions));
    }
  }
  return {};
}

Result<ErrorHandlerDefinition> Translator::errorHandler(const StepSource& s) {
  using Kind = ErrorHandlerDefinition::Kind;
  static const std::vector<std::string_view> kKinds = {"defaultErrorHandler", "deadLetterChannel",
                                                       "noErrorHandler"};
  if (std::find(kKinds.begin(), kKinds.end(), s.kind) == kKinds.end()) {
    return fileError(s.where, fmt::format("unknown error handler '{}'", s.kind),
                     suggestion(s.kind, kKinds));
  }
  const bool dlc = s.kind == "deadLetterChannel";
  std::vector<std::string_view> keys = {"id", "onRedeliveryRef", "useOriginalMessage",
                                        "useOriginalBody"};
  if (dlc) {
    keys.push_back("deadLetterUri");
    keys.push_back("deadLetterHandleNewException");
  }
  if (s.kind == "noErrorHandler") keys = {"id"};
  DROMEDARY_TRY_VOID(checkKeys(s, keys, {"retryWhile"}, s.kind != "noErrorHandler"));
  std::string uri;
  if (dlc) {
    const Scalar* u = attribute(s.attributes, "deadLetterUri");
    if (!u) return fileError(s.where, "deadLetterChannel needs 'deadLetterUri'");
    DROMEDARY_TRY(v, resolve(*u));
    uri = v;
  }
  ErrorHandlerDefinition h(dlc                          ? Kind::DeadLetterChannel
                           : s.kind == "noErrorHandler" ? Kind::None
                                                        : Kind::Default,
                           uri);
  DROMEDARY_TRY_VOID(policyOptions(h, s));
  DROMEDARY_TRY(retry, predicateOf(s, "retryWhile"));
  if (retry) h.retryWhile(std::move(*retry));
  DROMEDARY_TRY(original, flag(s, "useOriginalMessage"));
  if (original) h.useOriginalMessage();
  DROMEDARY_TRY(original_body, flag(s, "useOriginalBody"));
  if (original_body) h.useOriginalBody();
  if (const Scalar* ref = attribute(s.attributes, "onRedeliveryRef")) {
    DROMEDARY_TRY(v, boundProcessor(*ref));
    h.onRedeliveryRef(v);
  }
  if (attribute(s.attributes, "deadLetterHandleNewException")) {
    DROMEDARY_TRY(b, flag(s, "deadLetterHandleNewException"));
    h.deadLetterHandleNewException(b);
  }
  return h;
}

// The options and steps of an onException clause already opened on `d`; closes it.
Result<void> Translator::onExceptionBody(RouteDefinition& d, const StepSource& s) {
  DROMEDARY_TRY_VOID(checkKeys(
      s, {"id", "description", "useOriginalMessage", "useOriginalBody", "onRedeliveryRef"},
      {"onWhen", "handled", "continued", "retryWhile"}, true));
  for (std::string_view key : {"onWhen", "handled", "continued", "retryWhile"}) {
    DROMEDARY_TRY(p, predicateOf(s, key));
    if (!p) continue;
    if (key == "onWhen") d.onWhen(std::move(*p));
    if (key == "handled") d.handled(std::move(*p));
    if (key == "continued") d.continued(std::move(*p));
    if (key == "retryWhile") d.retryWhile(std::move(*p));
  }
  DROMEDARY_TRY_VOID(policyOptions(d, s));
  DROMEDARY_TRY(original, flag(s, "useOriginalMessage"));
  if (original) d.useOriginalMessage();
  DROMEDARY_TRY(original_body, flag(s, "useOriginalBody"));
  if (original_body) d.useOriginalBody();
  if (const Scalar* ref = attribute(s.attributes, "onRedeliveryRef")) {
    DROMEDARY_TRY(v, boundProcessor(*ref));
    d.onRedeliveryRef(v);
  }
  DROMEDARY_TRY_VOID(steps(d, s.steps));
  d.end();
  return {};
}

Result<void> Translator::onCompletionBody(RouteDefinition& d, const StepSource& s) {
  DROMEDARY_TRY_VOID(checkKeys(
      s, {"id", "description", "onCompleteOnly", "onFailureOnly", "mode", "parallelProcessing"},
      {"onWhen"}, false));
  if (const Scalar* mode = attribute(s.attributes, "mode")) {
    if (mode->value != "AfterConsumer") {
      return fileError(mode->where,
                       fmt::format("onCompletion mode '{}' is not supported", mode->value),
                       "onCompletion runs after the exchange completes (AfterConsumer)");
    }
  }
  DROMEDARY_TRY(complete_only, flag(s, "onCompleteOnly"));
  DROMEDARY_TRY(failure_only, flag(s, "onFailureOnly"));
  if (complete_only && failure_only) {
    return fileError(s.where, "onCompletion cannot be both onCompleteOnly and onFailureOnly");
  }
  if (complete_only) d.onCompleteOnly();
  if (failure_only) d.onFailureOnly();
  DROMEDARY_TRY(when, predicateOf(s, "onWhen"));
  if (when) d.onWhen(std::move(*when));
  DROMEDARY_TRY_VOID(steps(d, s.steps));
  d.end();
  return {};
}

Result<void> Translator::intercept(RouteBuilder* builder, RouteDefinition* def,
                                   const StepSource& s) {
  const bool send = s.kind == "interceptSendToEndpoint";
  std::vector<std::string_view> keys = {"id", "description", "disabled"};
  if (s.kind != "intercept") keys.push_back("uri");
  if (send) keys.insert(keys.end(), {"skipSendToOriginalEndpoint", "afterUri"});
  DROMEDARY_TRY_VOID(checkKeys(s, keys, {"onWhen"}, false));
  DROMEDARY_TRY(disabled, flag(s, "disabled"));
  if (disabled) return {};
  std::string uri;
  if (const Scalar* u = attribute(s.attributes, "uri")) {
    DROMEDARY_TRY(v, resolve(*u));
    uri = std::move(v);
  }
  if (send && uri.empty()) {
    return fileError(s.where, "interceptSendToEndpoint needs 'uri'",
                     "the endpoint (or a pattern such as 'kafka*') whose sends it intercepts");
  }
  RouteDefinition* d = nullptr;
  if (s.kind == "intercept") {
    d = builder ? &builder->intercept() : &def->intercept();
  } else if (s.kind == "interceptFrom") {
    d = builder ? &builder->interceptFrom(uri) : &def->interceptFrom(uri);
  } else {
    d = builder ? &builder->interceptSendToEndpoint(uri) : &def->interceptSendToEndpoint(uri);
  }
  // Errors name the clause (none was opened if the chain recorded a misuse: addRoutes says so).
  if (auto& opened = d->modelForEngine().extras().intercepts; !opened.empty()) {
    opened.back()->where = s.where;
  }
  if (send) {
    DROMEDARY_TRY(skip, flag(s, "skipSendToOriginalEndpoint"));
    if (skip) d->skipSendToOriginalEndpoint();
    if (const Scalar* a = attribute(s.attributes, "afterUri")) {
      DROMEDARY_TRY(v, resolve(*a));
      d->afterUri(v);
    }
  }
  DROMEDARY_TRY(when, predicateOf(s, "onWhen"));
  if (when) d->onWhen(std::move(*when));
  DROMEDARY_TRY_VOID(steps(*d, s.steps));
  d->end();
  return {};
}

// routeConfigurationId="a,b": those configurations, route-scoped.
Result<void> Translator::namedConfigurations(RouteDefinition& def, const Scalar& ids,
                                             const std::vector<RouteConfigurationSource>& configs) {
  DROMEDARY_TRY(text, resolve(ids));
  std::vector<std::string_view> known;
  for (const RouteConfigurationSource& c : configs) {
    if (c.id) known.push_back(c.id->value);
  }
  // Each id, or a pattern of ids as Camel's (`*`, `audit*`, a regular expression): every
  // configuration it matches, once, in the order they were given.
  std::vector<const RouteConfigurationSource*> chosen;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string_view id = trim(std::string_view(text).substr(start, comma - start));
    start = comma + 1;
    if (id.empty()) continue;
    const bool pattern = id.find_first_of("*?[(|") != std::string_view::npos;
    const NamePattern matcher{std::string(id)};
    bool any = false;
    for (const RouteConfigurationSource& c : configs) {
      if (!c.id || !(pattern ? matcher.matches(c.id->value) : c.id->value == id)) continue;
      any = true;
      if (std::find(chosen.begin(), chosen.end(), &c) == chosen.end()) chosen.push_back(&c);
    }
    if (!any && !pattern) {
      return fileError(ids.where, fmt::format("no routeConfiguration with id '{}'", id),
                       known.empty() ? std::string() : suggestion(id, known));
    }
  }
  for (const RouteConfigurationSource* found : chosen) {
    for (const StepSource& h : found->errorHandler) {
      DROMEDARY_TRY(handler, errorHandler(h));
      def.errorHandler(std::move(handler));
    }
    for (const StepSource& clause : found->onExceptions) {
      DROMEDARY_TRY(types, exceptionNames(clause));
      DROMEDARY_TRY_VOID(onExceptionBody(def.onException(types), clause));
    }
    for (const StepSource& clause : found->onCompletions) {
      DROMEDARY_TRY_VOID(onCompletionBody(def.onCompletion(), clause));
    }
    for (const StepSource& clause : found->intercepts) {
      DROMEDARY_TRY_VOID(intercept(nullptr, &def, clause));
    }
  }
  return {};
}

Result<void> Translator::doTry(RouteDefinition& def, const StepSource& s) {
  if (s.catches.empty() && s.finally.empty()) {
    return fileError(s.where, "doTry needs at least one doCatch or a doFinally");
  }
  def.doTry();
  place(def, s);
  DROMEDARY_TRY_VOID(steps(def, s.steps));
  for (const StepSource& c : s.catches) {
    DROMEDARY_TRY_VOID(checkKeys(c, {"id", "description"}, {"onWhen"}, false));
    DROMEDARY_TRY(types, exceptionNames(c));
    def.doCatch(types);
    DROMEDARY_TRY(when, predicateOf(c, "onWhen"));
    if (when) def.onWhen(std::move(*when));
    DROMEDARY_TRY_VOID(steps(def, c.steps));
  }
  for (const StepSource& f : s.finally) {
    DROMEDARY_TRY_VOID(checkKeys(f, {"id", "description"}, {}, false));
    def.doFinally();
    DROMEDARY_TRY_VOID(steps(def, f.steps));
  }
  def.end();
  return {};
}

}  // namespace dromedary::dsl
