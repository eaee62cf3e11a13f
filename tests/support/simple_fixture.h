// SPDX-License-Identifier: Apache-2.0
#pragma once

// SimpleTest: compiles Simple text in a context and evaluates it on one exchange, so a test
// reads as the documentation does: set a body and headers, evaluate, compare.

#include <gtest/gtest.h>

#include <dromedary/dromedary.h>

namespace dromedary::testing {

class SimpleTest : public ::testing::Test {
 protected:
  SimpleTest() : context("camel-1"), exchange(acquireExchange(&context)) {}

  Message& message() { return exchange->message(); }

  /// The value of `text` as an expression; fails the test on a compile error.
  Value eval(std::string_view text) {
    auto e = context.language("simple")->createExpression(text, context);
    EXPECT_TRUE(e) << e.error().message;
    if (!e) return Value("<compile error>");
    Value scratch;
    const Value* v = (*e)->evaluate(*exchange, scratch);
    if (!v) return Value("<failed>");
    return *v;
  }
  std::string text(std::string_view expression) { return eval(expression).toString(); }

  /// The answer of `text` as a predicate; fails the test on a compile error.
  bool matches(std::string_view text) {
    auto p = context.language("simple")->createPredicate(text, context);
    EXPECT_TRUE(p) << p.error().message;
    if (!p) return false;
    return (*p)->matches(*exchange);
  }

  /// The compile error of `text` (as an expression, or as a predicate), or "" when it compiles.
  std::string expressionError(std::string_view text) {
    auto e = context.language("simple")->createExpression(text, context);
    return e ? std::string() : e.error().message;
  }
  std::string predicateError(std::string_view text) {
    auto p = context.language("simple")->createPredicate(text, context);
    return p ? std::string() : p.error().message;
  }

  Context context;
  ExchangePtr exchange;
};

}  // namespace dromedary::testing
