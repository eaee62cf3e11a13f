// SPDX-License-Identifier: Apache-2.0
// setExchangePattern(InOnly|InOut): the exchange's pattern from here on (Camel's
// setExchangePattern, also inOnly() / inOut()): what the next to() of a request-reply
// endpoint (seda, amqp ...) does with it.
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class SetExchangePatternStep final : public Step {
 public:
  explicit SetExchangePatternStep(Pattern pattern) : pattern_(pattern) {}
  Status run(Exchange& ex) noexcept override {
    ex.setPattern(pattern_);
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  Pattern pattern_;
};

}  // namespace

Result<std::unique_ptr<Step>> SetExchangePatternModel::compile(RouteCompiler&) const {
  return std::unique_ptr<Step>(new SetExchangePatternStep(pattern));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kSetExchangePatternAliases[] = {"set-exchange-pattern"};
constexpr AttributeSchema kSetExchangePatternAttributes[] = {
    {"pattern", AttributeType::Text, "", "InOnly or InOut", true},
};
}  // namespace

extern const EipSchema kSetExchangePatternSchema{
    .key = "setExchangePattern",
    .aliases = kSetExchangePatternAliases,
    .description = "Sets the exchange's pattern (InOnly, InOut) for the steps after it",
    .attributes = kSetExchangePatternAttributes,
    .shorthand = "pattern",
};

}  // namespace dromedary::eip
