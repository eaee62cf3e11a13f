// SPDX-License-Identifier: Apache-2.0
// Camel 4's variable EIPs: setVariable, setVariables (a setVariable per entry), removeVariable
// and convertVariableTo (convert_body.cc's conversion on the exchange's variables). Names are
// parsed when the route starts (engine/variables.h): the exchange's own, `global:` or `route:`.
#include "engine/variables.h"

#include <fmt/format.h>

#include "core/scratch.h"
#include "eip/eip_schema.h"
#include "eip/models.h"
#include "engine/compiled_route.h"

namespace dromedary::eip {

namespace {

using detail::VariableName;

class SetVariableStep final : public Step {
 public:
  SetVariableStep(VariableName name, std::unique_ptr<Expression> dynamic_name,
                  std::unique_ptr<Expression> value)
      : name_(std::move(name)), dynamicName_(std::move(dynamic_name)), value_(std::move(value)) {}

  Status run(Exchange& ex) noexcept override {
    ScratchValue scratch;
    const Value* v = value_->evaluate(ex, *scratch);
    if (!v) return Status::Fail;
    try {
      Value value = v == scratch.get() ? std::move(*scratch) : *v;
      if (!dynamicName_) {
        detail::writeVariable(ex, name_, std::move(value));
        return Status::Continue;
      }
      // Camel's setVariable name may be a Simple template, evaluated per exchange.
      ScratchValue name_scratch;
      const Value* n = dynamicName_->evaluate(ex, *name_scratch);
      if (!n) return Status::Fail;
      auto name = detail::parseVariableName(n->toString());
      if (!name) {
        ex.failWithDetail(ErrorCode::InvalidOption, "Cannot set variable", name.error().message);
        return Status::Fail;
      }
      detail::writeVariable(ex, *name, std::move(value));
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return value_->mayBlock(); }

 private:
  VariableName name_;
  std::unique_ptr<Expression> dynamicName_;
  std::unique_ptr<Expression> value_;
};

class RemoveVariableStep final : public Step {
 public:
  explicit RemoveVariableStep(VariableName name) : name_(std::move(name)) {}
  Status run(Exchange& ex) noexcept override {
    try {
      detail::eraseVariable(ex, name_);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  VariableName name_;
};

}  // namespace

Result<std::unique_ptr<Step>> SetVariableModel::compile(RouteCompiler& compiler) const {
  auto e = value.compile(compiler.context());
  if (!e) return compiler.error(*this, e.error());
  auto resolved = compiler.context().resolvePlaceholders(name);
  if (!resolved) return compiler.error(*this, resolved.error());
  if (resolved->find("${") != std::string::npos) {
    auto dynamic = simple(*resolved).compile(compiler.context());
    if (!dynamic) return compiler.error(*this, dynamic.error());
    return std::unique_ptr<Step>(
        new SetVariableStep(VariableName{}, std::move(*dynamic), std::move(*e)));
  }
  auto parsed = detail::parseVariableName(*resolved);
  if (!parsed) return compiler.error(*this, parsed.error());
  return std::unique_ptr<Step>(new SetVariableStep(std::move(*parsed), nullptr, std::move(*e)));
}

Result<std::unique_ptr<Step>> RemoveVariableModel::compile(RouteCompiler& compiler) const {
  auto resolved = compiler.context().resolvePlaceholders(name);
  if (!resolved) return compiler.error(*this, resolved.error());
  auto parsed = detail::parseVariableName(*resolved);
  if (!parsed) return compiler.error(*this, parsed.error());
  return std::unique_ptr<Step>(new RemoveVariableStep(std::move(*parsed)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for these steps.
namespace {
constexpr std::string_view kSetVariableAliases[] = {"set-variable"};
constexpr AttributeSchema kSetVariableAttributes[] = {
    {"name", AttributeType::Text, "",
     "The variable: the exchange's own, global:NAME or route:[ROUTEID:]NAME; ${...} in it is "
     "evaluated per exchange",
     true},
};
constexpr std::string_view kSetVariablesAliases[] = {"set-variables"};
constexpr std::string_view kRemoveVariableAliases[] = {"remove-variable"};
constexpr AttributeSchema kRemoveVariableAttributes[] = {
    {"name", AttributeType::Text, "",
     "The variable to remove, or * for all the exchange's (global:* and route:* for theirs)", true},
};
constexpr std::string_view kConvertVariableToAliases[] = {"convert-variable-to"};
constexpr AttributeSchema kConvertVariableToAttributes[] = {
    {"name", AttributeType::Text, "", "The exchange's variable to convert (absent: nothing)", true},
    {"type", AttributeType::Text, "", "The type, as convertBodyTo's", true},
    {"toName", AttributeType::Text, "",
     "The variable the converted value goes to (default: the same variable)"},
    {"charset", AttributeType::Text, "",
     "The bytes' encoding between text and byte[]: UTF-8 (the default), ISO-8859-1, US-ASCII"},
    {"mandatory", AttributeType::Boolean, "true",
     "false: a value that cannot be converted becomes null instead of failing the exchange"},
};
}  // namespace

extern const EipSchema kSetVariableSchema{
    .key = "setVariable",
    .aliases = kSetVariableAliases,
    .description = "Sets a variable (Camel 4) to the expression's value",
    .attributes = kSetVariableAttributes,
    .expression = ExpressionUse::Expression,
};

extern const EipSchema kSetVariablesSchema{
    .key = "setVariables",
    .aliases = kSetVariablesAliases,
    .description =
        "Sets several variables (Camel 4): YAML `variables:` [{name, expression}], "
        "XML nested <setVariable>",
    .steps = true,
};

extern const EipSchema kRemoveVariableSchema{
    .key = "removeVariable",
    .aliases = kRemoveVariableAliases,
    .description = "Removes a variable (Camel 4)",
    .attributes = kRemoveVariableAttributes,
    .shorthand = "name",
};

extern const EipSchema kConvertVariableToSchema{
    .key = "convertVariableTo",
    .aliases = kConvertVariableToAliases,
    .description = "Converts a variable to a type (Camel 4), into itself or another variable",
    .attributes = kConvertVariableToAttributes,
};

}  // namespace dromedary::eip
