// SPDX-License-Identifier: Apache-2.0
#include "dsl/route_source.h"

#include <charconv>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/route_builder.h>

#include "core/text.h"
#include "engine/error_handling.h"
#include "eip/eip_schema.h"
#include "engine/route_model.h"

namespace dromedary::dsl {

namespace {

using eip::AttributeSchema;
using eip::AttributeType;
using eip::EipSchema;
using eip::ExpressionUse;

std::vector<std::string_view> stepKinds() {
  std::vector<std::string_view> kinds;
  for (const EipSchema* s : eip::eipSchemas()) kinds.push_back(s->key);
  return kinds;
}

// Every key a step takes: its schema's attributes, and id and description.
std::vector<std::string_view> attributeNames(const EipSchema& schema) {
  std::vector<std::string_view> names;
  for (const AttributeSchema& a : schema.attributes) names.push_back(a.name);
  names.push_back("id");
  names.push_back("description");
  return names;
}

std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return n;
}

// Builds one route through the C++ DSL, so files and C++ make the same model.
class Translator {
 public:
  explicit Translator(Context& context) : context_(context) {}

  // Applies the routeConfigurations without an id to every route of the builder.
  Result<void> globalConfigurations(RouteBuilder& builder,
                                    const std::vector<RouteConfigurationSource>& configs) {
    bool handler_set = false;
    for (const RouteConfigurationSource& c : configs) {
      if (c.id) continue;
      for (const StepSource& h : c.errorHandler) {
        if (handler_set) {
          return fileError(h.where, "a second error handler for every route",
                           "give one of the routeConfigurations an id and name it in "
                           "routeConfigurationId");
        }
        handler_set = true;
        DROMEDARY_TRY(handler, errorHandler(h));
        builder.errorHandler(std::move(handler));
      }
      for (const StepSource& clause : c.onExceptions) {
        DROMEDARY_TRY(types, exceptionNames(clause));
        DROMEDARY_TRY_VOID(onExceptionBody(builder.onException(types), clause));
      }
      for (const StepSource& clause : c.onCompletions) {
        DROMEDARY_TRY_VOID(onCompletionBody(builder.onCompletion(), clause));
      }
    }
    return {};
  }

  Result<void> route(RouteBuilder& builder, const RouteSource& source,
                     const std::vector<RouteConfigurationSource>& configs) {
    for (const auto& [key, value] : source.attributes) {
      static const std::vector<std::string_view> kRouteKeys = {
          "id", "description", "autoStartup", "routeConfigurationId", "errorHandlerRef"};
      if (std::find(kRouteKeys.begin(), kRouteKeys.end(), key) == kRouteKeys.end()) {
        return fileError(value.where, fmt::format("unknown key '{}' in route", key),
                         suggestion(key, kRouteKeys));
      }
    }
    DROMEDARY_TRY(uri, withParameters(source.from, source.parameters));
    RouteDefinition& def = builder.from(uri);
    def.modelForEngine().where = source.from.where;
    if (const Scalar* id = attribute(source.attributes, "id")) {
      DROMEDARY_TRY(v, resolve(*id));
      def.routeId(v);
    }
    if (const Scalar* d = attribute(source.attributes, "description")) {
      DROMEDARY_TRY(v, resolve(*d));
      def.description(v);
    }
    if (const Scalar* a = attribute(source.attributes, "autoStartup")) {
      DROMEDARY_TRY(v, resolve(*a));
      if (v != "true" && v != "false") {
        return fileError(a->where, fmt::format("autoStartup must be true or false, not '{}'", v));
      }
      def.autoStartup(v == "true");
    }
    for (std::string_view key : {"routeConfigurationId", "errorHandlerRef"}) {
      if (const Scalar* ids = attribute(source.attributes, key)) {
        DROMEDARY_TRY_VOID(namedConfigurations(def, *ids, configs));
      }
    }
    for (const StepSource& clause : source.onExceptions) {
      DROMEDARY_TRY(types, exceptionNames(clause));
      DROMEDARY_TRY_VOID(onExceptionBody(def.onException(types), clause));
    }
    for (const StepSource& clause : source.onCompletions) {
      DROMEDARY_TRY_VOID(onCompletionBody(def.onCompletion(), clause));
    }
    return steps(def, source.steps);
  }

 private:
  Result<void> steps(RouteDefinition& def, const std::vector<StepSource>& list) {
    for (const StepSource& s : list) DROMEDARY_TRY_VOID(step(def, s));
    return {};
  }

  Result<std::string> resolve(const Scalar& s) { return resolveScalar(context_, s); }

  Result<std::string> withParameters(const Scalar& uri,
                                     const std::vector<std::pair<std::string, Scalar>>& params) {
    DROMEDARY_TRY(out, resolve(uri));
    for (const auto& [key, value] : params) {
      DROMEDARY_TRY(v, resolve(value));
      out += out.find('?') == std::string::npos ? '?' : '&';
      out += key;
      out += '=';
      out += v;
    }
    return out;
  }

  Result<ExpressionDefinition> expression(const ExpressionSource& e) {
    const auto& languages = expressionLanguages();
    if (std::find(languages.begin(), languages.end(), e.language) == languages.end()) {
      std::vector<std::string_view> general(languages.begin(), languages.end());
      std::erase(general, std::string_view("tokenize"));  // split's own
      return fileError(e.where, fmt::format("unknown language '{}'", e.language),
                       suggestion(e.language, general));
    }
    if (e.language == "tokenize") {
      return fileError(e.where, "tokenize cuts a split's text; it is not an expression here",
                       "write it as simple, constant, header or exchangeProperty");
    }
    if (e.language == "simple") return simple(e.text);
    if (e.language == "constant") return constant(Value(e.text));
    if (e.language == "header") return header(e.text);
    return exchangeProperty(e.text);
  }

