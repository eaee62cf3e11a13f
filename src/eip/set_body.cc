// SPDX-License-Identifier: Apache-2.0
// setBody(expr) / transform(expr): replaces the body with the expression's value.
#include "core/scratch.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class SetBodyStep final : public Step {
 public:
  explicit SetBodyStep(std::unique_ptr<Expression> value) : value_(std::move(value)) {}

  Status run(Exchange& ex) noexcept override {
    ScratchValue scratch;
    const Value* v = value_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    Value& body = ex.message().body();
    if (v == scratch.get()) {
      std::swap(body, *scratch);  // both buffers stay in use: no allocation
    } else if (v != &body) {
      try {
        ex.message().setBody(*v);
      } catch (...) {
        ex.setException(std::current_exception());
        return Status::Fail;
      }
    }
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return value_->mayBlock(); }
 private:
  std::unique_ptr<Expression> value_;
};

}  // namespace

Result<std::unique_ptr<Step>> SetBodyModel::compile(RouteCompiler& compiler) const {
  auto e = value.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  return std::unique_ptr<Step>(new SetBodyStep(std::move(*e)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kSetBodyAliases[] = {"set-body"};
}  // namespace

extern const EipSchema kSetBodySchema{
    .key = "setBody",
    .aliases = kSetBodyAliases,
    .description = "Sets the message body to the expression's value",
    .expression = ExpressionUse::Expression,
};
extern const EipSchema kTransformSchema{
    .key = "transform",
    .description = "Sets the message body to the expression's value (Camel's transform)",
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
