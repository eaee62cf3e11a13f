// SPDX-License-Identifier: Apache-2.0
// The basic steps of route files: sending, setting and removing, converting, logging, stopping,
// waiting (delay, throttle), threads, process, wireTap, sort and sample.
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include "dsl/translator.h"
#include "eip/eip_schemas.h"

namespace dromedary::dsl {

namespace {

using Expr = std::optional<ExpressionDefinition>;

Pattern patternOf(const Scalar& pattern) {
  return pattern.value == "InOut" ? Pattern::InOut : Pattern::InOnly;
}

// Camel 4's variableSend / variableReceive of a to, toD or enrich just added.
Result<void> sendVariables(Translator& t, RouteDefinition& def, const StepSource& s) {
  if (attribute(s.attributes, "variableSend")) {
    DROMEDARY_TRY(name, t.text(s, "variableSend"));
    def.variableSend(name);
  }
  if (attribute(s.attributes, "variableReceive")) {
    DROMEDARY_TRY(name, t.text(s, "variableReceive"));
    def.variableReceive(name);
  }
  return {};
}

Result<void> to(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(uri, t.withParameters(*attribute(s.attributes, "uri"), s.parameters));
  const Scalar* pattern = attribute(s.attributes, "pattern");
  pattern ? def.to(patternOf(*pattern), uri) : def.to(uri);
  return sendVariables(t, def, s);
}

Result<void> toD(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(uri, t.withParameters(*attribute(s.attributes, "uri"), s.parameters));
  const Scalar* pattern = attribute(s.attributes, "pattern");
  pattern ? def.toD(patternOf(*pattern), uri) : def.toD(uri);
  if (attribute(s.attributes, "allowOptimisedComponents")) {
    DROMEDARY_TRY(allow, t.flag(s, "allowOptimisedComponents"));
    def.allowOptimisedComponents(allow);
  }
  return sendVariables(t, def, s);
}

Result<void> setBody(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.setBody(*e);
  return {};
}

Result<void> script(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.script(*e);
  return {};
}

Result<void> transform(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.transform(*e);
  return {};
}

Result<void> setHeader(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.setHeader(name, *e);
  return {};
}

Result<void> setProperty(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.setProperty(name, *e);
  return {};
}

Result<void> setVariable(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.setVariable(name, *e);
  return {};
}

Result<void> removeVariable(Translator& t, RouteDefinition& def, const StepSource& s,
                            const Expr&) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.removeVariable(name);
  return {};
}

Result<void> claimCheck(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(op, t.text(s, "operation"));
  static constexpr std::pair<std::string_view, ClaimCheckOperation> kOps[] = {
      {"Get", ClaimCheckOperation::Get},   {"GetAndRemove", ClaimCheckOperation::GetAndRemove},
      {"Set", ClaimCheckOperation::Set},   {"Push", ClaimCheckOperation::Push},
      {"Pop", ClaimCheckOperation::Pop}};
  const ClaimCheckOperation* found = nullptr;
  for (const auto& [name, value] : kOps) {
    if (name == op) found = &value;
  }
  if (!found) {
    return fileError(attribute(s.attributes, "operation")->where,
                     fmt::format("claimCheck operation must be Get, GetAndRemove, Set, Push or "
                                 "Pop, not '{}'",
                                 op));
  }
  if (const Scalar* m = attribute(s.attributes, "aggregationStrategyMethodName")) {
    return fileError(m->where, "aggregationStrategyMethodName calls a Java bean's method, which "
                               "Dromedary does not have");
  }
  std::string key, filter;
  if (attribute(s.attributes, "key")) DROMEDARY_TRY_ASSIGN(key, t.text(s, "key"));
  if (attribute(s.attributes, "filter")) DROMEDARY_TRY_ASSIGN(filter, t.text(s, "filter"));
  def.claimCheck(*found, key, filter);
  if (const Scalar* a = attribute(s.attributes, "aggregationStrategy")) {
    DROMEDARY_TRY(name, t.strategyName(*a));
    def.aggregationStrategyRef(name);
  }
  return {};
}

Result<void> removeHeader(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.removeHeader(name);
  return {};
}

Result<void> removeProperty(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  def.removeProperty(name);
  return {};
}

// removeHeaders and removeProperties: a pattern, and an excludePattern.
Result<std::vector<std::string>> excludes(Translator& t, const StepSource& s) {
  std::vector<std::string> out;
  if (const Scalar* ex = attribute(s.attributes, "excludePattern")) {
    DROMEDARY_TRY(v, t.resolve(*ex));
    out.push_back(v);
  }
  return out;
}

Result<void> removeHeaders(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(pattern, t.text(s, "pattern"));
  DROMEDARY_TRY(kept, excludes(t, s));
  def.removeHeaders(pattern, kept);
  return {};
}

Result<void> removeProperties(Translator& t, RouteDefinition& def, const StepSource& s,
                              const Expr&) {
  DROMEDARY_TRY(pattern, t.text(s, "pattern"));
  DROMEDARY_TRY(kept, excludes(t, s));
  def.removeProperties(pattern, kept);
  return {};
}

// setHeaders (setVariables): each of its headers (variables) a setHeader (setVariable) step,
// in order.
Result<void> setHeaders(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  const bool variables = s.kind == "setVariables";
  const std::string_view each = variables ? "setVariable" : "setHeader";
  if (s.steps.empty()) {
    return fileError(s.where, fmt::format("{} needs at least one {}", s.kind,
                                          variables ? "variable" : "header"));
  }
  for (const StepSource& h : s.steps) {
    if (h.kind != each) {
      return fileError(h.where, fmt::format("{} holds {} entries, not {}", s.kind, each, h.kind));
    }
  }
  return t.steps(def, s.steps);
}

Result<void> setExchangePattern(Translator& t, RouteDefinition& def, const StepSource& s,
                                const Expr&) {
  DROMEDARY_TRY(pattern, t.text(s, "pattern"));
  if (pattern == "InOnly") {
    def.setExchangePattern(Pattern::InOnly);
  } else if (pattern == "InOut") {
    def.setExchangePattern(Pattern::InOut);
  } else {
    return fileError(attribute(s.attributes, "pattern")->where,
                     fmt::format("unknown exchange pattern '{}'", pattern),
                     "expected InOnly or InOut");
  }
  return {};
}

// A conversion's optional keys: charset (empty: UTF-8) and mandatory (true unless given).
struct ConversionKeys {
  std::string charset;
  bool mandatory = true;
};
Result<ConversionKeys> conversionKeys(Translator& t, const StepSource& s) {
  ConversionKeys keys;
  if (attribute(s.attributes, "charset")) {
    DROMEDARY_TRY(c, t.text(s, "charset"));
    keys.charset = std::move(c);
  }
  if (attribute(s.attributes, "mandatory")) {
    DROMEDARY_TRY(m, t.flag(s, "mandatory"));
    keys.mandatory = m;
  }
  return keys;
}

Result<void> convertHeaderTo(Translator& t, RouteDefinition& def, const StepSource& s,
                             const Expr&) {
  DROMEDARY_TRY(name, t.text(s, "name"));
  DROMEDARY_TRY(type, t.text(s, "type"));
  std::string to_name;
  if (attribute(s.attributes, "toName")) {
    DROMEDARY_TRY(v, t.text(s, "toName"));
    to_name = std::move(v);
  }
  DROMEDARY_TRY(keys, conversionKeys(t, s));
  if (s.kind == "convertVariableTo") {
    def.convertVariableTo(name, type, to_name, keys.charset, keys.mandatory);
  } else {
    def.convertHeaderTo(name, type, to_name, keys.charset, keys.mandatory);
  }
  return {};
}

Result<void> convertBodyTo(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(type, t.text(s, "type"));
  DROMEDARY_TRY(keys, conversionKeys(t, s));
  def.convertBodyTo(type, keys.charset, keys.mandatory);
  return {};
}

// marshal / unmarshal: one data format clause (`json: {prettyPrint: true}`), its options as
// written; the data format checks them when the route starts.
Result<void> dataFormatStep(Translator& t, RouteDefinition& def, const StepSource& s) {
  const eip::EipSchema& schema = s.kind == "marshal" ? eip::kMarshalSchema : eip::kUnmarshalSchema;
  if (s.policies.empty()) {
    return fileError(s.where, fmt::format("{} needs a data format", s.kind),
                     fmt::format("e.g. '{}: {{json: {{}}}}'; {}", s.kind, schema.clauses));
  }
  if (s.policies.size() > 1) {
    return fileError(s.policies[1].where, fmt::format("a {} has one data format", s.kind),
                     fmt::format("'{}' was given already", s.policies[0].kind));
  }
  const StepSource& f = s.policies[0];
  std::vector<std::string_view> keys = {"id"};
  if (const eip::ClauseSchema* clause = schema.clause(f.kind)) {
    for (std::string_view a : clauseKeys(*clause)) keys.push_back(a);
  }
  DROMEDARY_TRY_VOID(t.checkKeys(f, keys, {}, false));
  std::map<std::string, std::string, std::less<>> options;
  for (const auto& [key, value] : f.attributes) {
    if (key == "id") continue;
    DROMEDARY_TRY(v, t.resolve(value));
    options[key] = v;
  }
  if (s.kind == "marshal") {
    def.marshal(f.kind, std::move(options));
  } else {
    def.unmarshal(f.kind, std::move(options));
  }
  return sendVariables(t, def, s);
}

Result<void> marshal(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  return dataFormatStep(t, def, s);
}

Result<void> log(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  return t.log(def, s);
}

Result<void> stop(Translator&, RouteDefinition& def, const StepSource&, const Expr&) {
  def.stop();
  return {};
}

Result<void> throttle(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  return t.throttle(def, s, *e);
}

Result<void> threads(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(pool, t.number(s, "poolSize"));
  DROMEDARY_TRY(max_pool, t.number(s, "maxPoolSize", -1));  // -1: the builder's default
  DROMEDARY_TRY(max_queue, t.number(s, "maxQueueSize"));
  def.threads(static_cast<int>(pool), static_cast<int>(max_pool), static_cast<int>(max_queue));
  return {};
}

Result<void> delay(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.delay(*e);  // always asynchronous here: asyncDelayed=false would block a thread
  return {};
}

Result<void> process(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  if (s.processor) {  // made by the loader (its ref only names it)
    def.process(s.processor);
    return {};
  }
  DROMEDARY_TRY(ref, t.text(s, "ref"));
  def.processRef(ref);
  return {};
}

Result<void> bean(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  if (const Scalar* type = attribute(s.attributes, "beanType")) {
    // A class Dromedary makes natively (a bean factory's: Camel's JSON transforms ...) is made
    // once under its class name, as `ref: CLASS` is.
    std::string_view cls = type->value;
    if (cls.starts_with("#class:")) cls.remove_prefix(7);
    if (!attribute(s.attributes, "ref") && t.context().beanFactory(cls)) {
      std::string method;
      if (const Scalar* m = attribute(s.attributes, "method")) method = m->value;
      def.bean(std::string(cls), method);
      return {};
    }
    return fileError(type->where,
                     fmt::format("bean of type '{}' cannot be created: there are no Java "
                                 "classes here",
                                 type->value),
                     "give ref: the name of a C++ processor bound with Context::bindProcessor");
  }
  DROMEDARY_TRY(ref, t.text(s, "ref"));
  std::string method;
  if (const Scalar* m = attribute(s.attributes, "method")) method = m->value;
  def.bean(ref, method);
  return {};
}

Result<void> wireTap(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(uri, t.text(s, "uri"));
  def.wireTap(uri);
  return sendVariables(t, def, s);
}

Result<void> sort(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.sort(*e);
  return {};
}

Result<void> sample(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(frequency, t.number(s, "messageFrequency"));
  if (frequency != 0) {
    if (frequency < 0) {
      return fileError(attribute(s.attributes, "messageFrequency")->where,
                       fmt::format("messageFrequency must be positive, not {}", frequency));
    }
    def.sample(frequency);
    return {};
  }
  DROMEDARY_TRY(period, t.number(s, "samplePeriod"));
  if (period < 1) {
    return fileError(attribute(s.attributes, "samplePeriod")->where,
                     fmt::format("samplePeriod must be at least 1 ms, not {}", period));
  }
  def.sample(std::chrono::milliseconds(period));
  return {};
}

constexpr StepTranslation kBasic[] = {
    {"to", to},
    {"toD", toD},
    {"setBody", setBody},
    {"transform", transform},
    {"setHeader", setHeader},
    {"setProperty", setProperty},
    {"removeHeader", removeHeader},
    {"removeHeaders", removeHeaders},
    {"removeProperty", removeProperty},
    {"removeProperties", removeProperties},
    {"convertBodyTo", convertBodyTo},
    {"convertHeaderTo", convertHeaderTo},
    {"setExchangePattern", setExchangePattern},
    {"setHeaders", setHeaders},
    {"setVariable", setVariable},
    {"setVariables", setHeaders},
    {"removeVariable", removeVariable},
    {"convertVariableTo", convertHeaderTo},
    {"claimCheck", claimCheck},
    {"marshal", marshal},
    {"script", script},
    {"unmarshal", marshal},
    {"log", log},
    {"stop", stop},
    {"delay", delay},
    {"throttle", throttle},
    {"threads", threads},
    {"process", process},
    {"bean", bean},
    {"wireTap", wireTap},
    {"sort", sort},
    {"sample", sample},
};

}  // namespace

std::span<const StepTranslation> basicStepTranslations() { return kBasic; }

Result<void> Translator::throttle(RouteDefinition& def, const StepSource& s,
                                  ExpressionDefinition max) {
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

Result<void> Translator::log(RouteDefinition& def, const StepSource& s) {
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

}  // namespace dromedary::dsl
