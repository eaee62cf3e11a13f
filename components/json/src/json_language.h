// SPDX-License-Identifier: Apache-2.0
#pragma once

// The json component's languages (jsonpath, jq) as Language: each compiles text and options
// into one object that is both its expression and its predicate.

#include <memory>
#include <string_view>

#include <dromedary/spi/language.h>

namespace dromedary::component::json {

template <class Compiled>
class CompiledLanguage final : public Language {
 public:
  using Make = Result<std::unique_ptr<Compiled>> (*)(std::string_view text, const LanguageOptions& options);
  /// `make_predicate`: how a predicate is made, when not as an expression is.
  explicit CompiledLanguage(Make make, Make make_predicate = nullptr)
      : make_(make), make_predicate_(make_predicate ? make_predicate : make) {}

  Result<std::unique_ptr<Expression>> createExpression(std::string_view text, Context& context) override {
    return createExpression(text, context, {});
  }
  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text, Context& context) override {
    return createPredicate(text, context, {});
  }
  Result<std::unique_ptr<Expression>> createExpression(std::string_view text, Context&,
                                                       const LanguageOptions& options) override {
    DROMEDARY_TRY(made, make_(text, options));
    return std::unique_ptr<Expression>(std::move(made));
  }
  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text, Context&,
                                                     const LanguageOptions& options) override {
    DROMEDARY_TRY(made, make_predicate_(text, options));
    return std::unique_ptr<Predicate>(std::move(made));
  }

 private:
  Make make_;
  Make make_predicate_;
};

}  // namespace dromedary::component::json
