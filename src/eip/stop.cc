// SPDX-License-Identifier: Apache-2.0
// stop(): ends the exchange here, successfully; no further step of any route runs.
#include "eip/models.h"
#include "engine/exec_state.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class StopStep final : public Step {
 public:
  Status run(Exchange& ex) noexcept override {
    detail::exec(ex).stop |= detail::kStopRoute;  // the executor unwinds every frame
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }
};

}  // namespace

Result<std::unique_ptr<Step>> StopModel::compile(RouteCompiler&) const {
  return std::unique_ptr<Step>(new StopStep());
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
extern const EipSchema kStopSchema{
    .key = "stop",
    .description = "Stops routing the exchange: it completes as it is",
};

}  // namespace dromedary::eip
