// SPDX-License-Identifier: Apache-2.0
// multicast(): every branch (each step of its block: a to, a pipeline ...) gets its own copy
// of the exchange, with CamelMulticastIndex and CamelMulticastComplete; the copies are
// aggregated (by default the last one wins, as in Camel). pipeline(): steps run as one.
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

using detail::FanOutState;

namespace {

const HeaderKey kMulticastIndex{"CamelMulticastIndex"};
const HeaderKey kMulticastComplete{"CamelMulticastComplete"};

class MulticastStep final : public FanOutStep {
 public:
  MulticastStep(FanOutOptions options, std::vector<const detail::Block*> branches)
      : FanOutStep(std::move(options)), branches_(std::move(branches)) {}

 protected:
  Status begin(Exchange&, FanOutState& s) noexcept override {
    s.size = branches_.size();
    s.sized = true;
    return Status::Continue;
  }

  FanOutWork next(Exchange&, FanOutState& s, Exchange& sub) noexcept override {
    if (s.index >= branches_.size()) return {};
    try {
      sub.properties().slot(kMulticastIndex) = static_cast<int64_t>(s.index);
      sub.properties().slot(kMulticastComplete) = s.index + 1 == branches_.size();
    } catch (...) {
      sub.setException(std::current_exception());
    }
    return {branches_[s.index++]};
  }

 private:
  std::vector<const detail::Block*> branches_;
};

class PipelineStep final : public Step {
 public:
  explicit PipelineStep(const detail::Block& body) : body_(body) {}
  Status run(Exchange& ex) noexcept override {
    return detail::pushBlock(ex, body_) ? Status::Continue : Status::Fail;
  }

 private:
  const detail::Block& body_;
};

}  // namespace

Result<std::unique_ptr<Step>> MulticastModel::compile(RouteCompiler& compiler) const {
  auto options = this->options.compile(compiler, *this, false);
  if (!options) return options.error();
  auto all = compiler.compileBlock(body);
  if (!all) return all.error();
  // Each step of the block is a branch: a block of its own holding just that step.
  std::vector<const detail::Block*> branches = stepBranches(compiler, **all);
  return std::unique_ptr<Step>(new MulticastStep(std::move(*options), std::move(branches)));
}

Result<std::unique_ptr<Step>> PipelineModel::compile(RouteCompiler& compiler) const {
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  return std::unique_ptr<Step>(new PipelineStep(**block));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for these steps.
extern const EipSchema kMulticastSchema{
    .key = "multicast",
    .description = "Sends a copy of the exchange through each nested step",
    .attributes = kFanOutAttributes,
    .steps = true,
};
// Camel's step EIP groups steps for monitoring: a pipeline with its own id and statistics.
constexpr std::string_view kPipelineAliases[] = {"step"};
extern const EipSchema kPipelineSchema{
    .key = "pipeline",
    .aliases = kPipelineAliases,
    .description = "Runs the nested steps one after the other (a group of steps; Camel's step "
                   "is the same)",
    .steps = true,
};

}  // namespace dromedary::eip
