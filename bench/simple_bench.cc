// SPDX-License-Identifier: Apache-2.0
// The Simple language scenarios: one compiled expression evaluated per operation on a warm
// exchange, as a step evaluates it (results go to a scratch value that keeps its capacity).
#include <memory>

#include <dromedary/dromedary.h>

#include "reference_routes.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

class SimpleEval : public ScenarioRun {
 public:
  SimpleEval(const SimpleCase& c, bool map_body)
      : context_("bench"), exchange_(acquireExchange(&context_)) {
    setLogLevel(LoggingLevel::Warn);
    fillSimpleMessage(*exchange_, map_body);
    Language* simple = context_.language("simple");
    if (c.predicate) {
      auto p = simple->createPredicate(c.text, context_);
      check(p.has_value(), "compile predicate");
      predicate_ = std::move(*p);
    } else {
      auto e = simple->createExpression(c.text, context_);
      check(e.has_value(), "compile expression");
      expression_ = std::move(*e);
    }
    for (int i = 0; i < 100; ++i) once();
  }

  void once() override {
    if (predicate_) {
      check(predicate_->matches(*exchange_), "predicate matches");
    } else {
      check(expression_->evaluate(*exchange_, scratch_) != nullptr, "evaluate");
    }
  }

 private:
  Context context_;
  ExchangePtr exchange_;
  std::unique_ptr<Predicate> predicate_;
  std::unique_ptr<Expression> expression_;
  Value scratch_;
};

class SimplePredicate final : public SimpleEval {
 public:
  SimplePredicate() : SimpleEval(kSimplePredicate, false) {}
};
DROMEDARY_SCENARIO("simple_predicate", SimplePredicate);

class SimpleTemplate final : public SimpleEval {
 public:
  SimpleTemplate() : SimpleEval(kSimpleTemplate, false) {}
};
DROMEDARY_SCENARIO("simple_template", SimpleTemplate);

class SimpleOgnl final : public SimpleEval {
 public:
  SimpleOgnl() : SimpleEval(kSimpleOgnl, true) {}
};
DROMEDARY_SCENARIO("simple_ognl", SimpleOgnl);

class SimpleNumeric final : public SimpleEval {
 public:
  SimpleNumeric() : SimpleEval(kSimpleNumeric, false) {}
};
DROMEDARY_SCENARIO("simple_numeric", SimpleNumeric);

class SimpleDate final : public SimpleEval {
 public:
  SimpleDate() : SimpleEval(kSimpleDate, false) {}
};
DROMEDARY_SCENARIO("simple_date", SimpleDate);

}  // namespace
}  // namespace dromedary::bench