  // Checks keys (and the typed ones' values), required keys, the expression and nested steps
  // of a step against its schema.
  Result<void> validate(const StepSource& s, const EipSchema& schema) {
    for (const auto& [key, value] : s.attributes) {
      if ((s.kind == "to" || s.kind == "toD") && key == "pattern" && value.value != "InOnly" &&
          value.value != "InOut") {
        return fileError(value.where,
                         fmt::format("unknown exchange pattern '{}' on {}", value.value, s.kind),
                         "expected InOnly or InOut");
      }
      if (key == "id" || key == "description") continue;
      const AttributeSchema* a = schema.attribute(key);
      if (!a) {
        return fileError(value.where, fmt::format("unknown key '{}' in {}", key, s.kind),
                         suggestion(key, attributeNames(schema)));
      }
      DROMEDARY_TRY_VOID(typed(*a, value));
    }
    for (const AttributeSchema& a : schema.attributes) {
      if (a.required && !attribute(s.attributes, a.name)) {
        return fileError(s.where, fmt::format("{} needs '{}'", s.kind, a.name));
      }
    }
    if (schema.expression != ExpressionUse::None && !s.expression) {
      return fileError(s.where, fmt::format("{} needs an expression", s.kind),
                       "write it as simple, constant, header or exchangeProperty");
    }
    if (schema.expression == ExpressionUse::None && s.expression) {
      return fileError(s.expression->where,
                       fmt::format("{} takes no expression ('{}')", s.kind, s.expression->language));
    }
    if (!schema.steps && !s.steps.empty() && s.kind != "choice") {
      return fileError(s.steps.front().where, fmt::format("{} takes no nested steps", s.kind));
    }
    if (!s.exceptions.empty()) {
      return fileError(s.exceptions.front().where,
                       fmt::format("unknown key 'exception' in {}", s.kind));
    }
    if (!s.policies.empty() && s.kind != "loadBalance" && s.kind != "resequence") {
      return fileError(s.policies.front().where,
                       fmt::format("{} belongs in a loadBalance, not {}", s.policies.front().kind,
                                   s.kind));
    }
    for (const auto& [key, e] : s.predicates) {
      if (s.kind == "aggregate" && (key == "correlationExpression" || key == "completionPredicate")) {
        continue;
      }
      return fileError(e.where, fmt::format("unknown key '{}' in {}", key, s.kind));
    }
    if (!s.policy.empty()) {
      return fileError(s.policy.front().second.where,
                       fmt::format("unknown key 'redeliveryPolicy' in {}", s.kind));
    }
    if (s.kind != "doTry" && (!s.catches.empty() || !s.finally.empty())) {
      return fileError(s.where, fmt::format("doCatch and doFinally belong in a doTry, not {}",
                                            s.kind));
    }
    if (!s.parameters.empty() && s.kind != "to" && s.kind != "toD") {
      return fileError(s.parameters.front().second.where,
                       fmt::format("{} takes no endpoint parameters", s.kind));
    }
    return {};
  }

  Result<std::string> text(const StepSource& s, std::string_view key) {
    return resolve(*attribute(s.attributes, key));
  }

  // A whole number or a boolean as its schema says (Enum values are checked where they are
  // used, each with its own message).
  Result<void> typed(const AttributeSchema& a, const Scalar& value) {
    if (a.type != AttributeType::Integer && a.type != AttributeType::Duration &&
        a.type != AttributeType::Boolean) {
      return {};
    }
    DROMEDARY_TRY(v, resolve(value));
    if (a.type == AttributeType::Boolean) {
      if (v != "true" && v != "false") {
        return fileError(value.where, fmt::format("{} must be true or false, not '{}'", a.name, v));
      }
    } else if (!parseInteger(v)) {
      return fileError(value.where, fmt::format("{} must be a whole number, not '{}'", a.name, v));
    }
    return {};
  }

