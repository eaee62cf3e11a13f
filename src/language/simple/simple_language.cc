// SPDX-License-Identifier: Apache-2.0
#include "language/simple/simple_language.h"

#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

Error syntaxError(std::string_view text, const SyntaxError& e) {
  return makeError(ErrorCode::InvalidExpression, formatSyntaxError(text, e));
}

class SimpleLanguage final : public Language {
 public:
  Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                       Context& context) override {
    try {
      Parser parser(text, context);
      return parser.parseTemplate(text);
    } catch (const SyntaxError& e) {
      return syntaxError(text, e);
    }
  }

  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                     Context& context) override {
    try {
      Parser parser(text, context);
      return parser.parsePredicate(text);
    } catch (const SyntaxError& e) {
      return syntaxError(text, e);
    }
  }
};

}  // namespace

std::unique_ptr<Language> makeSimpleLanguage() { return std::make_unique<SimpleLanguage>(); }

}  // namespace dromedary::simplelang
