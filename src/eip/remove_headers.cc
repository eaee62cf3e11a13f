// SPDX-License-Identifier: Apache-2.0
// removeHeader(name), removeHeaders(pattern, excludes...) and their property twins.
// Patterns (exact, trailing-* wildcard, regex; all case-insensitive, as Camel's
// PatternHelper) are compiled once here, never per message.
#include "core/name_pattern.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class RemoveHeaderStep final : public Step {
 public:
  RemoveHeaderStep(bool property, std::string name)
      : property_(property), name_(std::move(name)) {}

  Status run(Exchange& ex) noexcept override {
    (property_ ? ex.properties() : ex.message().headers()).remove(name_);
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  bool property_;
  HeaderKey name_;
};

class RemoveHeadersStep final : public Step {
 public:
  RemoveHeadersStep(bool property, NamePattern pattern, std::vector<NamePattern> excludes)
      : property_(property), pattern_(std::move(pattern)), excludes_(std::move(excludes)) {}

  Status run(Exchange& ex) noexcept override {
    Headers& target = property_ ? ex.properties() : ex.message().headers();
    target.removeIf([this](std::string_view name) {
      if (!pattern_.matches(name)) return false;
      for (const NamePattern& exclude : excludes_) {
        if (exclude.matches(name)) return false;
      }
      return true;
    });
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  bool property_;
  NamePattern pattern_;
  std::vector<NamePattern> excludes_;
};

}  // namespace

Result<std::unique_ptr<Step>> RemoveHeadersModel::compile(RouteCompiler& compiler) const {
  auto resolved = compiler.context().resolvePlaceholders(pattern);
  if (!resolved) return compiler.error(*this, resolved.error());
  if (resolved->empty()) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           std::string(kind()) + " needs a name or pattern"));
  }
  if (single) return std::unique_ptr<Step>(new RemoveHeaderStep(property, std::move(*resolved)));
  std::vector<NamePattern> compiled_excludes;
  for (const std::string& e : excludes) {
    auto r = compiler.context().resolvePlaceholders(e);
    if (!r) return compiler.error(*this, r.error());
    compiled_excludes.emplace_back(std::move(*r));
  }
  return std::unique_ptr<Step>(new RemoveHeadersStep(
      property, NamePattern(std::move(*resolved)), std::move(compiled_excludes)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kRemoveHeaderAliases[] = {"remove-header"};
constexpr std::string_view kRemoveHeadersAliases[] = {"remove-headers"};
constexpr std::string_view kRemovePropertyAliases[] = {"remove-property"};
constexpr std::string_view kRemovePropertiesAliases[] = {"remove-properties"};
// removeHeader's and removeProperty's.
constexpr AttributeSchema kNameAttributes[] = {
    {"name", AttributeType::Text, "", "The name", true},
};
// removeHeaders' and removeProperties'.
constexpr AttributeSchema kPatternAttributes[] = {
    {"pattern", AttributeType::Text, "", "A name, a wildcard (Camel*) or a regular expression",
     true},
    {"excludePattern", AttributeType::Text, "", "Those to keep among the ones matched"},
};
}  // namespace

extern const EipSchema kRemoveHeaderSchema{
    .key = "removeHeader",
    .aliases = kRemoveHeaderAliases,
    .description = "Removes a header",
    .attributes = kNameAttributes,
    .shorthand = "name",
};
extern const EipSchema kRemoveHeadersSchema{
    .key = "removeHeaders",
    .aliases = kRemoveHeadersAliases,
    .description = "Removes the headers a pattern matches",
    .attributes = kPatternAttributes,
    .shorthand = "pattern",
};
extern const EipSchema kRemovePropertySchema{
    .key = "removeProperty",
    .aliases = kRemovePropertyAliases,
    .description = "Removes an exchange property",
    .attributes = kNameAttributes,
    .shorthand = "name",
};
extern const EipSchema kRemovePropertiesSchema{
    .key = "removeProperties",
    .aliases = kRemovePropertiesAliases,
    .description = "Removes the exchange properties a pattern matches",
    .attributes = kPatternAttributes,
    .shorthand = "pattern",
};

}  // namespace dromedary::eip
