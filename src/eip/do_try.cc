// SPDX-License-Identifier: Apache-2.0
// doTry / doCatch / doFinally, as Java's try/catch/finally. The try body, each doCatch and
// the doFinally are blocks; the executor's failure path (engine/failure_path.cc) picks the
// doCatch. The try body and each doCatch end with a step that turns their frame into the
// doFinally's, so a failure inside doFinally is never offered to the same doCatch clauses;
// the doFinally ends with a step that passes on a failure no doCatch took.
#include "eip/models.h"
#include "engine/failure_path.h"
#include "engine/executor.h"
#include "engine/failure_state.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class TryStep final : public Step {
 public:
  explicit TryStep(std::unique_ptr<detail::TryData> data) : data_(std::move(data)) {}
  void setBody(const detail::Block& body) { body_ = &body; }
  Status run(Exchange& ex) noexcept override {
    return detail::pushBlock(ex, *body_) ? Status::Continue : Status::Fail;
  }
  bool mayBlock() const noexcept override {
    for (const auto& c : data_->catches) {
      if (c.onWhen && c.onWhen->mayBlock()) return true;
    }
    return false;
  }

 private:
  std::unique_ptr<detail::TryData> data_;
  const detail::Block* body_ = nullptr;
};

// Last step of the try body and of each doCatch: continue in the doFinally.
class EnterFinallyStep final : public Step {
 public:
  explicit EnterFinallyStep(const detail::Block*& finally_block) : finally_(finally_block) {}
  std::string_view engineId() const noexcept override { return "doFinally"; }
  Status run(Exchange& ex) noexcept override {
    detail::ExecState& st = detail::exec(ex);
    st.frames[st.depth - 1] = detail::Frame{finally_, 0, false, false};
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  const detail::Block*& finally_;  // filled once the doFinally block is compiled
};

// Last step of the doFinally: a failure that no doCatch took goes on from here.
class FinallyEndStep final : public Step {
 public:
  std::string_view engineId() const noexcept override { return "doFinallyEnd"; }
  Status run(Exchange& ex) noexcept override {
    detail::ExecState& st = detail::exec(ex);
    detail::Frame& f = st.frames[st.depth - 1];
    if (!f.rethrow) return Status::Continue;
    f.rethrow = false;
    detail::FailureState& fs = detail::failureState(ex);
    ex.mutableErrorForEngine() = std::move(fs.pending.back());
    fs.pending.pop_back();
    return Status::Fail;
  }
  bool mayBlock() const noexcept override { return false; }
};

}  // namespace

Result<std::unique_ptr<Step>> TryModel::compile(RouteCompiler& compiler) const {
  if (catches.empty() && !finallyBody) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           "doTry needs at least one doCatch or a doFinally"));
  }
  auto data = std::make_unique<detail::TryData>();
  detail::TryData* d = data.get();
  auto with_finally = [&]() {
    std::vector<std::unique_ptr<Step>> trailing;
    if (finallyBody) trailing.push_back(std::make_unique<EnterFinallyStep>(d->finallyBlock));
    return trailing;
  };
  auto body_block = compiler.compileBlock(body, detail::BlockKind::TryBody, with_finally());
  if (!body_block) return body_block.error();
  (*body_block)->tryData = d;
  for (const auto& c : catches) {
    detail::TryData::Catch& cc = d->catches.emplace_back();
    auto types = detail::resolveExceptionTypes(compiler.context(), c->exceptions, "doCatch");
    if (!types) {
      Error e = compiler.error(*this, types.error());
      if (c->where.line != 0) e.where = c->where;
      return e;
    }
    cc.types = std::move(*types);
    if (c->onWhen) {
      auto p = c->onWhen->compile(compiler.context());
      if (!p) return compiler.error(*this, p.error());
      cc.onWhen = std::move(*p);
    }
    auto block = compiler.compileBlock(c->body, detail::BlockKind::Catch, with_finally());
    if (!block) return block.error();
    (*block)->tryData = d;
    cc.block = *block;
  }
  if (finallyBody) {
    std::vector<std::unique_ptr<Step>> trailing;
    trailing.push_back(std::make_unique<FinallyEndStep>());
    auto block =
        compiler.compileBlock(*finallyBody, detail::BlockKind::Finally, std::move(trailing));
    if (!block) return block.error();
    (*block)->tryData = d;
    d->finallyBlock = *block;
  }
  auto step = std::make_unique<TryStep>(std::move(data));
  step->setBody(**body_block);
  return std::unique_ptr<Step>(std::move(step));
}

std::string TryModel::branchLabel(size_t index) const {
  if (index == 0) return "doTry";
  if (index - 1 < catches.size()) {
    const CatchModel& c = *catches[index - 1];
    std::string names;
    for (const std::string& e : c.exceptions) names += (names.empty() ? "" : ", ") + e;
    return "doCatch[" + names + "]";
  }
  return "doFinally";
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kDoTryAliases[] = {"do-try"};
}  // namespace

extern const EipSchema kDoTrySchema{
    .key = "doTry",
    .aliases = kDoTryAliases,
    .description = "Runs its steps; a failure goes to the first doCatch matching it; doFinally "
                   "runs either way",
    .steps = true,
    .clauses = "doCatch (exception types, onWhen, steps), doFinally (steps)",
};

}  // namespace dromedary::eip
