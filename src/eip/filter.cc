// SPDX-License-Identifier: Apache-2.0
// filter(predicate): runs its block only for exchanges matching the predicate, and records
// the outcome in the CamelFilterMatched property as Camel does.
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

const HeaderKey kFilterMatched{"CamelFilterMatched"};

class FilterStep final : public Step {
 public:
  FilterStep(std::unique_ptr<Predicate> predicate, const detail::Block& body)
      : predicate_(std::move(predicate)), body_(body) {}

  Status run(Exchange& ex) noexcept override {
    bool matched = predicate_->matches(ex);
    if (!matched && ex.failed()) return Status::Fail;
    ex.properties().slot(kFilterMatched).setBool(matched);
    if (matched && !detail::pushBlock(ex, body_)) return Status::Fail;
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return predicate_->mayBlock(); }
 private:
  std::unique_ptr<Predicate> predicate_;
  const detail::Block& body_;
};

}  // namespace

Result<std::unique_ptr<Step>> FilterModel::compile(RouteCompiler& compiler) const {
  auto p = predicate.compile(compiler.context());
  if (!p) return compiler.error(*this, p.error());
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  return std::unique_ptr<Step>(new FilterStep(std::move(*p), **block));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
extern const EipSchema kFilterSchema{
    .key = "filter",
    .description = "Runs the nested steps only for the exchanges the predicate accepts",
    .expression = ExpressionUse::Predicate,
    .steps = true,
};

}  // namespace dromedary::eip
