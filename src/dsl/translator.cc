// SPDX-License-Identifier: Apache-2.0
// The walker of route files: each step is checked against its EIP's schema (keys, required
// keys, typed values, expression, nested steps), its expression compiled, and handed to the
// translation its group file declares for its key. See translator.h.
#include "dsl/translator.h"

#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "core/text.h"
#include "engine/route_model.h"

namespace dromedary::dsl {

using eip::AttributeSchema;
using eip::AttributeType;
using eip::EipSchema;
using eip::ExpressionUse;

namespace {

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

}  // namespace

std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return n;
}

std::optional<double> parseDecimal(std::string_view text) {
  double n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return n;
}

const StepTranslation* findStepTranslation(std::string_view key) {
  static const auto kByKey = [] {
    std::map<std::string_view, const StepTranslation*> by_key;
    for (auto group : {basicStepTranslations(), routingStepTranslations(), fanOutStepTranslations(),
                       errorHandlingStepTranslations()}) {
      for (const StepTranslation& t : group) by_key.emplace(t.key, &t);
    }
    return by_key;
  }();
  auto it = kByKey.find(key);
  return it == kByKey.end() ? nullptr : it->second;
}

Result<void> Translator::step(RouteDefinition& def, const StepSource& s) {
  const EipSchema* schema = eip::findEipSchema(s.kind);
  const StepTranslation* translation = schema ? findStepTranslation(schema->key) : nullptr;
  if (!translation) {
    return fileError(s.where, fmt::format("unknown step '{}'", s.kind),
                     suggestion(s.kind, stepKinds()));
  }
  DROMEDARY_TRY_VOID(validate(s, *schema));
  std::optional<ExpressionDefinition> expr;
  if (s.expression && s.expression->language == "tokenize") {
    if (s.kind != "split") {
      return fileError(s.expression->where,
                       fmt::format("tokenize cuts a split's text; {} takes simple, constant, "
                                   "header or exchangeProperty",
                                   s.kind));
    }
  } else if (s.expression) {
    DROMEDARY_TRY(e, expression(*s.expression));
    expr = std::move(e);
  }
  DROMEDARY_TRY_VOID(translation->translate(*this, def, s, expr));
  if (!translation->placed) place(def, s);
  return {};
}

// Applies the routeConfigurations without an id to every route of the builder.
Result<void> Translator::globalConfigurations(
    RouteBuilder& builder, const std::vector<RouteConfigurationSource>& configs) {
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
    for (const StepSource& clause : c.intercepts) {
      DROMEDARY_TRY_VOID(intercept(&builder, nullptr, clause));
    }
  }
  return {};
}

Result<void> Translator::route(RouteBuilder& builder, const RouteSource& source,
                               const std::vector<RouteConfigurationSource>& configs) {
  for (const auto& [key, value] : source.attributes) {
    static const std::vector<std::string_view> kRouteKeys = {
        "id",           "description",       "autoStartup", "routeConfigurationId",
        "errorHandlerRef", "shutdownRoute", "shutdownRunningTask", "trace", "nodePrefixId",
        "streamCache"};
    if (std::find(kRouteKeys.begin(), kRouteKeys.end(), key) == kRouteKeys.end()) {
      return fileError(value.where, fmt::format("unknown key '{}' in route", key),
                       suggestion(key, kRouteKeys));
    }
  }
  DROMEDARY_TRY(uri, withParameters(source.from, source.parameters));
  RouteDefinition& def = builder.from(uri);
  def.modelForEngine().where = source.from.where;
  if (!source.kameletUse.empty()) {
    def.modelForEngine().kamelet = true;
    def.errorHandler(noErrorHandler());
  }
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
  if (const Scalar* a = attribute(source.attributes, "streamCache")) {
    // Accepted for Camel's files, with nothing to do: every body here can be read again (a
    // file body is read from its file each time, other bodies are values), so there is no
    // one-time stream to cache.
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "true" && v != "false") {
      return fileError(a->where, fmt::format("streamCache must be true or false, not '{}'", v));
    }
  }
  if (const Scalar* a = attribute(source.attributes, "shutdownRoute")) {
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "Default" && v != "Defer") {
      return fileError(a->where,
                       fmt::format("shutdownRoute must be Default or Defer, not '{}'", v));
    }
    def.shutdownRoute(v == "Defer" ? ShutdownRoute::Defer : ShutdownRoute::Default);
  }
  if (const Scalar* a = attribute(source.attributes, "shutdownRunningTask")) {
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "CompleteCurrentTaskOnly" && v != "CompleteAllTasks") {
      return fileError(a->where, fmt::format("shutdownRunningTask must be CompleteCurrentTaskOnly "
                                             "or CompleteAllTasks, not '{}'",
                                             v));
    }
    def.shutdownRunningTask(v == "CompleteAllTasks" ? ShutdownRunningTask::CompleteAllTasks
                                                    : ShutdownRunningTask::CompleteCurrentTaskOnly);
  }
  if (const Scalar* a = attribute(source.attributes, "trace")) {
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "true" && v != "false") {
      return fileError(a->where, fmt::format("trace must be true or false, not '{}'", v));
    }
    def.trace(v == "true");
  }
  if (source.fromVariableReceive) {
    DROMEDARY_TRY(v, resolve(*source.fromVariableReceive));
    def.fromVariableReceive(v);
  }
  if (const Scalar* a = attribute(source.attributes, "nodePrefixId")) {
    DROMEDARY_TRY(v, resolve(*a));
    def.nodePrefixId(v);
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
  for (const StepSource& clause : source.intercepts) {
    DROMEDARY_TRY_VOID(intercept(nullptr, &def, clause));
  }
  return steps(def, source.steps);
}

