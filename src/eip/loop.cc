// SPDX-License-Identifier: Apache-2.0
// loop(count) and loop(predicate) with doWhile: runs the loop's steps again and again, with
// Camel's CamelLoopIndex (and CamelLoopSize for a count) properties.
//
// Without copy, the same exchange goes round: the body is a block whose last step jumps back
// to its start, with the iteration count in the block's frame (nested loops each have their
// own). With copy, every iteration starts from a copy of the input message: a fan-out whose
// items are the iterations and whose result is the last one.
#include <fmt/format.h>

#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

using detail::FanOutState;

namespace {

const HeaderKey kLoopIndex{"CamelLoopIndex"};
const HeaderKey kLoopSize{"CamelLoopSize"};

// The count an expression gives, or -1 after recording why it is not one.
int64_t loopCount(const Expression& count, Exchange& ex) noexcept {
  Value scratch;
  const Value* v = count.evaluate(ex, scratch);
  if (!v) return -1;
  auto n = v->tryAs<int64_t>();
  if (!n || *n < 0) {
    ex.fail(ErrorCode::EvaluationFailed, "loop count is not a non-negative number");
    return -1;
  }
  return *n;
}

void setLoopProperties(Exchange& ex, uint32_t index, int64_t size) {
  ex.properties().slot(kLoopIndex) = static_cast<int64_t>(index);
  if (size >= 0) ex.properties().slot(kLoopSize) = size;
}

// Last step of the loop's block: starts the block again while the loop goes on.
class LoopBackStep final : public Step {
 public:
  explicit LoopBackStep(const Predicate* while_predicate) : while_(while_predicate) {}
  std::string_view engineId() const noexcept override { return "loopBack"; }
  Status run(Exchange& ex) noexcept override {
    detail::ExecState& st = detail::exec(ex);
    detail::Frame& f = st.frames[st.depth - 1];
    ++f.counter;
    bool again;
    if (while_) {
      again = while_->matches(ex);
      if (!again && ex.failed()) return Status::Fail;
    } else {
      again = f.counter < f.limit;
    }
    if (!again) return Status::Continue;  // the block ends: its frame pops
    try {
      setLoopProperties(ex, f.counter, while_ ? -1 : static_cast<int64_t>(f.limit));
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    f.index = 0;
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }
 private:
  const Predicate* while_;
};

class LoopStep final : public Step {
 public:
  LoopStep(std::unique_ptr<Expression> count, std::unique_ptr<Predicate> while_predicate)
      : count_(std::move(count)), while_(std::move(while_predicate)) {}
  void setBody(const detail::Block& body) { body_ = &body; }
  const Predicate* whilePredicate() const { return while_.get(); }

  Status run(Exchange& ex) noexcept override {
    int64_t n = -1;
    if (while_) {
      bool go = while_->matches(ex);
      if (!go) return ex.failed() ? Status::Fail : Status::Continue;
    } else {
      n = loopCount(*count_, ex);
      if (n < 0) return Status::Fail;
      if (n == 0) return Status::Continue;
      if (n > UINT32_MAX) {
        ex.fail(ErrorCode::LimitExceeded, "loop count above 4294967295");
        return Status::Fail;
      }
    }
    try {
      setLoopProperties(ex, 0, n);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    if (!detail::pushBlock(ex, *body_)) return Status::Fail;
    detail::Frame& f = detail::exec(ex).frames[detail::exec(ex).depth - 1];
    f.counter = 0;
    f.limit = static_cast<uint32_t>(n < 0 ? 0 : n);
    return Status::Continue;
  }

  bool mayBlock() const noexcept override {
    return (count_ && count_->mayBlock()) || (while_ && while_->mayBlock());
  }
 private:
  std::unique_ptr<Expression> count_;
  std::unique_ptr<Predicate> while_;
  const detail::Block* body_ = nullptr;
};

// loop(...).copy(): each iteration a sub-exchange from the input; the last one is the result.
class LoopCopyStep final : public FanOutStep {
 public:
  LoopCopyStep(std::unique_ptr<Expression> count, std::unique_ptr<Predicate> while_predicate,
               const detail::Block& body)
      : FanOutStep(FanOutOptions{}), count_(std::move(count)), while_(std::move(while_predicate)),
        body_(body) {}

 protected:
  Status begin(Exchange& input, FanOutState& s) noexcept override {
    if (while_) {
      s.sized = false;
      return Status::Continue;
    }
    int64_t n = loopCount(*count_, input);
    if (n < 0) return Status::Fail;
    s.size = static_cast<size_t>(n);
    s.sized = true;
    return Status::Continue;
  }

  FanOutWork next(Exchange& input, FanOutState& s, Exchange& sub) noexcept override {
    if (s.sized && s.index >= s.size) return {};
    if (while_) {
      // The condition reads the previous iteration's result (the input before the first).
      Exchange& last = s.result ? *s.result : input;
      if (!while_->matches(last)) {
        if (last.failed() && &last != &input) {  // the condition failed: so does the loop
          input.mutableErrorForEngine() = std::move(last.mutableErrorForEngine());
          last.clearError();
        }
        return {};
      }
    }
    try {
      setLoopProperties(sub, static_cast<uint32_t>(s.index),
                        s.sized ? static_cast<int64_t>(s.size) : -1);
    } catch (...) {
      sub.setException(std::current_exception());
    }
    ++s.index;
    return {&body_};
  }

 private:
  std::unique_ptr<Expression> count_;
  std::unique_ptr<Predicate> while_;
  const detail::Block& body_;
};

}  // namespace

Result<std::unique_ptr<Step>> LoopModel::compile(RouteCompiler& compiler) const {
  std::unique_ptr<Expression> count_expr;
  std::unique_ptr<Predicate> while_pred;
  if (whilePredicate) {
    auto p = whilePredicate->compile(compiler.context());
    if (!p) return compiler.error(*this, p.error());
    while_pred = std::move(*p);
  } else {
    auto e = count.compile(compiler.context());
    if (!e) return compiler.error(*this, e.error());
    count_expr = std::move(*e);
  }
  if (copy) {
    auto block = compiler.compileBlock(body);
    if (!block) return block.error();
    return std::unique_ptr<Step>(
        new LoopCopyStep(std::move(count_expr), std::move(while_pred), **block));
  }
  auto step = std::make_unique<LoopStep>(std::move(count_expr), std::move(while_pred));
  std::vector<std::unique_ptr<Step>> trailing;
  trailing.push_back(std::make_unique<LoopBackStep>(step->whilePredicate()));
  auto block = compiler.compileBlock(body, detail::BlockKind::Plain, std::move(trailing));
  if (!block) return block.error();
  step->setBody(**block);
  return std::unique_ptr<Step>(std::move(step));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kLoopAttributes[] = {
    {"copy", AttributeType::Boolean, "false",
     "Each turn starts from a copy of the exchange as it came in"},
    {"doWhile", AttributeType::Boolean, "false",
     "The expression is a predicate: loop while it holds"},
    {"breakOnShutdown", AttributeType::Boolean, "false", "Accepted for Camel's files"},
};
}  // namespace

extern const EipSchema kLoopSchema{
    .key = "loop",
    .description = "Runs the nested steps the expression's number of times, or while it is true "
                   "(doWhile)",
    .attributes = kLoopAttributes,
    .expression = ExpressionUse::Expression,
    .steps = true,
};

}  // namespace dromedary::eip
