// SPDX-License-Identifier: Apache-2.0
// The fan-out and aggregation steps of route files: split (and its tokenize), multicast,
// aggregate, and the options they share (aggregationStrategy, parallelProcessing ...).
#include <dromedary/engine/aggregation_strategy.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/bean_processor.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/translator.h"

namespace dromedary::dsl {

namespace {

using Expr = std::optional<ExpressionDefinition>;

Result<void> split(Translator& t, RouteDefinition& def, const StepSource& s, const Expr& e) {
  return t.split(def, s, e);
}

Result<void> multicast(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  def.multicast();
  t.place(def, s);
  DROMEDARY_TRY_VOID(t.aggregationOptions(def, s));
  DROMEDARY_TRY_VOID(t.steps(def, s.steps));
  def.end();
  return {};
}

Result<void> aggregate(Translator& t, RouteDefinition& def, const StepSource& s, const Expr&) {
  return t.aggregate(def, s);
}

constexpr StepTranslation kFanOut[] = {
    {"split", split, true},
    {"multicast", multicast, true},
    {"aggregate", aggregate, true},
};

}  // namespace

std::span<const StepTranslation> fanOutStepTranslations() { return kFanOut; }

Result<void> Translator::split(RouteDefinition& def, const StepSource& s,
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

Result<void> Translator::aggregate(RouteDefinition& def, const StepSource& s) {
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
  DROMEDARY_TRY(optimistic, flag(s, "optimisticLocking"));
  if (optimistic) def.optimisticLocking();
  DROMEDARY_TRY(discard, flag(s, "discardOnCompletionTimeout"));
  if (discard) def.discardOnCompletionTimeout();
  if (const Scalar* c = attribute(s.attributes, "closeCorrelationKeyOnCompletion")) {
    DROMEDARY_TRY(capacity, number(s, "closeCorrelationKeyOnCompletion"));
    if (capacity < 0) {
      return fileError(c->where, fmt::format("closeCorrelationKeyOnCompletion must not be "
                                             "negative, not {}",
                                             capacity));
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

// A strategy bound in the context or one of Camel's class names, checked now so that a
// mistake points at the name in the file.
Result<std::string> Translator::strategyName(const Scalar& a) {
  DROMEDARY_TRY(v, resolve(a));
  // A bean reference as Camel takes it (`#class:` names a class).
  std::string name(beanName(v));
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
Result<Tokenizer> Translator::tokenizer(const ExpressionSource& e) {
  Tokenizer t;
  bool has_token = false;
  static const std::vector<std::string_view> kKeys = {"token",     "regex", "group",
                                                      "skipFirst", "id",    "trim"};
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
Result<bool> Translator::strategyRef(RouteDefinition& def, const StepSource& s) {
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

Result<void> Translator::aggregationOptions(RouteDefinition& def, const StepSource& s) {
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

}  // namespace dromedary::dsl
