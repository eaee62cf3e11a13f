// SPDX-License-Identifier: Apache-2.0
// process(processor): user code. It may throw (caught here, at the node boundary, and
// recorded on the exchange) and it may suspend the exchange.
#include <fmt/format.h>

#include "core/text.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ProcessStep final : public Step {
 public:
  ProcessStep(std::shared_ptr<Processor> owned, Processor& processor)
      : owned_(std::move(owned)), processor_(processor) {}

  // What user code throws, the executor catches (Step::run).
  Status run(Exchange& ex) override { return processor_.process(ex); }
  bool mayBlock() const noexcept override { return processor_.mayBlock(); }
 private:
  std::shared_ptr<Processor> owned_;
  Processor& processor_;
};

}  // namespace

Result<std::unique_ptr<Step>> ProcessModel::compile(RouteCompiler& compiler) const {
  if (!ref.empty()) {
    std::shared_ptr<Processor> bound = compiler.context().processorByName(ref);
    if (!bound) {
      std::vector<std::string> names = compiler.context().processorNames();
      std::vector<std::string_view> views(names.begin(), names.end());
      std::string meant = closestMatch(ref, views);
      std::string message = fmt::format("no processor is bound to the name '{}'", ref);
      message += !meant.empty()    ? fmt::format("; did you mean '{}'?", meant)
                 : names.empty()   ? std::string("; bind one with Context::bindProcessor")
                                   : fmt::format("; bound names: {}", joinNames(views));
      return compiler.error(*this, makeError(ErrorCode::NotFound, std::move(message)));
    }
    return std::unique_ptr<Step>(new ProcessStep(bound, *bound));
  }
  Processor& p = processor ? *processor : *borrowed;
  return std::unique_ptr<Step>(new ProcessStep(processor, p));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kProcessAttributes[] = {
    {"ref", AttributeType::Text, "", "The name it is bound under (Context::bindProcessor)", true},
};
}  // namespace

extern const EipSchema kProcessSchema{
    .key = "process",
    .description = "Runs a processor bound in the context",
    .attributes = kProcessAttributes,
    .shorthand = "ref",
};

}  // namespace dromedary::eip
