// SPDX-License-Identifier: Apache-2.0
#pragma once

// The node types every part of the Simple language builds on: literals, templates,
// predicates used as values, the ternary operator and ++/--. A compiled Simple expression is
// a tree of these (and of the function, navigation and operator nodes in the sibling files);
// evaluating it never parses and allocates only where a new string must be built, and then
// into a scratch value that keeps its capacity.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/spi/language.h>

#include "core/text_expression.h"

namespace dromedary::simplelang {

using ExprPtr = std::unique_ptr<Expression>;
using PredPtr = std::unique_ptr<Predicate>;

const Value& nullValue() noexcept;
const Value& boolValue(bool b) noexcept;

/// Records that `source` (the function as written, e.g. "${body.name}") failed on this
/// exchange because of `problem`; returns nullptr so callers can `return failEvaluation(...)`.
const Value* failEvaluation(Exchange& ex, std::string_view source,
                            std::string_view problem) noexcept;

/// A node that returns a value that already exists (a constant, the body, a header) and
/// never writes to the scratch it is given: callers may skip taking a scratch slot for it.
class DirectNode : public Expression {};

/// True when `e` is a DirectNode.
bool isDirect(const Expression& e) noexcept;

/// A scratch to pass to a DirectNode (which never writes to it).
extern Value g_unused_scratch;
inline Value& unusedScratch() noexcept { return g_unused_scratch; }

/// A constant value (text outside functions, quoted text, numbers, null, true/false).
class LiteralNode final : public DirectNode {
 public:
  explicit LiteralNode(Value value) : value_(std::move(value)) {}
  const Value* evaluate(Exchange&, Value&) const noexcept override { return &value_; }
  const Value& value() const noexcept { return value_; }

 private:
  Value value_;
};

/// The literal value of `e` when it is a LiteralNode, else nullptr.
const Value* literalValue(const Expression& e) noexcept;

/// Text with embedded functions ("Hello ${body}"): concatenates the parts' string forms into
/// the scratch string. A null part adds nothing, as in Camel.
class TemplateNode final : public TextExpression {
 public:
  explicit TemplateNode(std::vector<ExprPtr> parts);
  ~TemplateNode() override;
  TemplateNode(const TemplateNode&) = delete;
  TemplateNode& operator=(const TemplateNode&) = delete;
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override;
  bool appendText(Exchange& ex, std::string& out) const noexcept override;
  bool assignText(Exchange& ex, std::string& out) const noexcept override;
  bool rendersBeside(const HeaderKey& target) const noexcept override;

 private:
  struct Part {
    ExprPtr expression;       ///< null for a literal text part and a header read
    const HeaderKey* header;  ///< a header read's key: looked up without a call through it
    const char* text;         ///< a literal text part: its bytes, after the parts (textSize
    uint32_t textSize;        ///< of them; not a string_view, so that a part stays 32 bytes)
    bool literal;
    bool direct;
  };
  static_assert(sizeof(Part) <= 32, "a template's part grew: every route's templates pay it");
  const Part* begin() const noexcept { return parts_; }
  const Part* end() const noexcept { return parts_ + count_; }
  // The parts, then their literal text end to end, in one allocation: a route file's
  // templates are mostly a literal or two around a header, and a node, a list and a string
  // each were three allocations for it.
  Part* parts_ = nullptr;
  uint32_t count_ = 0;
};

/// A predicate where a value is wanted (`${header.n > 3}`): true or false.
class PredicateValueNode final : public Expression {
 public:
  explicit PredicateValueNode(PredPtr predicate) : predicate_(std::move(predicate)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override;

 private:
  PredPtr predicate_;
};

/// `${cond ? a : b}` and `${iif(cond, a, b)}`.
class TernaryNode final : public Expression {
 public:
  TernaryNode(PredPtr condition, ExprPtr when_true, ExprPtr when_false)
      : condition_(std::move(condition)),
        when_true_(std::move(when_true)),
        when_false_(std::move(when_false)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override;

 private:
  PredPtr condition_;
  ExprPtr when_true_;
  ExprPtr when_false_;
};

/// `a ?: b`: a unless it is null, false, zero or blank, else b.
class ElvisNode final : public Expression {
 public:
  ElvisNode(ExprPtr value, ExprPtr fallback)
      : value_(std::move(value)), fallback_(std::move(fallback)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override;

 private:
  ExprPtr value_;
  ExprPtr fallback_;
};

/// `${header.n}++` / `${header.n}--`: the number plus or minus one (the header is unchanged).
class IncrementNode final : public Expression {
 public:
  IncrementNode(ExprPtr value, int delta, std::string source)
      : value_(std::move(value)), delta_(delta), source_(std::move(source)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override;

 private:
  ExprPtr value_;
  int delta_;
  std::string source_;
};

}  // namespace dromedary::simplelang