Result<void> Translator::steps(RouteDefinition& def, const std::vector<StepSource>& list) {
  for (const StepSource& s : list) DROMEDARY_TRY_VOID(step(def, s));
  return {};
}

Result<std::string> Translator::resolve(const Scalar& s) { return resolveScalar(context_, s); }

Result<std::string> Translator::withParameters(
    const Scalar& uri, const std::vector<std::pair<std::string, Scalar>>& params) {
  // An option whose value is an absent optional placeholder ({{?key}}) is dropped, as Camel's.
  Scalar bare = uri;
  bare.value = context_.properties().withoutAbsentOptionalOptions(uri.value);
  DROMEDARY_TRY(out, resolve(bare));
  // Parameter names as Camel's YAML DSL reads them: kebab-case is camelCase.
  std::vector<std::pair<std::string, const Scalar*>> rest;
  for (const auto& [key, value] : params) {
    if (context_.properties().isAbsentOptional(value.value)) continue;
    rest.emplace_back(eip::camelCaseOf(key), &value);
  }
  // Camel's path parameters: `uri: timer` with `timerName: tick` is `timer:tick`. Only a URI
  // without a path takes them, in the order of the component's syntax.
  const size_t colon = out.find(':');
  const size_t query = out.find('?');
  const bool has_path = colon != std::string::npos && colon + 1 < out.size() && colon + 1 != query;
  const std::string scheme = out.substr(0, std::min(colon, query));
  const Component* component = has_path ? nullptr : context_.component(scheme);
  if (component && !component->syntax().empty()) {
    // The syntax's names after the scheme, each with the separator before it (':' or '/':
    // "amqp:destinationType:destinationName", "kamelet:templateId/routeId").
    std::string_view names = component->syntax();
    names.remove_prefix(std::min(names.size(), names.find(':') + 1));
    auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    std::string path;
    while (!names.empty()) {
      size_t start = 0;
      while (start < names.size() && !identifier(names[start])) ++start;
      std::string_view separator = names.substr(0, start);
      size_t end = start;
      while (end < names.size() && identifier(names[end])) ++end;
      std::string_view name = names.substr(start, end - start);
      names.remove_prefix(end);
      if (name.empty()) break;
      auto given =
          std::find_if(rest.begin(), rest.end(), [&](const auto& p) { return p.first == name; });
      if (given == rest.end()) continue;
      DROMEDARY_TRY(v, resolve(*given->second));
      if (!path.empty()) path += separator.empty() ? std::string_view(":") : separator.substr(separator.size() - 1);
      path += v;
      rest.erase(given);
    }
    if (!path.empty()) {
      std::string options = query == std::string::npos ? "" : out.substr(query);
      out = scheme + ":" + path + options;
    }
  }
  // A bare name of a component that is not here ("ftp" with its options as parameters): a
  // scheme all the same, so that the error names the unknown component. Only a name: a
  // toD's whole URI from an expression ("${header.target}") is not one, and took a ':'.
  const bool bare_name =
      !scheme.empty() && std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '+' ||
               c == '.';
      });
  if (colon == std::string::npos && bare_name && !context_.component(scheme) &&
      out.find(':') == std::string::npos) {
    out = scheme + ":" + out.substr(scheme.size());
  }
  for (const auto& [key, value] : rest) {
    DROMEDARY_TRY(v, resolve(*value));
    out += out.find('?') == std::string::npos ? '?' : '&';
    out += key;
    out += '=';
    out += v;
  }
  return out;
}

