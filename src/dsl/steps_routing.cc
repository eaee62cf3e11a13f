// SPDX-License-Identifier: Apache-2.0
// The routing steps of route files: filter, choice, loop, pipeline, the dynamic routers
// (recipientList, routingSlip, dynamicRouter), enrich and pollEnrich, idempotentConsumer,
// loadBalance and resequence.
#include <dromedary/engine/context.h>
#include <dromedary/spi/bean_processor.h>
#include <fmt/format.h>

#include "dsl/translator.h"
#include "eip/eip_schemas.h"

namespace dromedary::dsl {

namespace {

using Expr = std::optional<ExpressionDefinition>;

Result<void> filter(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  def.filter(*e);
  t.place(def, s);
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  def.end();
  return {};
}

Result<void> validate(Translator&, RouteDefinition& def, const StepSource&, const Expr& e) {
  def.validate(*e);
  return {};
}

Result<void> choice(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  return t.choice(def, s);
}

Result<void> pipeline(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  def.pipeline();
  t.place(def, s);
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  def.end();
  return {};
}

Result<void> loop(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  DROMEDARY_TRY(do_while, t.flag(s, "doWhile"));
  do_while ? def.loopDoWhile(*e) : def.loop(*e);
  t.place(def, s);
  DROMEDARY_TRY(copy, t.flag(s, "copy"));
  if (copy) def.copy();
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  def.end();
  return {};
}

// recipientList's delimiter, routingSlip's and dynamicRouter's uriDelimiter.
Result<std::string> delimiter(Translator& t, const StepSource& s, std::string_view key) {
  if (const Scalar* d = attribute(s.attributes, key)) return t.resolve(*d);
  return std::string(",");
}

Result<void> recipientList(Translator& t, RouteDefinition& def, const StepSource& s,
                           const Expr& e) {
  DROMEDARY_TRY(d, delimiter(t, s, "delimiter"));
  def.recipientList(*e, d);
  t.place(def, s);
  DROMEDARY_TRY_VOID(t.aggregationOptions(def, s));
  return t.endpointOptions(def, s, true);
}

Result<void> routingSlip(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  DROMEDARY_TRY(d, delimiter(t, s, "uriDelimiter"));
  def.routingSlip(*e, d);
  t.place(def, s);
  return t.endpointOptions(def, s, false);
}

Result<void> dynamicRouter(Translator& t, RouteDefinition& def, const StepSource& s,
                           const Expr& e) {
  DROMEDARY_TRY(d, delimiter(t, s, "uriDelimiter"));
  (void)d;  // checked as written; the router's expression gives one URI at a time
  def.dynamicRouter(*e);
  t.place(def, s);
  return t.endpointOptions(def, s, false);
}

Result<void> enrich(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  return t.enrich(def, s, *e);
}

Result<void> idempotentConsumer(Translator& t, RouteDefinition& def, const StepSource& s,
                                const Expr& e) {
  DROMEDARY_TRY(written, t.text(s, "idempotentRepository"));
  // Camel's reference forms: "name", "#name", "#bean:name".
  std::string_view repo = beanName(written);
  if (!t.context().idempotentRepositoryByName(repo)) {
    return fileError(attribute(s.attributes, "idempotentRepository")->where,
                     fmt::format("no idempotent repository bound as '{}'", repo),
                     fmt::format("bind one with Context::bindIdempotentRepository(\"{}\", "
                                 "memoryIdempotentRepository())",
                                 repo));
  }
  def.idempotentConsumer(*e, std::string(repo));
  t.place(def, s);
  for (std::string_view key : {"skipDuplicate", "eager", "removeOnFailure", "completionEager"}) {
    if (!attribute(s.attributes, key)) continue;
    DROMEDARY_TRY(on, t.flag(s, key));
    if (key == "skipDuplicate") def.skipDuplicate(on);
    if (key == "eager") def.eager(on);
    if (key == "removeOnFailure") def.removeOnFailure(on);
    if (key == "completionEager") def.completionEager(on);
  }
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  def.end();
  return {};
}

Result<void> loadBalance(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  return t.loadBalance(def, s);
}

Result<void> resequence(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  return t.resequence(def, s, *e);
}

// poll: Camel 4's simpler pollEnrich (uri with parameters, timeout, variableReceive).
Result<void> poll(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  DROMEDARY_TRY(uri, t.withParameters(*attribute(s.attributes, "uri"), s.parameters));
  DROMEDARY_TRY(timeout, t.number(s, "timeout"));
  def.poll(uri, timeout);
  t.place(def, s);
  if (attribute(s.attributes, "variableReceive")) {
    DROMEDARY_TRY(name, t.text(s, "variableReceive"));
    def.variableReceive(name);
  }
  return {};
}

constexpr StepTranslation kRouting[] = {
    {"filter", filter, true},
    {"validate", validate},
    {"choice", choice, true},
    {"pipeline", pipeline, true},
    {"loop", loop, true},
    {"recipientList", recipientList, true},
    {"routingSlip", routingSlip, true},
    {"dynamicRouter", dynamicRouter, true},
    {"enrich", enrich, true},
    {"pollEnrich", enrich, true},
    {"poll", poll, true},
    {"idempotentConsumer", idempotentConsumer, true},
    {"loadBalance", loadBalance, true},
    {"resequence", resequence, true},
};

}  // namespace

std::span<const StepTranslation> routingStepTranslations() { return kRouting; }

// resequence: batchConfig {batchSize, batchTimeout, allowDuplicates, reverse,
// ignoreInvalidExchanges} or streamConfig {capacity, timeout, rejectOld,
// ignoreInvalidExchanges}; batch by default.
Result<void> Translator::resequence(RouteDefinition& def, const StepSource& s,
                                    ExpressionDefinition expr) {
  def.resequence(std::move(expr));
  place(def, s);
  if (s.policies.size() > 1) {
    return fileError(s.policies[1].where, "a resequence has one batchConfig or streamConfig");
  }
  const StepSource* c = s.policies.empty() ? nullptr : &s.policies[0];
  const bool stream = c && c->kind == "streamConfig";
  const std::string_view clause = stream ? "streamConfig" : "batchConfig";
  const eip::ClauseSchema& schema = *eip::kResequenceSchema.clause(clause);
  if (c) DROMEDARY_TRY_VOID(checkKeys(*c, clauseKeys(schema), {}, false));
  StepSource none;
  const StepSource& o = c ? *c : none;
  // Left out: the schema's default.
  auto positive = [&](std::string_view key) -> Result<int64_t> {
    DROMEDARY_TRY(v, number(o, key, eip::integerDefault(eip::kResequenceSchema, clause, key)));
    if (v < 1) {
      return fileError(attribute(o.attributes, key)->where,
                       fmt::format("{} must be at least 1, not {}", key, v));
    }
    return v;
  };
  if (stream) {
    DROMEDARY_TRY(capacity, positive("capacity"));
    DROMEDARY_TRY(timeout, positive("timeout"));
    def.stream(capacity, std::chrono::milliseconds(timeout));
    DROMEDARY_TRY(reject, flag(o, "rejectOld"));
    if (reject) def.rejectOld();
  } else {
    DROMEDARY_TRY(size, positive("batchSize"));
    DROMEDARY_TRY(timeout, positive("batchTimeout"));
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

Result<void> Translator::loadBalance(RouteDefinition& def, const StepSource& s) {
  def.loadBalance();
  place(def, s);
  if (s.policies.size() > 1) {
    return fileError(s.policies[1].where, "a loadBalance has one policy",
                     fmt::format("'{}' was given already", s.policies[0].kind));
  }
  if (!s.policies.empty()) {
    const StepSource& p = s.policies[0];
    const std::string& k = p.kind;
    const eip::ClauseSchema* schema = eip::kLoadBalanceSchema.clause(k);
    std::vector<std::string_view> keys = {"id"};
    std::vector<std::string_view> predicates;
    if (schema) {
      for (std::string_view a : clauseKeys(*schema)) keys.push_back(a);
      predicates.assign(schema->expressions.begin(), schema->expressions.end());
    }
    DROMEDARY_TRY_VOID(checkKeys(p, keys, predicates, false));
    if (!p.steps.empty())
      return fileError(p.steps.front().where, fmt::format("{} takes no steps", k));
    if (k != "failover" && !p.exceptions.empty()) {
      return fileError(p.exceptions.front().where, fmt::format("unknown key 'exception' in {}", k));
    }
    if (k == "roundRobin") {
      def.roundRobin();
    } else if (k == "random") {
      def.random();
    } else if (k == "topic") {
      def.topic();
    } else if (k == "failover") {
      DROMEDARY_TRY(types, exceptionNames(p));
      DROMEDARY_TRY(attempts, number(p, "maximumFailoverAttempts",
                                     eip::integerDefault(eip::kLoadBalanceSchema, "failover",
                                                         "maximumFailoverAttempts")));
      if (attempts < -1) {
        return fileError(
            attribute(p.attributes, "maximumFailoverAttempts")->where,
            fmt::format("maximumFailoverAttempts must be -1 or more, not {}", attempts));
      }
      DROMEDARY_TRY(rr, flag(p, "roundRobin"));
      DROMEDARY_TRY(sticky, flag(p, "sticky"));
      def.failover(static_cast<int>(attempts), rr, sticky, types);
    } else if (k == "weighted") {
      const Scalar* ratio = attribute(p.attributes, "distributionRatio");
      if (!ratio) return fileError(p.where, "weighted needs 'distributionRatio'");
      DROMEDARY_TRY(r, resolve(*ratio));
      std::string delimiter =
          eip::textDefault(eip::kLoadBalanceSchema, "weighted", "distributionRatioDelimiter");
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

// enrich and pollEnrich (Camel's keys; cacheSize is accepted and checked, as for
// recipientList: endpoints are cached per thread without a bound).
Result<void> Translator::enrich(RouteDefinition& def, const StepSource& s,
                                const ExpressionDefinition& uri) {
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
  for (std::string_view key : {"variableSend", "variableReceive"}) {
    if (!attribute(s.attributes, key)) continue;
    DROMEDARY_TRY(name, text(s, key));
    key == "variableSend" ? def.variableSend(name) : def.variableReceive(name);
  }
  return {};
}

Result<int64_t> Translator::cacheSize(const StepSource& s) {
  DROMEDARY_TRY(size, number(s, "cacheSize"));
  if (size == 0 || size < -1) {
    return fileError(attribute(s.attributes, "cacheSize")->where,
                     fmt::format("cacheSize must be -1 or at least 1, not {}", size));
  }
  return size;
}

Result<void> Translator::endpointOptions(RouteDefinition& def, const StepSource& s, bool cache) {
  DROMEDARY_TRY(ignore, flag(s, "ignoreInvalidEndpoints"));
  if (ignore) def.ignoreInvalidEndpoints();
  DROMEDARY_TRY(size, cacheSize(s));
  if (cache) def.cacheSize(static_cast<int>(size));
  return {};
}

Result<void> Translator::choice(RouteDefinition& def, const StepSource& s) {
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

}  // namespace dromedary::dsl
