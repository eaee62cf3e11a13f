// SPDX-License-Identifier: Apache-2.0
#include "language/simple/variable_functions.h"

#include "engine/variables.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

// The exchange's own variable: read in place.
class ExchangeVariableNode final : public DirectNode {
 public:
  explicit ExchangeVariableNode(std::string name) : name_(std::move(name)) {}
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    const Value* v = ex.getVariable(name_);
    return v ? v : &nullValue();
  }

 private:
  std::string name_;
};

// A global or route variable: shared, so copied out under the context's lock.
class SharedVariableNode final : public Expression {
 public:
  explicit SharedVariableNode(detail::VariableName name) : name_(std::move(name)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      if (!detail::readVariable(ex, name_, scratch)) return &nullValue();
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }

 private:
  detail::VariableName name_;
};

class VariablesNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      ValueMap map;
      if (const Headers* vars = ex.variablesIfAny()) {
        map.reserve(vars->size());
        for (const Headers::Entry& e : *vars) map.emplace_back(e.name, e.value);
      }
      scratch = Value(std::move(map));
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }
};

}  // namespace

ExprPtr variableNode(Parser& parser, std::string_view name) {
  auto parsed = detail::parseVariableName(name);
  if (!parsed) parser.fail(name, parsed.error().message);
  if (parsed->scope == detail::VariableName::Scope::Exchange) {
    return std::make_unique<ExchangeVariableNode>(parsed->name);
  }
  return std::make_unique<SharedVariableNode>(std::move(*parsed));
}

ExprPtr variablesNode() { return std::make_unique<VariablesNode>(); }

}  // namespace dromedary::simplelang
