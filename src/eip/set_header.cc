// SPDX-License-Identifier: Apache-2.0
// setHeader(name, expr) and setProperty(name, expr): the same step on the message's
// headers or the exchange's properties.
#include "core/header_keys.h"
#include "core/scratch.h"
#include "core/text_expression.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class SetHeaderStep final : public Step {
 public:
  SetHeaderStep(bool property, std::string_view name, std::unique_ptr<Expression> value)
      : property_(property),
        name_(internHeaderKey(name)),
        value_(std::move(value)),
        text_(dynamic_cast<const TextExpression*>(value_.get())) {
    in_place_ = text_ && text_->rendersBeside(name_);
  }

  Status run(Exchange& ex) noexcept override {
    if (text_) return setText(ex);
    ScratchValue scratch;
    const Value* v = value_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    try {
      if (v == scratch.get()) {
        std::swap(target(ex).slot(name_), *scratch);
      } else {
        target(ex).set(name_, *v);
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return value_->mayBlock(); }

 private:
  Headers& target(Exchange& ex) const noexcept {
    return property_ ? ex.properties() : ex.message().headers();
  }

  // A template or a text constant: rendered straight into the header's own string when it
  // reads only other headers (`premium-${header.kind}`, `constant("standard")`); else into a
  // scratch buffer, then copied into the header's string, since it may read the header it
  // replaces or fail part way. Both strings keep their capacity, so neither allocates once
  // warm.
  Status setText(Exchange& ex) noexcept {
    if (in_place_) {
      try {
        return text_->assignText(ex, target(ex).textSlot(name_)) ? Status::Continue
                                                                   : Status::Fail;
      } catch (...) {
        ex.setException(std::current_exception());
        return Status::Fail;
      }
    }
    ScratchValue buffer;
    std::string& text = buffer->resetString();
    if (!text_->appendText(ex, text)) return Status::Fail;
    try {
      detail::assignText(target(ex).textSlot(name_), text);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  bool property_;
  bool in_place_ = false;  // text_ renders straight into the header (rendersBeside)
  const HeaderKey& name_;  // interned (core/header_keys.h): 8 bytes of the step, not 40
  std::unique_ptr<Expression> value_;
  const TextExpression* text_;  // value_, when it is a template or a text constant
};

}  // namespace

Result<std::unique_ptr<Step>> SetHeaderModel::compile(RouteCompiler& compiler) const {
  auto e = value.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  auto resolved = compiler.context().resolvePlaceholders(name);
  if (!resolved) return compiler.error(*this, resolved.error());
  return std::unique_ptr<Step>(new SetHeaderStep(property, std::move(*resolved), std::move(*e)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kSetHeaderAliases[] = {"set-header"};
constexpr AttributeSchema kSetHeaderAttributes[] = {
    {"name", AttributeType::Text, "", "The header's name", true},
};
constexpr std::string_view kSetPropertyAliases[] = {"set-property", "setExchangeProperty"};
constexpr AttributeSchema kSetPropertyAttributes[] = {
    {"name", AttributeType::Text, "", "The property's name", true},
};
}  // namespace

extern const EipSchema kSetHeaderSchema{
    .key = "setHeader",
    .aliases = kSetHeaderAliases,
    .description = "Sets a header to the expression's value",
    .attributes = kSetHeaderAttributes,
    .expression = ExpressionUse::Expression,
};
// setHeaders: its headers are setHeader steps, run in order (as Camel's sets them one by one).
namespace {
constexpr std::string_view kSetHeadersAliases[] = {"set-headers"};
}  // namespace
extern const EipSchema kSetHeadersSchema{
    .key = "setHeaders",
    .aliases = kSetHeadersAliases,
    .description = "Sets several headers (Camel 4): YAML `headers:` [{name, expression}], XML "
                   "nested <setHeader>",
    .steps = true,
};

extern const EipSchema kSetPropertySchema{
    .key = "setProperty",
    .aliases = kSetPropertyAliases,
    .description = "Sets an exchange property to the expression's value",
    .attributes = kSetPropertyAttributes,
    .expression = ExpressionUse::Expression,
};

}  // namespace dromedary::eip
