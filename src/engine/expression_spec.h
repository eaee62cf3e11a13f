// SPDX-License-Identifier: Apache-2.0
#pragma once

// What an ExpressionDefinition / PredicateDefinition holds: a recipe compiled at route start.

#include <memory>
#include <string>

#include <dromedary/engine/expression_builder.h>

namespace dromedary::detail {

struct ExpressionSpec {
  virtual ~ExpressionSpec() = default;
  virtual Result<std::unique_ptr<Expression>> compile(Context& context) const = 0;
  /// As a predicate: by default, true when the value is truthy.
  virtual Result<std::unique_ptr<Predicate>> compilePredicate(Context& context) const;
  virtual std::string describe() const = 0;
  /// True for constant(...): its value is known at route start (steps resolve it once).
  virtual bool isConstant() const { return false; }
  /// The text every value starts with, known at route start: a constant's text, a Simple
  /// template's text before its first ${...} (placeholders resolved); empty when not known.
  /// toD reads the scheme from it to choose its component's optimisation.
  virtual std::string literalPrefix(Context&) const { return {}; }
};

struct PredicateSpec {
  virtual ~PredicateSpec() = default;
  virtual Result<std::unique_ptr<Predicate>> compile(Context& context) const = 0;
  virtual std::string describe() const = 0;
};

/// The predicate that is true when `expression`'s value is truthy.
std::unique_ptr<Predicate> makeTruthyPredicate(std::unique_ptr<Expression> expression);

/// Registers the languages every context has: constant, header, exchangeProperty.
void registerBuiltinLanguages(Context& context);

}  // namespace dromedary::detail
