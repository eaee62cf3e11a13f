// SPDX-License-Identifier: Apache-2.0
// choice().when(p)...otherwise(): runs the block of the first matching when, else the
// otherwise block, else nothing.
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ChoiceStep final : public Step {
 public:
  struct Branch {
    std::unique_ptr<Predicate> predicate;
    const detail::Block* body;
  };
  ChoiceStep(std::vector<Branch> whens, const detail::Block* otherwise)
      : whens_(std::move(whens)), otherwise_(otherwise) {}

  Status run(Exchange& ex) noexcept override {
    for (const Branch& when : whens_) {
      if (when.predicate->matches(ex)) {
        return detail::pushBlock(ex, *when.body) ? Status::Continue : Status::Fail;
      }
      if (ex.failed()) return Status::Fail;
    }
    if (otherwise_ && !detail::pushBlock(ex, *otherwise_)) return Status::Fail;
    return Status::Continue;
  }

  bool mayBlock() const noexcept override {
    for (const Branch& b : whens_) {
      if (b.predicate->mayBlock()) return true;
    }
    return false;
  }
 private:
  std::vector<Branch> whens_;
  const detail::Block* otherwise_;
};

}  // namespace

Result<std::unique_ptr<Step>> ChoiceModel::compile(RouteCompiler& compiler) const {
  std::vector<ChoiceStep::Branch> branches;
  for (const When& when : whens) {
    auto p = when.predicate.compile(compiler.context());
    if (!p) return compiler.error(*this, p.error());
    auto block = compiler.compileBlock(when.body);
    if (!block) return block.error();
    branches.push_back({std::move(*p), *block});
  }
  const detail::Block* other = nullptr;
  if (otherwise) {
    auto block = compiler.compileBlock(*otherwise);
    if (!block) return block.error();
    other = *block;
  }
  return std::unique_ptr<Step>(new ChoiceStep(std::move(branches), other));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kChoiceAttributes[] = {
    {"precondition", AttributeType::Boolean, "false",
     "Accepted: Camel picks the branch once, at start; here the predicates are evaluated per "
     "message, which gives the same branch for predicates on properties (Kamelets' use)"},
};
}  // namespace

extern const EipSchema kChoiceSchema{
    .key = "choice",
    .description = "Runs the steps of the first when whose predicate matches, else those of "
                   "otherwise",
    .attributes = kChoiceAttributes,
    .clauses = "when (a predicate and steps; one or more), otherwise (steps)",
};

}  // namespace dromedary::eip
