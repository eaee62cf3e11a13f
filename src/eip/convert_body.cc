// SPDX-License-Identifier: Apache-2.0
// convertBodyTo(type): converts the body through the type converter; the type name is
// resolved once, when the route starts.
#include <fmt/format.h>

#include "core/scratch.h"
#include "core/text.h"
#include "eip/models.h"
#include "engine/route.h"

namespace dromedary::eip {

namespace {

struct TypeName {
  std::string_view name;
  ValueType type;
};
// Camel's (Java) spellings, so route files from Camel projects work unchanged.
constexpr TypeName kTypeNames[] = {
    {"String", ValueType::String},    {"java.lang.String", ValueType::String},
    {"Integer", ValueType::Int},      {"java.lang.Integer", ValueType::Int},
    {"int", ValueType::Int},          {"Long", ValueType::Int},
    {"java.lang.Long", ValueType::Int}, {"long", ValueType::Int},
    {"Short", ValueType::Int},        {"short", ValueType::Int},
    {"Double", ValueType::Double},    {"java.lang.Double", ValueType::Double},
    {"double", ValueType::Double},    {"Float", ValueType::Double},
    {"float", ValueType::Double},     {"Boolean", ValueType::Bool},
    {"java.lang.Boolean", ValueType::Bool}, {"boolean", ValueType::Bool},
    {"byte[]", ValueType::Bytes},     {"[B", ValueType::Bytes},
};

class ConvertBodyStep final : public Step {
 public:
  ConvertBodyStep(ValueType target, std::string type_name)
      : target_(detail::builtinTypeId(target)), type_name_(std::move(type_name)) {}

  Status run(Exchange& ex) noexcept override {
    Value& body = ex.message().body();
    if (body.typeId() == target_) return Status::Continue;
    ScratchValue scratch;
    if (!detail::convertValue(body, target_, *scratch)) {
      // The failure path may allocate: it builds the text the error handler will show.
      try {
        std::string shown = body.toString();
        if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot convert body",
                          fmt::format("no type conversion from {} to {} for value '{}'",
                                      body.typeName(), type_name_, shown));
      } catch (...) {
        ex.fail(ErrorCode::TypeConversion, "Cannot convert body");
      }
      return Status::Fail;
    }
    std::swap(body, *scratch);
    return Status::Continue;
  }

 private:
  TypeId target_;
  std::string type_name_;
};

}  // namespace

Result<std::unique_ptr<Step>> ConvertBodyModel::compile(RouteCompiler& compiler) const {
  for (const TypeName& t : kTypeNames) {
    if (t.name == type) return std::unique_ptr<Step>(new ConvertBodyStep(t.type, type));
  }
  std::vector<std::string_view> names;
  for (const TypeName& t : kTypeNames) names.push_back(t.name);
  std::string message = fmt::format("unknown type '{}' for convertBodyTo", type);
  std::string meant = closestMatch(type, names);
  message += meant.empty() ? "; known types: String, Integer, Long, Double, Float, Boolean, byte[]"
                           : fmt::format("; did you mean '{}'?", meant);
  return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
}

}  // namespace dromedary::eip
