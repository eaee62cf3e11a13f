// SPDX-License-Identifier: Apache-2.0
// convertBodyTo(type): converts the body through the type converter; the type name is
// resolved once, when the route starts.
#include <fmt/format.h>

#include "core/scratch.h"
#include "core/text.h"
#include "core/type_names.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ConvertBodyStep final : public Step {
 public:
  ConvertBodyStep(ValueType target, std::string type_name)
      : target_(detail::builtinTypeId(target)),
        type_name_(std::move(type_name)),
        bounds_(integerBounds(type_name_)) {}

  Status run(Exchange& ex) noexcept override {
    Value& body = ex.message().body();
    if (body.typeId() == target_ && !bounds_) return Status::Continue;
    ScratchValue scratch;
    const bool same = body.typeId() == target_;
    if (!same && !detail::convertValue(body, target_, *scratch)) {
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
    const Value& converted = same ? body : *scratch;
    if (bounds_ && converted.isInt() &&
        (converted.getInt() < bounds_->first || converted.getInt() > bounds_->second)) {
      try {
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot convert body",
                          fmt::format("{} is out of range for {} ({} to {})", converted.getInt(),
                                      type_name_, bounds_->first, bounds_->second));
      } catch (...) {
        ex.fail(ErrorCode::TypeConversion, "Cannot convert body");
      }
      return Status::Fail;
    }
    if (!same) std::swap(body, *scratch);
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  TypeId target_;
  std::string type_name_;
  std::optional<std::pair<int64_t, int64_t>> bounds_;
};

}  // namespace

Result<std::unique_ptr<Step>> ConvertBodyModel::compile(RouteCompiler& compiler) const {
  if (auto target = conversionTargetByName(type)) {
    return std::unique_ptr<Step>(new ConvertBodyStep(*target, type));
  }
  std::vector<std::string_view> names = conversionTargetNames();
  std::string message = fmt::format("unknown type '{}' for convertBodyTo", type);
  std::string meant = closestMatch(type, names);
  message += meant.empty() ? "; known types: String, Integer, Long, Double, Float, Boolean, "
                             "byte[], Map, List"
                           : fmt::format("; did you mean '{}'?", meant);
  return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kConvertBodyToAliases[] = {"convert-body-to"};
constexpr AttributeSchema kConvertBodyToAttributes[] = {
    {"type", AttributeType::Text, "",
     "The type: java.lang.String, byte[], Integer, Long, Double, Boolean, java.util.Map "
     "(JSON text read, with the json component) ...", true},
};
}  // namespace

extern const EipSchema kConvertBodyToSchema{
    .key = "convertBodyTo",
    .aliases = kConvertBodyToAliases,
    .description = "Converts the body to a type",
    .attributes = kConvertBodyToAttributes,
    .shorthand = "type",
};

}  // namespace dromedary::eip
