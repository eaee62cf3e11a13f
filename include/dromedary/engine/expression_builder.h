// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Expression and predicate definitions for the C++ route DSL.
///
/// A definition is a cheap value describing an expression; it is compiled into an
/// Expression or Predicate when the route starts (placeholders resolved, languages parsed),
/// never per message.
///
/// Example:
///   from("direct:in")
///       .filter(header("type") == "order" && header("amount") > 100)
///       .setHeader("seen", constant(true))
///       .setBody(expression([](const Exchange& ex) { return Value{"custom"}; }))
///
/// Comparisons follow Camel's coercion: when one side is a number and the other converts to
/// one, the comparison is numeric; otherwise both sides compare as strings; null equals only
/// null and is not ordered.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <dromedary/core/value.h>
#include <dromedary/spi/language.h>

namespace dromedary {

class Context;
namespace detail {
struct ExpressionSpec;
struct PredicateSpec;
}  // namespace detail

class PredicateDefinition;

class ExpressionDefinition {
 public:
  explicit ExpressionDefinition(std::shared_ptr<const detail::ExpressionSpec> spec) noexcept
      : spec_(std::move(spec)) {}

  Result<std::unique_ptr<Expression>> compile(Context& context) const;
  /// How the expression reads in messages, e.g. `header(foo)` or `simple{${body}}`.
  std::string describe() const;
  const std::shared_ptr<const detail::ExpressionSpec>& spec() const noexcept { return spec_; }

  PredicateDefinition isEqualTo(const ExpressionDefinition& other) const;
  PredicateDefinition isNotEqualTo(const ExpressionDefinition& other) const;
  PredicateDefinition isLessThan(const ExpressionDefinition& other) const;
  PredicateDefinition isLessThanOrEqualTo(const ExpressionDefinition& other) const;
  PredicateDefinition isGreaterThan(const ExpressionDefinition& other) const;
  PredicateDefinition isGreaterThanOrEqualTo(const ExpressionDefinition& other) const;
  PredicateDefinition contains(const ExpressionDefinition& other) const;
  PredicateDefinition startsWith(const ExpressionDefinition& other) const;
  PredicateDefinition endsWith(const ExpressionDefinition& other) const;
  PredicateDefinition isNull() const;
  PredicateDefinition isNotNull() const;

 private:
  std::shared_ptr<const detail::ExpressionSpec> spec_;
};

class PredicateDefinition {
 public:
  explicit PredicateDefinition(std::shared_ptr<const detail::PredicateSpec> spec) noexcept
      : spec_(std::move(spec)) {}
  /// An expression used as a predicate: a language expression compiles as that language's
  /// predicate; any other is true when its value is truthy (see isTruthy()).
  PredicateDefinition(const ExpressionDefinition& expression);  // NOLINT

  Result<std::unique_ptr<Predicate>> compile(Context& context) const;
  std::string describe() const;

 private:
  std::shared_ptr<const detail::PredicateSpec> spec_;
};

/// A constant (placeholders in a string constant are resolved at route start).
ExpressionDefinition constant(Value value);
/// The value of a header (case-insensitive name); null when absent.
ExpressionDefinition header(std::string name);
/// The value of an exchange property; null when absent.
ExpressionDefinition exchangeProperty(std::string name);
/// The value of a variable (Camel 4: the exchange's own, global:NAME or route:NAME); null
/// when absent.
ExpressionDefinition variable(std::string name);
/// The message body.
ExpressionDefinition body();
/// Text in a named language, compiled at route start (e.g. language("simple", "${body}")).
ExpressionDefinition language(std::string name, std::string text);
/// The same with the language's options (jsonpath's {{"suppressExceptions", "true"}} ...),
/// checked when the route starts.
ExpressionDefinition language(std::string name, std::string text, LanguageOptions options);
/// Camel's jsonpath language (the json component): `jsonpath("$.order.items[*].sku")` on the
/// body (JSON text, or maps and lists); options suppressExceptions, headerName, source,
/// resultType, writeAsString, unpack. See docs/json.md.
ExpressionDefinition jsonpath(std::string text, LanguageOptions options = {});
/// A Simple expression, compiled at route start (Camel's Simple language, see docs/simple.md).
/// As a predicate (filter, choice/when) it is parsed as a Simple predicate:
///   .filter(simple("${header.type} == 'order' && ${header.amount} > 100"))
///   .setBody(simple("Hello ${body} from ${header.name}"))
ExpressionDefinition simple(std::string text);
/// A C++ function. It may allocate (its result is moved into the step's scratch value).
ExpressionDefinition expression(std::function<Value(const Exchange&)> fn);
/// A C++ predicate.
PredicateDefinition predicate(std::function<bool(const Exchange&)> fn);

PredicateDefinition operator==(const ExpressionDefinition& a, const ExpressionDefinition& b);
PredicateDefinition operator!=(const ExpressionDefinition& a, const ExpressionDefinition& b);
PredicateDefinition operator<(const ExpressionDefinition& a, const ExpressionDefinition& b);
PredicateDefinition operator<=(const ExpressionDefinition& a, const ExpressionDefinition& b);
PredicateDefinition operator>(const ExpressionDefinition& a, const ExpressionDefinition& b);
PredicateDefinition operator>=(const ExpressionDefinition& a, const ExpressionDefinition& b);
// A plain value on the right is a constant.
PredicateDefinition operator==(const ExpressionDefinition& a, const Value& b);
PredicateDefinition operator!=(const ExpressionDefinition& a, const Value& b);
PredicateDefinition operator<(const ExpressionDefinition& a, const Value& b);
PredicateDefinition operator<=(const ExpressionDefinition& a, const Value& b);
PredicateDefinition operator>(const ExpressionDefinition& a, const Value& b);
PredicateDefinition operator>=(const ExpressionDefinition& a, const Value& b);

/// How split() cuts a text into items: Camel's tokenize language. Tokens are produced one at
/// a time from the text (no list is built), so a split of a large body runs in bounded memory.
///   .split(tokenize("\n"))                     // the body's lines
///   .split(tokenize("\\s*;\\s*", true))          // a regular expression
///   .split(tokenize("\n", false, 100))         // 100 lines per item, joined by the token
struct Tokenizer {
  std::string token = ",";
  bool regex = false;      ///< the token is a regular expression (RE2)
  int group = 0;           ///< more than 1: this many tokens per item
  bool skipFirst = false;  ///< leave out the first token (a header line)
  std::optional<ExpressionDefinition> text;  ///< what to cut (default: the body)
};
Tokenizer tokenize(std::string token, bool regex = false, int group = 0);

PredicateDefinition operator&&(const PredicateDefinition& a, const PredicateDefinition& b);
PredicateDefinition operator||(const PredicateDefinition& a, const PredicateDefinition& b);
PredicateDefinition operator!(const PredicateDefinition& a);

}  // namespace dromedary