  Result<void> step(RouteDefinition& def, const StepSource& s) {
    const EipSchema* schema = eip::findEipSchema(s.kind);
    if (!schema) {
      return fileError(s.where, fmt::format("unknown step '{}'", s.kind),
                       suggestion(s.kind, stepKinds()));
    }
    DROMEDARY_TRY_VOID(validate(s, *schema));
    std::optional<ExpressionDefinition> expr;
    if (s.expression && s.expression->language == "tokenize") {
      if (s.kind != "split") {
        return fileError(s.expression->where,
                         fmt::format("tokenize cuts a split's text; {} takes simple, constant, "
                                     "header or exchangeProperty", s.kind));
      }
    } else if (s.expression) {
      DROMEDARY_TRY(e, expression(*s.expression));
      expr = std::move(e);
    }
    const std::string& k = s.kind;
    if (k == "to") {
      DROMEDARY_TRY(uri, withParameters(*attribute(s.attributes, "uri"), s.parameters));
      if (const Scalar* pattern = attribute(s.attributes, "pattern")) {
        def.to(pattern->value == "InOut" ? Pattern::InOut : Pattern::InOnly, uri);
      } else {
        def.to(uri);
      }
    } else if (k == "toD") {
      DROMEDARY_TRY(uri, withParameters(*attribute(s.attributes, "uri"), s.parameters));
      if (const Scalar* pattern = attribute(s.attributes, "pattern")) {
        def.toD(pattern->value == "InOut" ? Pattern::InOut : Pattern::InOnly, uri);
      } else {
        def.toD(uri);
      }
    } else if (k == "setBody") {
      def.setBody(*expr);
    } else if (k == "transform") {
      def.transform(*expr);
    } else if (k == "setHeader" || k == "setProperty") {
      DROMEDARY_TRY(name, text(s, "name"));
      k == "setHeader" ? def.setHeader(name, *expr) : def.setProperty(name, *expr);
    } else if (k == "removeHeader" || k == "removeProperty") {
      DROMEDARY_TRY(name, text(s, "name"));
      k == "removeHeader" ? def.removeHeader(name) : def.removeProperty(name);
    } else if (k == "removeHeaders" || k == "removeProperties") {
      DROMEDARY_TRY(pattern, text(s, "pattern"));
      std::vector<std::string> excludes;
      if (const Scalar* ex = attribute(s.attributes, "excludePattern")) {
        DROMEDARY_TRY(v, resolve(*ex));
        excludes.push_back(v);
      }
      k == "removeHeaders" ? def.removeHeaders(pattern, excludes)
                           : def.removeProperties(pattern, excludes);
    } else if (k == "convertBodyTo") {
      DROMEDARY_TRY(type, text(s, "type"));
      def.convertBodyTo(type);
    } else if (k == "log") {
      DROMEDARY_TRY_VOID(log(def, s));
    } else if (k == "stop") {
      def.stop();
    } else if (k == "throttle") {
      DROMEDARY_TRY_VOID(throttle(def, s, *expr));
    } else if (k == "threads") {
      DROMEDARY_TRY(pool, number(s, "poolSize"));
      DROMEDARY_TRY(max_pool, number(s, "maxPoolSize", -1));
      DROMEDARY_TRY(max_queue, number(s, "maxQueueSize"));
      def.threads(static_cast<int>(pool), static_cast<int>(max_pool), static_cast<int>(max_queue));
    } else if (k == "delay") {
      def.delay(*expr);  // always asynchronous here: asyncDelayed=false would block a thread
    } else if (k == "process") {
      DROMEDARY_TRY(ref, text(s, "ref"));
      def.processRef(ref);
    } else if (k == "filter") {
      def.filter(*expr);
      place(def, s);
      DROMEDARY_TRY_VOID(steps(def, s.steps));
      def.end();
      return {};
    } else if (k == "split") {
      return split(def, s, expr);
    } else if (k == "multicast" || k == "pipeline") {
      k == "multicast" ? def.multicast() : def.pipeline();
      place(def, s);
      if (k == "multicast") DROMEDARY_TRY_VOID(aggregationOptions(def, s));
      DROMEDARY_TRY_VOID(steps(def, s.steps));
      def.end();
      return {};
    } else if (k == "recipientList") {
      std::string delimiter = ",";
      if (const Scalar* d = attribute(s.attributes, "delimiter")) {
        DROMEDARY_TRY(v, resolve(*d));
        delimiter = v;
      }
      def.recipientList(*expr, delimiter);
      place(def, s);
      DROMEDARY_TRY_VOID(aggregationOptions(def, s));
      DROMEDARY_TRY_VOID(endpointOptions(def, s, true));
      return {};
    } else if (k == "routingSlip" || k == "dynamicRouter") {
      std::string delimiter = ",";
      if (const Scalar* d = attribute(s.attributes, "uriDelimiter")) {
        DROMEDARY_TRY(v, resolve(*d));
        delimiter = v;
      }
      k == "routingSlip" ? def.routingSlip(*expr, delimiter) : def.dynamicRouter(*expr);
      place(def, s);
      return endpointOptions(def, s, false);
    } else if (k == "wireTap") {
      DROMEDARY_TRY(uri, text(s, "uri"));
      def.wireTap(uri);
    } else if (k == "loop") {
      DROMEDARY_TRY(do_while, flag(s, "doWhile"));
      do_while ? def.loopDoWhile(*expr) : def.loop(*expr);
      place(def, s);
      DROMEDARY_TRY(copy, flag(s, "copy"));
      if (copy) def.copy();
      DROMEDARY_TRY_VOID(steps(def, s.steps));
      def.end();
      return {};
    } else if (k == "aggregate") {
      return aggregate(def, s);
    } else if (k == "loadBalance") {
      return loadBalance(def, s);
    } else if (k == "sort") {
      def.sort(*expr);
    } else if (k == "resequence") {
      return resequence(def, s, *expr);
    } else if (k == "enrich" || k == "pollEnrich") {
      return enrich(def, s, *expr);
    } else if (k == "sample") {
      DROMEDARY_TRY(frequency, number(s, "messageFrequency"));
      if (frequency != 0) {
        if (frequency < 0) {
          return fileError(attribute(s.attributes, "messageFrequency")->where,
                           fmt::format("messageFrequency must be positive, not {}", frequency));
        }
        def.sample(frequency);
      } else {
        DROMEDARY_TRY(period, number(s, "samplePeriod"));
        if (period < 1) {
          return fileError(attribute(s.attributes, "samplePeriod")->where,
                           fmt::format("samplePeriod must be at least 1 ms, not {}", period));
        }
        def.sample(std::chrono::milliseconds(period));
      }
    } else if (k == "idempotentConsumer") {
      DROMEDARY_TRY(repo, text(s, "idempotentRepository"));
      if (!context_.idempotentRepositoryByName(repo)) {
        return fileError(attribute(s.attributes, "idempotentRepository")->where,
                         fmt::format("no idempotent repository bound as '{}'", repo),
                         fmt::format("bind one with Context::bindIdempotentRepository(\"{}\", "
                                     "memoryIdempotentRepository())",
                                     repo));
      }
      def.idempotentConsumer(*expr, repo);
      place(def, s);
      for (std::string_view key : {"skipDuplicate", "eager", "removeOnFailure", "completionEager"}) {
        if (!attribute(s.attributes, key)) continue;
        DROMEDARY_TRY(on, flag(s, key));
        if (key == "skipDuplicate") def.skipDuplicate(on);
        if (key == "eager") def.eager(on);
        if (key == "removeOnFailure") def.removeOnFailure(on);
        if (key == "completionEager") def.completionEager(on);
      }
      DROMEDARY_TRY_VOID(steps(def, s.steps));
      def.end();
      return {};
    } else if (k == "choice") {
      return choice(def, s);
    } else if (k == "doTry") {
      return doTry(def, s);
    }
    place(def, s);
    return {};
  }

  // --- error handling ---------------------------------------------------------------------

  // A processor name (onRedeliveryRef), checked now so that a mistake points at it.
  Result<std::string> boundProcessor(const Scalar& ref) {
    DROMEDARY_TRY(name, resolve(ref));
    if (!context_.processorByName(name)) {
      return fileError(ref.where, fmt::format("no processor bound as '{}' for onRedeliveryRef", name),
                       fmt::format("bind one with Context::bindProcessor(\"{}\", ...)", name));
    }
    return name;
  }

