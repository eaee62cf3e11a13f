// SPDX-License-Identifier: Apache-2.0
// process(processor): user code. It may throw (caught here, at the node boundary, and
// recorded on the exchange) and it may suspend the exchange.
#include "eip/models.h"
#include "engine/route.h"

namespace dromedary::eip {

namespace {

class ProcessStep final : public Step {
 public:
  ProcessStep(std::shared_ptr<Processor> owned, Processor& processor)
      : owned_(std::move(owned)), processor_(processor) {}

  Status run(Exchange& ex) noexcept override {
    try {
      return processor_.process(ex);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
  }

 private:
  std::shared_ptr<Processor> owned_;
  Processor& processor_;
};

}  // namespace

Result<std::unique_ptr<Step>> ProcessModel::compile(RouteCompiler&) const {
  Processor& p = processor ? *processor : *borrowed;
  return std::unique_ptr<Step>(new ProcessStep(processor, p));
}

}  // namespace dromedary::eip
