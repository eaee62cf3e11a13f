// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Expression, Predicate and Language: compiled once at route start, evaluated per exchange.
///
/// `Expression::evaluate` returns a pointer to the result: either an existing value (a
/// header, the body, a constant) with no copy, or `scratch` after writing into it (reusing
/// its capacity). It returns nullptr on failure, after recording the error on the exchange.
/// `Predicate::matches` returns the answer; on failure it records the error on the exchange
/// and returns false, so callers check `exchange.failed()` after a false.
///
/// A Language turns text ("${header.foo} == 'bar'") into either; the context looks languages
/// up by name ("simple", "constant", "header", ...), which is how route files name them.
///
/// `mayBlock()`: whether evaluating may wait (I/O, a lock). Languages evaluate in memory, so
/// the default is false; an expression that calls user code (ExpressionBuilder::function)
/// says true, and so does a compound one holding it. See Processor::mayBlock for why it
/// matters.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary {

class Context;

class Expression {
 public:
  virtual ~Expression() = default;
  virtual const Value* evaluate(Exchange& exchange, Value& scratch) const noexcept = 0;
  virtual bool mayBlock() const noexcept { return false; }
};

class Predicate {
 public:
  virtual ~Predicate() = default;
  virtual bool matches(Exchange& exchange) const noexcept = 0;
  virtual bool mayBlock() const noexcept { return false; }
};

/// The truth of a value as a predicate sees it (Camel's evaluateValuePredicate): null is
/// false; a bool is itself; the text "false" (any case, trimmed) is false; any other value,
/// including 0 and the empty text, is true.
bool isTruthy(const Value& value) noexcept;

/// A language's options as an expression gives them (jsonpath's suppressExceptions ...):
/// name -> value, as written.
using LanguageOptions = std::map<std::string, std::string, std::less<>>;

class Language {
 public:
  virtual ~Language() = default;
  virtual Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                               Context& context) = 0;
  virtual Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                             Context& context) = 0;
  /// With options: a language that takes some overrides these; by default any option is an
  /// error naming it.
  virtual Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                               Context& context,
                                                               const LanguageOptions& options) {
    if (!options.empty()) return noOptions(options);
    return createExpression(text, context);
  }
  virtual Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                             Context& context,
                                                             const LanguageOptions& options) {
    if (!options.empty()) return noOptions(options);
    return createPredicate(text, context);
  }

 private:
  static Error noOptions(const LanguageOptions& options) {
    return makeError(ErrorCode::InvalidExpression,
                     "unknown option '" + options.begin()->first + "': this language takes none");
  }
};

}  // namespace dromedary