  // The exception type names, checked now so that a mistake points at the name itself.
  Result<std::vector<std::string>> exceptionNames(const StepSource& s) {
    std::vector<std::string> names;
    for (const Scalar& e : s.exceptions) {
      DROMEDARY_TRY(v, resolve(e));
      names.emplace_back(trim(v));
      auto known = detail::resolveExceptionTypes(context_, {names.back()}, s.kind);
      if (!known) {
        std::string message = known.error().message;
        return fileError(e.where, message.substr(0, message.find(';')),
                         message.substr(std::min(message.size(), message.find(';') + 2)));
      }
    }
    return names;
  }

  // Only the listed attributes and predicates; then a PredicateDefinition per predicate.
  Result<void> checkKeys(const StepSource& s, const std::vector<std::string_view>& attributes,
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

  Result<std::optional<PredicateDefinition>> predicateOf(const StepSource& s,
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
  Result<void> policyOptions(Target& t, const StepSource& s) {
    static const std::vector<std::string_view> kOptions = {
        "maximumRedeliveries", "redeliveryDelay", "backOffMultiplier", "useExponentialBackOff",
        "maximumRedeliveryDelay", "useCollisionAvoidance", "collisionAvoidanceFactor",
        "delayPattern", "retryAttemptedLogLevel", "retriesExhaustedLogLevel", "logStackTrace",
        "logRetryAttempted", "logExhausted", "logHandled", "logContinued",
        "logExhaustedMessageHistory", "asyncDelayedRedelivery"};
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

  Result<ErrorHandlerDefinition> errorHandler(const StepSource& s) {
    using Kind = ErrorHandlerDefinition::Kind;
    static const std::vector<std::string_view> kKinds = {"defaultErrorHandler",
                                                         "deadLetterChannel", "noErrorHandler"};
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
    ErrorHandlerDefinition h(dlc ? Kind::DeadLetterChannel
                                 : s.kind == "noErrorHandler" ? Kind::None : Kind::Default,
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
  Result<void> onExceptionBody(RouteDefinition& d, const StepSource& s) {
    DROMEDARY_TRY_VOID(checkKeys(s, {"id", "description", "useOriginalMessage",
                                     "useOriginalBody", "onRedeliveryRef"},
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

  Result<void> onCompletionBody(RouteDefinition& d, const StepSource& s) {
    DROMEDARY_TRY_VOID(checkKeys(s, {"id", "description", "onCompleteOnly", "onFailureOnly",
                                     "mode", "parallelProcessing"},
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

  // routeConfigurationId="a,b": those configurations, route-scoped.
  Result<void> namedConfigurations(RouteDefinition& def, const Scalar& ids,
                                   const std::vector<RouteConfigurationSource>& configs) {
    DROMEDARY_TRY(text, resolve(ids));
    std::vector<std::string_view> known;
    for (const RouteConfigurationSource& c : configs) {
      if (c.id) known.push_back(c.id->value);
    }
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      std::string_view id = trim(std::string_view(text).substr(start, comma - start));
      start = comma + 1;
      if (id.empty()) continue;
      const RouteConfigurationSource* found = nullptr;
      for (const RouteConfigurationSource& c : configs) {
        if (c.id && c.id->value == id) found = &c;
      }
      if (!found) {
        return fileError(ids.where, fmt::format("no routeConfiguration with id '{}'", id),
                         known.empty() ? std::string() : suggestion(id, known));
      }
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
    }
    return {};
  }

  Result<void> doTry(RouteDefinition& def, const StepSource& s) {
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

  // A whole-number attribute of a step, or its schema's default (0 when it has none).
  Result<int64_t> number(const StepSource& s, std::string_view key) {
    const EipSchema* schema = eip::findEipSchema(s.kind);
    const AttributeSchema* a = schema ? schema->attribute(key) : nullptr;
    // (A translator reads only what its schema declares: RouteSchemaTest holds them together.)
    return number(s, key, a ? parseInteger(a->defaultValue).value_or(0) : 0);
  }

  // An integer key, or `fallback` when absent.
  Result<int64_t> number(const StepSource& s, std::string_view key, int64_t fallback) {
    const Scalar* a = attribute(s.attributes, key);
    if (!a) return fallback;
    DROMEDARY_TRY(v, resolve(*a));
    auto n = parseInteger(v);
    if (!n) return fileError(a->where, fmt::format("{} must be a whole number, not '{}'", key, v));
    return *n;
  }

  // --- split, multicast, recipientList ---------------------------------------------------

  Result<void> split(RouteDefinition& def, const StepSource& s,
                     const std::optional<ExpressionDefinition>& expr) {
    if (expr) {
      def.split(*expr);
    } else {
      DROMEDARY_TRY(t, tokenizer(*s.expression));
      def.split(std::move(t));
    }
    place(def, s);
    DROMEDARY_TRY(streaming, flag(s, "streaming"));
    if (streaming) def.streaming();
    DROMEDARY_TRY_VOID(aggregationOptions(def, s));
    DROMEDARY_TRY_VOID(steps(def, s.steps));
    def.end();
    return {};
  }

  Result<void> aggregate(RouteDefinition& def, const StepSource& s) {
    DROMEDARY_TRY(correlation, predicateOf(s, "correlationExpression"));
    if (!correlation) {
      return fileError(s.where, "aggregate needs 'correlationExpression'",
                       "e.g. correlationExpression: {header: orderId}");
    }
    const ExpressionSource* source = nullptr;
    for (const auto& [key, e] : s.predicates) {
      if (key == "correlationExpression") source = &e;
    }
    DROMEDARY_TRY(key_expr, expression(*source));
    def.aggregate(key_expr);
    place(def, s);
    DROMEDARY_TRY(has_strategy, strategyRef(def, s));
    if (!has_strategy) return fileError(s.where, "aggregate needs 'aggregationStrategy'");
    DROMEDARY_TRY(predicate, predicateOf(s, "completionPredicate"));
    if (predicate) def.completionPredicate(std::move(*predicate));
    DROMEDARY_TRY(size, number(s, "completionSize"));
    DROMEDARY_TRY(timeout, number(s, "completionTimeout"));
    DROMEDARY_TRY(interval, number(s, "completionInterval"));
    DROMEDARY_TRY(checker, number(s, "completionTimeoutCheckerInterval"));
    for (auto [key, v] : {std::pair{"completionSize", size}, std::pair{"completionTimeout", timeout},
                          std::pair{"completionInterval", interval},
                          std::pair{"completionTimeoutCheckerInterval", checker}}) {
      if (v < 0 || (v == 0 && std::string_view(key) == "completionTimeoutCheckerInterval")) {
        return fileError(attribute(s.attributes, key)->where,
                         fmt::format("{} must be positive, not {}", key, v));
      }
    }
    if (size > 0) def.completionSize(size);
    if (timeout > 0) def.completionTimeout(std::chrono::milliseconds(timeout));
    if (interval > 0) def.completionInterval(std::chrono::milliseconds(interval));
    def.completionTimeoutCheckerInterval(std::chrono::milliseconds(checker));
    DROMEDARY_TRY(batch, flag(s, "completionFromBatchConsumer"));
    if (batch) def.completionFromBatchConsumer();
    DROMEDARY_TRY(eager, flag(s, "eagerCheckCompletion"));
    if (eager) def.eagerCheckCompletion();
    DROMEDARY_TRY(force, flag(s, "forceCompletionOnStop"));
    if (force) def.forceCompletionOnStop();
    DROMEDARY_TRY(discard, flag(s, "discardOnCompletionTimeout"));
    if (discard) def.discardOnCompletionTimeout();
    if (const Scalar* c = attribute(s.attributes, "closeCorrelationKeyOnCompletion")) {
      DROMEDARY_TRY(capacity, number(s, "closeCorrelationKeyOnCompletion"));
      if (capacity < 0) {
        return fileError(c->where, fmt::format("closeCorrelationKeyOnCompletion must not be "
                                               "negative, not {}", capacity));
      }
      def.closeCorrelationKeyOnCompletion(capacity);
    }
    if (const Scalar* r = attribute(s.attributes, "aggregationRepository")) {
      DROMEDARY_TRY(name, resolve(*r));
      std::string_view bare = std::string_view(name).substr(name.starts_with("#") ? 1 : 0);
      if (!context_.aggregationRepositoryByName(bare)) {
        return fileError(r->where, fmt::format("no aggregation repository bound as '{}'", bare),
                         fmt::format("bind one with Context::bindAggregationRepository(\"{}\", "
                                     "sqliteAggregationRepository(...))",
                                     bare));
      }
      def.aggregationRepositoryRef(std::string(bare));
    }
    DROMEDARY_TRY_VOID(steps(def, s.steps));
    def.end();
    return {};
  }

  // resequence: batchConfig {batchSize, batchTimeout, allowDuplicates, reverse,
  // ignoreInvalidExchanges} or streamConfig {capacity, timeout, rejectOld,
  // ignoreInvalidExchanges}; batch by default.
  Result<void> resequence(RouteDefinition& def, const StepSource& s, ExpressionDefinition expr) {
    def.resequence(std::move(expr));
    place(def, s);
    if (s.policies.size() > 1) {
      return fileError(s.policies[1].where, "a resequence has one batchConfig or streamConfig");
    }
    const StepSource* c = s.policies.empty() ? nullptr : &s.policies[0];
    const bool stream = c && c->kind == "streamConfig";
    if (c) {
      std::vector<std::string_view> keys =
          stream ? std::vector<std::string_view>{"capacity", "timeout", "rejectOld",
                                                 "ignoreInvalidExchanges",
                                                 "deliveryAttemptInterval"}
                 : std::vector<std::string_view>{"batchSize", "batchTimeout", "allowDuplicates",
                                                 "reverse", "ignoreInvalidExchanges"};
      DROMEDARY_TRY_VOID(checkKeys(*c, keys, {}, false));
    }
    StepSource none;
    const StepSource& o = c ? *c : none;
    auto positive = [&](std::string_view key, int64_t fallback) -> Result<int64_t> {
      DROMEDARY_TRY(v, number(o, key, fallback));
      if (v < 1) {
        return fileError(attribute(o.attributes, key)->where,
                         fmt::format("{} must be at least 1, not {}", key, v));
      }
      return v;
    };
    if (stream) {
      DROMEDARY_TRY(capacity, positive("capacity", 1000));
      DROMEDARY_TRY(timeout, positive("timeout", 1000));
      def.stream(capacity, std::chrono::milliseconds(timeout));
      DROMEDARY_TRY(reject, flag(o, "rejectOld"));
      if (reject) def.rejectOld();
    } else {
      DROMEDARY_TRY(size, positive("batchSize", 100));
      DROMEDARY_TRY(timeout, positive("batchTimeout", 1000));
      def.batch(size, std::chrono::milliseconds(timeout));
      DROMEDARY_TRY(duplicates, flag(o, "allowDuplicates"));
      if (duplicates) def.allowDuplicates();
      DROMEDARY_TRY(reverse, flag(o, "reverse"));
      if (reverse) def.reverse();
    }
    DROMEDARY_TRY(ignore, flag(o, "ignoreInvalidExchanges"));
    if (ignore) def.ignoreInvalidExchanges();
    DROMEDARY_TRY_VOID(steps(def, s.steps));
    def.end();
    return {};
  }

  Result<void> loadBalance(RouteDefinition& def, const StepSource& s) {
    def.loadBalance();
    place(def, s);
    if (s.policies.size() > 1) {
      return fileError(s.policies[1].where, "a loadBalance has one policy",
                       fmt::format("'{}' was given already", s.policies[0].kind));
    }
    if (!s.policies.empty()) {
      const StepSource& p = s.policies[0];
      const std::string& k = p.kind;
      std::vector<std::string_view> keys = {"id"};
      std::vector<std::string_view> predicates;
      if (k == "failover") keys = {"id", "maximumFailoverAttempts", "roundRobin", "sticky",
                                   "inheritErrorHandler"};
      if (k == "weighted") keys = {"id", "distributionRatio", "distributionRatioDelimiter",
                                   "roundRobin"};
      if (k == "sticky") predicates = {"correlationExpression"};
      DROMEDARY_TRY_VOID(checkKeys(p, keys, predicates, false));
      if (!p.steps.empty()) return fileError(p.steps.front().where, fmt::format("{} takes no steps", k));
      if (k != "failover" && !p.exceptions.empty()) {
        return fileError(p.exceptions.front().where, fmt::format("unknown key 'exception' in {}", k));
      }
      if (k == "roundRobin") {
        def.roundRobin();
      } else if (k == "random") {
        def.random();
      } else if (k == "failover") {
        DROMEDARY_TRY(types, exceptionNames(p));
        DROMEDARY_TRY(attempts, number(p, "maximumFailoverAttempts", -1));
        if (attempts < -1) {
          return fileError(attribute(p.attributes, "maximumFailoverAttempts")->where,
                           fmt::format("maximumFailoverAttempts must be -1 or more, not {}",
                                       attempts));
        }
        DROMEDARY_TRY(rr, flag(p, "roundRobin"));
        DROMEDARY_TRY(sticky, flag(p, "sticky"));
        def.failover(static_cast<int>(attempts), rr, sticky, types);
      } else if (k == "weighted") {
        const Scalar* ratio = attribute(p.attributes, "distributionRatio");
        if (!ratio) return fileError(p.where, "weighted needs 'distributionRatio'");
        DROMEDARY_TRY(r, resolve(*ratio));
        std::string delimiter = ",";
        if (const Scalar* d = attribute(p.attributes, "distributionRatioDelimiter")) {
          DROMEDARY_TRY(v, resolve(*d));
          delimiter = v;
        }
        DROMEDARY_TRY(rr, flag(p, "roundRobin"));
        def.weighted(rr, r, delimiter);
      } else if (k == "sticky") {
        DROMEDARY_TRY(key, predicateOf(p, "correlationExpression"));
        if (!key) return fileError(p.where, "sticky needs 'correlationExpression'");
        const ExpressionSource* source = nullptr;
        for (const auto& [name, e] : p.predicates) {
          if (name == "correlationExpression") source = &e;
        }
        DROMEDARY_TRY(key_expr, expression(*source));
        def.sticky(key_expr);
      }
    }
    DROMEDARY_TRY_VOID(steps(def, s.steps));
    def.end();
    return {};
  }

  // A strategy bound in the context or one of Camel's class names, checked now so that a
  // mistake points at the name in the file.
  Result<std::string> strategyName(const Scalar& a) {
    DROMEDARY_TRY(v, resolve(a));
    std::string name = v.starts_with("#bean:") ? v.substr(6) : v;
    if (!context_.aggregationStrategyByName(name) && !AggregationStrategies::byClassName(name)) {
      std::vector<std::string_view> known = AggregationStrategies::classNames();
      return fileError(a.where, fmt::format("no aggregation strategy '{}'", name),
                       fmt::format("bind one with Context::bindAggregationStrategy(\"{}\", "
                                   "...) or name one of: {}",
                                   name, fmt::join(known, ", ")));
    }
    return name;
  }

  // tokenize: {token, regex, group, skipFirst} (YAML keys or XML attributes).
  Result<Tokenizer> tokenizer(const ExpressionSource& e) {
    Tokenizer t;
    bool has_token = false;
    static const std::vector<std::string_view> kKeys = {"token", "regex", "group", "skipFirst",
                                                        "id", "trim"};
    for (const auto& [key, scalar] : e.options) {
      DROMEDARY_TRY(v, resolve(scalar));
      if (key == "token") {
        t.token = v;
        has_token = true;
      } else if (key == "regex" || key == "skipFirst") {
        if (v != "true" && v != "false") {
          return fileError(scalar.where, fmt::format("{} must be true or false, not '{}'", key, v));
        }
        (key == "regex" ? t.regex : t.skipFirst) = v == "true";
      } else if (key == "group") {
        auto n = parseInteger(v);
        if (!n || *n < 0) {
          return fileError(scalar.where,
                           fmt::format("group must be a whole number of tokens, not '{}'", v));
        }
        t.group = static_cast<int>(*n);
      } else if (key != "id" && key != "trim") {
        return fileError(scalar.where, fmt::format("unknown key '{}' in tokenize", key),
                         suggestion(key, kKeys));
      }
    }
    if (!has_token && !e.text.empty()) {
      t.token = e.text;
      has_token = true;
    }
    if (!has_token) return fileError(e.where, "tokenize needs 'token'");
    if (!t.regex) {
      // Route files write control characters escaped (token="\n" in XML has no newline).
      std::string token;
      for (size_t i = 0; i < t.token.size(); ++i) {
        char c = t.token[i];
        if (c == '\\' && i + 1 < t.token.size()) {
          char n = t.token[i + 1];
          if (n == 'n' || n == 'r' || n == 't') {
            token += n == 'n' ? '\n' : n == 'r' ? '\r' : '\t';
            ++i;
            continue;
          }
        }
        token += c;
      }
      t.token = std::move(token);
    }
    return t;
  }

  // aggregationStrategy / strategyRef (either key): names the step's strategy. True when one
  // was given.
  Result<bool> strategyRef(RouteDefinition& def, const StepSource& s) {
    bool given = false;
    for (std::string_view key : {"aggregationStrategy", "strategyRef"}) {
      if (const Scalar* a = attribute(s.attributes, key)) {
        DROMEDARY_TRY(name, strategyName(*a));
        def.aggregationStrategyRef(name);
        given = true;
      }
    }
    return given;
  }

  Result<void> aggregationOptions(RouteDefinition& def, const StepSource& s) {
    DROMEDARY_TRY(named, strategyRef(def, s));
    (void)named;
    DROMEDARY_TRY(parallel, flag(s, "parallelProcessing"));
    if (parallel) def.parallelProcessing();
    DROMEDARY_TRY(stop, flag(s, "stopOnException"));
    if (stop) def.stopOnException();
    DROMEDARY_TRY(share, flag(s, "shareUnitOfWork"));
    if (share) def.shareUnitOfWork();
    DROMEDARY_TRY(timeout, number(s, "timeout"));
    if (timeout < 0) {
      return fileError(attribute(s.attributes, "timeout")->where,
                       fmt::format("timeout must not be negative, not {}", timeout));
    }
    if (timeout > 0) def.timeout(std::chrono::milliseconds(timeout));
    return {};
  }

  // enrich and pollEnrich (Camel's keys; cacheSize is accepted and checked, as for
  // recipientList: endpoints are cached per thread without a bound).
  Result<void> enrich(RouteDefinition& def, const StepSource& s, const ExpressionDefinition& uri) {
    if (s.kind == "pollEnrich") {
      DROMEDARY_TRY(timeout, number(s, "timeout"));
      def.pollEnrich(uri, timeout);
    } else {
      def.enrich(uri);
    }
    place(def, s);
    DROMEDARY_TRY(named, strategyRef(def, s));
    (void)named;
    DROMEDARY_TRY(on_exception, flag(s, "aggregateOnException"));
    if (on_exception) def.aggregateOnException();
    DROMEDARY_TRY(ignore, flag(s, "ignoreInvalidEndpoint"));
    if (ignore) def.ignoreInvalidEndpoints();
    DROMEDARY_TRY(size, cacheSize(s));
    (void)size;
    return {};
  }

  Result<int64_t> cacheSize(const StepSource& s) {
    DROMEDARY_TRY(size, number(s, "cacheSize"));
    if (size == 0 || size < -1) {
      return fileError(attribute(s.attributes, "cacheSize")->where,
                       fmt::format("cacheSize must be -1 or at least 1, not {}", size));
    }
    return size;
  }

  Result<void> endpointOptions(RouteDefinition& def, const StepSource& s, bool cache) {
    DROMEDARY_TRY(ignore, flag(s, "ignoreInvalidEndpoints"));
    if (ignore) def.ignoreInvalidEndpoints();
    DROMEDARY_TRY(size, cacheSize(s));
    if (cache) def.cacheSize(static_cast<int>(size));
    return {};
  }

  Result<bool> flag(const StepSource& s, std::string_view key) {
    const Scalar* a = attribute(s.attributes, key);
    if (!a) return false;
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "true" && v != "false") {
      return fileError(a->where, fmt::format("{} must be true or false, not '{}'", key, v));
    }
    return v == "true";
  }

  Result<void> throttle(RouteDefinition& def, const StepSource& s, ExpressionDefinition max) {
    DROMEDARY_TRY(reject, flag(s, "rejectExecution"));
    if (const Scalar* mode = attribute(s.attributes, "mode")) {
      if (mode->value == "ConcurrentRequests") {
        def.throttleConcurrentRequests(std::move(max), reject);
        return {};
      }
      if (mode->value != "TotalRequests") {
        return fileError(mode->where, fmt::format("unknown throttle mode '{}'", mode->value),
                         suggestion(mode->value, {"TotalRequests", "ConcurrentRequests"}));
      }
    }
    DROMEDARY_TRY(period, number(s, "timePeriodMillis"));
    def.throttle(std::move(max), std::chrono::milliseconds(period), reject);
    return {};
  }

  Result<void> log(RouteDefinition& def, const StepSource& s) {
    DROMEDARY_TRY(message, text(s, "message"));
    LoggingLevel level = LoggingLevel::Info;
    if (const Scalar* l = attribute(s.attributes, "loggingLevel")) {
      DROMEDARY_TRY(v, resolve(*l));
      auto parsed = parseLoggingLevel(v);
      if (!parsed) {
        return fileError(l->where, fmt::format("unknown loggingLevel '{}'", v),
                         "expected one of: TRACE, DEBUG, INFO, WARN, ERROR, OFF");
      }
      level = *parsed;
    }
    std::string log_name;
    if (const Scalar* n = attribute(s.attributes, "logName")) {
      DROMEDARY_TRY(v, resolve(*n));
      log_name = v;
    }
    def.log(level, log_name, message);
    return {};
  }

  Result<void> choice(RouteDefinition& def, const StepSource& s) {
    if (s.whens.empty()) return fileError(s.where, "choice needs at least one when");
    def.choice();
    place(def, s);
    for (const StepSource& when : s.whens) {
      if (!when.expression) {
        return fileError(when.where, "when needs a predicate",
                         "write it as simple, constant, header or exchangeProperty");
      }
      for (const auto& [key, value] : when.attributes) {
        if (key != "id" && key != "description") {
          return fileError(value.where, fmt::format("unknown key '{}' in when", key),
                           suggestion(key, {"id", "description"}));
        }
      }
      DROMEDARY_TRY(predicate, expression(*when.expression));
      def.when(predicate);
      DROMEDARY_TRY_VOID(steps(def, when.steps));
    }
    for (const StepSource& other : s.otherwise) {
      def.otherwise();
      DROMEDARY_TRY_VOID(steps(def, other.steps));
    }
    def.end();
    return {};
  }

  // Records the step's position and its id (node ids show in statistics and errors).
  void place(RouteDefinition& def, const StepSource& s) {
    detail::StepModel* step = def.lastStepForEngine();
    if (!step) return;
    step->where = s.where;
    if (const Scalar* id = attribute(s.attributes, "id")) step->id = id->value;
  }

  Context& context_;
};

}  // namespace

std::string positionText(const SourceRef& where) {
  if (where.line == 0) return where.file;
  return fmt::format("{}:{}:{}", where.file, where.line, where.column);
}

Error fileError(const SourceRef& where, std::string_view what, std::string_view hint) {
  std::string message = fmt::format("{} at {}", what, positionText(where));
  if (!hint.empty()) {
    message += "; ";
    message += hint;
  }
  Error e = makeError(ErrorCode::InvalidRoute, std::move(message));
  e.where.snippet = where.snippet;
  return e;
}

std::string suggestion(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string meant = closestMatch(word, candidates);
  if (!meant.empty()) return fmt::format("did you mean '{}'?", meant);
  return fmt::format("expected one of: {}", joinNames(candidates));
}

const std::vector<std::string_view>& expressionLanguages() {
  static const std::vector<std::string_view> languages = {"simple", "constant", "header",
                                                          "exchangeProperty", "tokenize"};
  return languages;
}

namespace {

using Templates = std::map<std::string, RouteTemplate, std::less<>>;

// The load's routeTemplates, as templates whose build translates a copy of the route with the
// parameters put in (positions kept, so a mistake points into the template).
Result<Templates> routeTemplates(Context& context, const FileSources& sources) {
  Templates out;
  auto configs = std::make_shared<std::vector<RouteConfigurationSource>>(sources.configurations);
  for (const RouteTemplateSource& t : sources.templates) {
    if (out.count(t.id.value) || context.routeTemplate(t.id.value)) {
      return fileError(t.id.where,
                       fmt::format("route template id '{}' is used twice", t.id.value));
    }
    RouteTemplate made;
    for (const TemplateParameterSource& p : t.parameters) {
      TemplateParameter parameter(p.name.value);
      if (p.defaultValue) parameter.defaultValue = p.defaultValue->value;
      if (p.required) {
        if (p.required->value != "true" && p.required->value != "false") {
          return fileError(p.required->where, fmt::format("required must be true or false, not '{}'",
                                                          p.required->value));
        }
        parameter.required = p.required->value == "true";
      }
      parameter.description = p.description;
      made.parameters.push_back(std::move(parameter));
    }
    auto source = std::make_shared<RouteTemplateSource>(t);
    made.build = [&context, source, configs](RouteBuilder& builder,
                                             const TemplateParameters& values) -> Result<void> {
      RouteSource route = source->route;
      substituteTemplateParameters(route, values);
      Translator translator(context);
      return translator.route(builder, route, *configs);
    };
    out.emplace(t.id.value, std::move(made));
  }
  return out;
}

Result<void> templatedRoute(Context& context, const Templates& templates, RouteBuilder& builder,
                            const TemplatedRouteSource& t) {
  const RouteTemplate* found = nullptr;
  if (auto it = templates.find(t.templateRef.value); it != templates.end()) found = &it->second;
  if (!found) found = context.routeTemplate(t.templateRef.value);
  if (!found) {
    std::vector<std::string> known = context.routeTemplateIds();
    for (const auto& [id, unused] : templates) known.push_back(id);
    std::vector<std::string_view> names(known.begin(), known.end());
    return fileError(t.templateRef.where,
                     fmt::format("unknown route template '{}'", t.templateRef.value),
                     names.empty() ? "no routeTemplate is defined" : suggestion(t.templateRef.value, names));
  }
  TemplateParameters values;
  for (const auto& [name, value] : t.parameters) {
    if (!values.emplace(name.value, value.value).second) {
      return fileError(name.where, fmt::format("parameter '{}' is given twice", name.value));
    }
  }
  auto added = addRouteFromTemplate(builder, *found, t.templateRef.value,
                                    t.routeId ? t.routeId->value : std::string(), values);
  if (!added && added.error().where.file.empty()) {
    return fileError(t.where, added.error().message);
  }
  return added;
}

}  // namespace

const Scalar* attribute(const std::vector<std::pair<std::string, Scalar>>& attributes,
                        std::string_view key) {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<std::string> resolveScalar(Context& context, const Scalar& s) {
  if (s.value.find("{{") == std::string::npos) return s.value;
  auto r = context.resolvePlaceholders(s.value);
  if (!r) return fileError(s.where, r.error().message);
  return r;
}

Result<void> addRouteSources(Context& context, const FileSources& sources) {
  for (const BeanSource& bean : sources.beans) {
    if (context.processorByName(bean.name.value)) continue;
    return fileError(bean.name.where,
                     fmt::format("bean '{}'{} cannot be created: there are no Java classes here",
                                 bean.name.value,
                                 bean.type.empty() ? std::string()
                                                   : fmt::format(" of type '{}'", bean.type)),
                     fmt::format("bind a C++ processor under this name with "
                                 "Context::bindProcessor(\"{}\", ...)",
                                 bean.name.value));
  }
  Translator translator(context);
  RouteBuilder builder;
  std::set<std::string_view> ids;
  for (const RouteConfigurationSource& c : sources.configurations) {
    if (c.id && !ids.insert(c.id->value).second) {
      return fileError(c.id->where,
                       fmt::format("routeConfiguration id '{}' is used twice", c.id->value));
    }
  }
  DROMEDARY_TRY(templates, routeTemplates(context, sources));
  DROMEDARY_TRY_VOID(translator.globalConfigurations(builder, sources.configurations));
  for (const RouteSource& r : sources.routes) {
    DROMEDARY_TRY_VOID(translator.route(builder, r, sources.configurations));
  }
  DROMEDARY_TRY(rest_routes, restRoutes(context, sources));
  for (const RouteSource& r : rest_routes) {
    DROMEDARY_TRY_VOID(translator.route(builder, r, sources.configurations));
  }
  for (const TemplatedRouteSource& t : sources.templatedRoutes) {
    DROMEDARY_TRY_VOID(templatedRoute(context, templates, builder, t));
  }
  DROMEDARY_TRY_VOID(context.addRoutes(builder));
  // The load's templates stay in the context, for code or later loads to add routes from.
  for (auto& [id, t] : templates) DROMEDARY_TRY_VOID(context.addRouteTemplate(id, std::move(t)));
  return {};
}

}  // namespace dromedary::dsl