Result<ExpressionDefinition> Translator::expression(const ExpressionSource& e) {
  if (isJvmLanguage(e.language)) {
    return fileError(e.where,
                     fmt::format("language '{}' runs on the JVM; Dromedary cannot run it",
                                 e.language),
                     "write it in simple, jq or jsonpath, or as a C++ processor (process)");
  }
  const auto& languages = expressionLanguages();
  if (std::find(languages.begin(), languages.end(), e.language) == languages.end()) {
    std::vector<std::string_view> general(languages.begin(), languages.end());
    std::erase(general, std::string_view("tokenize"));  // split's own
    return fileError(e.where, fmt::format("unknown language '{}'", e.language),
                     suggestion(e.language, general));
  }
  if (e.language == "tokenize") {
    return fileError(e.where, "tokenize cuts a split's text; it is not an expression here",
                     "write it as simple, constant, header, exchangeProperty or variable");
  }
  if (languageTakesOptions(e.language)) {
    LanguageOptions options;
    for (const auto& [key, value] : e.options) {
      DROMEDARY_TRY(v, resolve(value));
      options[key] = v;
    }
    return language(e.language, e.text, std::move(options));
  }
  if (e.language == "simple") return simple(e.text);
  if (e.language == "constant") return constant(Value(e.text));
  if (e.language == "header") return header(e.text);
  if (e.language == "variable") return variable(e.text);
  return exchangeProperty(e.text);
}

// Checks keys (and the typed ones' values), required keys, the expression and nested steps
// of a step against its schema.
Result<void> Translator::validate(const StepSource& s, const EipSchema& schema) {
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
  if (!s.policies.empty() && schema.clauseSchemas.empty()) {
    return fileError(s.policies.front().where, fmt::format("{} belongs in a loadBalance, not {}",
                                                           s.policies.front().kind, s.kind));
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
  if (s.kind != "circuitBreaker" && !s.fallback.empty()) {
    return fileError(s.fallback.front().where,
                     fmt::format("onFallback belongs in a circuitBreaker, not {}", s.kind));
  }
  if (s.kind != "doTry" && (!s.catches.empty() || !s.finally.empty())) {
    return fileError(s.where,
                     fmt::format("doCatch and doFinally belong in a doTry, not {}", s.kind));
  }
  if (!s.parameters.empty() && s.kind != "to" && s.kind != "toD" && s.kind != "poll") {
    return fileError(s.parameters.front().second.where,
                     fmt::format("{} takes no endpoint parameters", s.kind));
  }
  return {};
}

Result<std::string> Translator::text(const StepSource& s, std::string_view key) {
  return resolve(*attribute(s.attributes, key));
}

// A number or a boolean as its schema says (Enum values are checked where they are used,
// each with its own message).
Result<void> Translator::typed(const AttributeSchema& a, const Scalar& value) {
  if (a.type != AttributeType::Integer && a.type != AttributeType::Duration &&
      a.type != AttributeType::Boolean && a.type != AttributeType::Number) {
    return {};
  }
  DROMEDARY_TRY(v, resolve(value));
  if (isTemplateStandIn(v)) return {};  // a template checked before it has values
  if (a.type == AttributeType::Number) {
    if (!parseDecimal(v)) {
      return fileError(value.where, fmt::format("{} must be a number, not '{}'", a.name, v));
    }
  } else if (a.type == AttributeType::Boolean) {
    if (v != "true" && v != "false") {
      return fileError(value.where, fmt::format("{} must be true or false, not '{}'", a.name, v));
    }
  } else if (!parseInteger(v)) {
    return fileError(value.where, fmt::format("{} must be a whole number, not '{}'", a.name, v));
  }
  return {};
}

// A whole-number attribute of a step, or its schema's default (0 when it has none).
Result<int64_t> Translator::number(const StepSource& s, std::string_view key) {
  const EipSchema* schema = eip::findEipSchema(s.kind);
  const AttributeSchema* a = schema ? schema->attribute(key) : nullptr;
  // (A translator reads only what its schema declares: RouteSchemaTest holds them together.)
  return number(s, key, a ? parseInteger(a->defaultValue).value_or(0) : 0);
}

// An integer key, or `fallback` when absent.
Result<int64_t> Translator::number(const StepSource& s, std::string_view key, int64_t fallback) {
  const Scalar* a = attribute(s.attributes, key);
  if (!a) return fallback;
  DROMEDARY_TRY(v, resolve(*a));
  if (isTemplateStandIn(v)) return fallback;
  auto n = parseInteger(v);
  if (!n) return fileError(a->where, fmt::format("{} must be a whole number, not '{}'", key, v));
  return *n;
}

Result<bool> Translator::flag(const StepSource& s, std::string_view key) {
  const Scalar* a = attribute(s.attributes, key);
  if (!a) return false;
  DROMEDARY_TRY(v, resolve(*a));
  if (isTemplateStandIn(v)) return false;
  if (v != "true" && v != "false") {
    return fileError(a->where, fmt::format("{} must be true or false, not '{}'", key, v));
  }
  return v == "true";
}

// Records the step's position and its id (node ids show in statistics and errors).
void Translator::place(RouteDefinition& def, const StepSource& s) {
  detail::StepModel* step = def.lastStepForEngine();
  if (!step) return;
  step->where = s.where;
  if (const Scalar* id = attribute(s.attributes, "id")) step->id = id->value;
}

}  // namespace dromedary::dsl
