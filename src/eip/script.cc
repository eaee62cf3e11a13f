// SPDX-License-Identifier: Apache-2.0
// script(expr): Camel's Script EIP: evaluates the expression for what it does (a jq or Simple
// expression that sets something, a variable it reads ...) and leaves the message as it was;
// a failure fails the exchange. Camel's usual script languages (groovy, javascript) run on
// the JVM: Dromedary refuses them at start, naming the language.
#include "core/scratch.h"
#include "eip/eip_schema.h"
#include "eip/models.h"
#include "engine/compiled_route.h"

namespace dromedary::eip {

namespace {

class ScriptStep final : public Step {
 public:
  explicit ScriptStep(std::unique_ptr<Expression> script) : script_(std::move(script)) {}

  Status run(Exchange& ex) noexcept override {
    ScratchValue scratch;
    return script_->evaluate(ex, *scratch) ? Status::Continue : Status::Fail;
  }
  bool mayBlock() const noexcept override { return script_->mayBlock(); }

 private:
  std::unique_ptr<Expression> script_;
};

}  // namespace

Result<std::unique_ptr<Step>> ScriptModel::compile(RouteCompiler& compiler) const {
  auto e = script.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new ScriptStep(std::move(*e)));
}

extern const EipSchema kScriptSchema{
    .key = "script",
    .description = "Evaluates the expression for its effects; the message stays as it was",
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
