// SPDX-License-Identifier: Apache-2.0
#pragma once

// The translator from what a route file says (file_source.h) to routes, through the C++ DSL,
// so that files and C++ make the same model. It is a generic walker over the EIPs' schemas
// (src/eip/eip_schema.h): translator.cc checks each step against its schema and hands it to
// the step's translation, found by its key in the tables of the steps_*.cc files, one file
// per group of steps (basic, routing, fan-out and aggregation, error handling).

#include <dromedary/core/result.h>
#include <dromedary/engine/error_handler.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/engine/route_builder.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/file_source.h"
#include "eip/eip_schema.h"

namespace dromedary::dsl {

/// What stands for a template parameter that has no default while a routeTemplate is checked
/// at load (before anything instantiates it): typed checks let it through, so that only the
/// template's own mistakes (a misspelt step or key) fail the load.
inline constexpr char kTemplateStandIn = '\x01';
inline bool isTemplateStandIn(std::string_view value) {
  return value.find(kTemplateStandIn) != std::string_view::npos;
}

/// The attribute names of a clause's schema, for checkKeys.
inline std::vector<std::string_view> clauseKeys(const eip::ClauseSchema& clause) {
  std::vector<std::string_view> keys;
  for (const eip::AttributeSchema& a : clause.attributes) keys.push_back(a.name);
  return keys;
}

class Translator;

/// How one step of a file becomes part of a route: its schema's key, and the function that
/// adds it to `def` (`expression` is the step's, compiled, when it has one that is not
/// tokenize). A translation that opens a block records the step's position itself (placed);
/// for the others the walker does, after it.
struct StepTranslation {
  std::string_view key;
  Result<void> (*translate)(Translator& t, RouteDefinition& def, const StepSource& s,
                            const std::optional<ExpressionDefinition>& expression);
  bool placed = false;
};

/// Each group's translations.
std::span<const StepTranslation> basicStepTranslations();
std::span<const StepTranslation> routingStepTranslations();
std::span<const StepTranslation> fanOutStepTranslations();
std::span<const StepTranslation> errorHandlingStepTranslations();

/// The translation of the step whose schema's key is `key`, or null.
const StepTranslation* findStepTranslation(std::string_view key);

class Translator {
 public:
  explicit Translator(Context& context) : context_(context) {}

  /// Applies the routeConfigurations without an id to every route of the builder.
  Result<void> globalConfigurations(RouteBuilder& builder,
                                    const std::vector<RouteConfigurationSource>& configs);
  Result<void> route(RouteBuilder& builder, const RouteSource& source,
                     const std::vector<RouteConfigurationSource>& configs);

  // --- the walker (translator.cc), for the translations ---------------------------------
  Result<void> steps(RouteDefinition& def, const std::vector<StepSource>& list);
  Result<std::string> resolve(const Scalar& s);
  Result<std::string> withParameters(const Scalar& uri,
                                     const std::vector<std::pair<std::string, Scalar>>& params);
  Result<ExpressionDefinition> expression(const ExpressionSource& e);
  /// The resolved text of the step's attribute `key` (present: its schema requires it).
  Result<std::string> text(const StepSource& s, std::string_view key);
  /// A whole-number attribute of a step, or its schema's default (0 when it has none).
  Result<int64_t> number(const StepSource& s, std::string_view key);
  /// An integer key, or `fallback` when absent.
  Result<int64_t> number(const StepSource& s, std::string_view key, int64_t fallback);
  Result<bool> flag(const StepSource& s, std::string_view key);
  /// Records the step's position and its id (node ids show in statistics and errors).
  void place(RouteDefinition& def, const StepSource& s);
  Context& context() noexcept { return context_; }

  // --- steps_basic.cc -------------------------------------------------------------------
  Result<void> throttle(RouteDefinition& def, const StepSource& s, ExpressionDefinition max);
  Result<void> log(RouteDefinition& def, const StepSource& s);

  // --- steps_routing.cc -----------------------------------------------------------------
  Result<void> choice(RouteDefinition& def, const StepSource& s);
  Result<void> resequence(RouteDefinition& def, const StepSource& s, ExpressionDefinition expr);
  Result<void> loadBalance(RouteDefinition& def, const StepSource& s);
  Result<void> enrich(RouteDefinition& def, const StepSource& s, const ExpressionDefinition& uri);
  Result<int64_t> cacheSize(const StepSource& s);
  Result<void> endpointOptions(RouteDefinition& def, const StepSource& s, bool cache);

  // --- steps_fan_out.cc -----------------------------------------------------------------
  Result<void> split(RouteDefinition& def, const StepSource& s,
                     const std::optional<ExpressionDefinition>& expr);
  Result<void> aggregate(RouteDefinition& def, const StepSource& s);
  Result<std::string> strategyName(const Scalar& a);
  Result<Tokenizer> tokenizer(const ExpressionSource& e);
  Result<bool> strategyRef(RouteDefinition& def, const StepSource& s);
  Result<void> aggregationOptions(RouteDefinition& def, const StepSource& s);

  // --- steps_error_handling.cc ----------------------------------------------------------
  Result<std::string> boundProcessor(const Scalar& ref);
  /// An exception type's name as written, checked against the context's registry.
  Result<std::string> exceptionName(const Scalar& e, std::string_view what);
  Result<std::vector<std::string>> exceptionNames(const StepSource& s);
  Result<void> checkKeys(const StepSource& s, const std::vector<std::string_view>& attributes,
                         const std::vector<std::string_view>& predicates, bool policy);
  Result<std::optional<PredicateDefinition>> predicateOf(const StepSource& s, std::string_view key);
  template <class Target>
  Result<void> policyOptions(Target& t, const StepSource& s);
  Result<ErrorHandlerDefinition> errorHandler(const StepSource& s);
  Result<void> onExceptionBody(RouteDefinition& d, const StepSource& s);
  Result<void> onCompletionBody(RouteDefinition& d, const StepSource& s);
  /// An intercept, interceptFrom or interceptSendToEndpoint clause of a routeConfiguration,
  /// on the route (named configurations) or on every route of `builder` (def null).
  Result<void> intercept(RouteBuilder* builder, RouteDefinition* def, const StepSource& s);
  Result<void> namedConfigurations(RouteDefinition& def, const Scalar& ids,
                                   const std::vector<RouteConfigurationSource>& configs);
  Result<void> doTry(RouteDefinition& def, const StepSource& s);

 private:
  Result<void> step(RouteDefinition& def, const StepSource& s);
  Result<void> validate(const StepSource& s, const eip::EipSchema& schema);
  Result<void> typed(const eip::AttributeSchema& a, const Scalar& value);

  Context& context_;
};

/// A whole number, or nothing when `text` is not one.
std::optional<int64_t> parseInteger(std::string_view text);
/// A decimal number ("50", "12.5"), or nothing when `text` is not one.
std::optional<double> parseDecimal(std::string_view text);

}  // namespace dromedary::dsl
