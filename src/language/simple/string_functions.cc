// SPDX-License-Identifier: Apache-2.0
// Camel 4's string functions in Simple (string_functions.h): substringBefore, substringAfter,
// substringBetween, concat and join, with Camel's argument forms and null rules.
#include "language/simple/string_functions.h"

#include <dromedary/core/value_compare.h>
#include <fmt/format.h>

#include <array>

#include "core/scratch.h"
#include "core/text.h"
#include "language/simple/functions.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

// The text of each value `parts` evaluates to (null: std::nullopt), valid while this lives:
// a text value is read in place; another (a number) is formatted into its own buffer, which
// a nested evaluation cannot touch. False when an evaluation failed the exchange.
template <size_t N>
struct Texts {
  std::array<ScratchValue, N> scratch;
  std::array<std::string, N> buffers;
  std::array<std::optional<std::string_view>, N> text;

  bool evaluate(Exchange& ex, const std::array<const Expression*, N>& parts) {
    for (size_t i = 0; i < N; ++i) {
      if (!parts[i]) continue;  // an argument the function was not given
      const Value* v = parts[i]->evaluate(ex, *scratch[i]);
      if (!v) return false;
      if (!v->isNull()) text[i] = stringForm(*v, buffers[i]);
    }
    return true;
  }
};

const Value* setText(Value& scratch, std::string_view text) {
  // `text` may point into `scratch`: assign through a copy held apart.
  ScratchValue o;
  o->resetString().assign(text);
  scratch.swap(*o);
  return &scratch;
}

enum class Cut { Before, After, Between };

// Camel's StringHelper.before/after/between: the part before (after) the first occurrence,
// or null when it does not occur; between is after `a`, then before `b` in what follows.
class SubstringNode final : public Expression {
 public:
  SubstringNode(Cut cut, ExprPtr value, ExprPtr a, ExprPtr b)
      : cut_(cut), value_(std::move(value)), a_(std::move(a)), b_(std::move(b)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      return cut(ex, scratch);
    } catch (...) {  // out of memory
      ex.setException(std::current_exception());
      return nullptr;
    }
  }

 private:
  const Value* cut(Exchange& ex, Value& scratch) const {
    Texts<3> t;
    std::array<const Expression*, 3> parts = {value_.get(), a_.get(), b_.get()};
    if (!t.evaluate(ex, parts)) return nullptr;
    scratch.reset();
    if (!t.text[0] || !t.text[1]) return &scratch;
    std::string_view text = *t.text[0];
    std::string_view a = *t.text[1];
    size_t at = text.find(a);
    if (at == std::string_view::npos) return &scratch;
    if (cut_ == Cut::Before) return setText(scratch, text.substr(0, at));
    text.remove_prefix(at + a.size());
    if (cut_ == Cut::After) return setText(scratch, text);
    if (!t.text[2]) return &scratch;
    size_t end = text.find(*t.text[2]);
    if (end == std::string_view::npos) return &scratch;
    return setText(scratch, text.substr(0, end));
  }

  Cut cut_;
  ExprPtr value_, a_, b_;
};

// concat(left, right, separator): both texts joined by the separator; one of them when the
// other is null; null when both are.
class ConcatNode final : public Expression {
 public:
  ConcatNode(ExprPtr left, ExprPtr right, ExprPtr separator)
      : left_(std::move(left)), right_(std::move(right)), separator_(std::move(separator)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      return join(ex, scratch);
    } catch (...) {  // out of memory
      ex.setException(std::current_exception());
      return nullptr;
    }
  }

 private:
  const Value* join(Exchange& ex, Value& scratch) const {
    Texts<3> t;
    if (!t.evaluate(ex, {left_.get(), right_.get(), separator_.get()})) return nullptr;
    scratch.reset();
    if (!t.text[0] && !t.text[1]) return &scratch;
    if (!t.text[1]) return setText(scratch, *t.text[0]);
    if (!t.text[0]) return setText(scratch, *t.text[1]);
    ScratchValue o;
    std::string& out = o->resetString();
    out.append(*t.text[0]).append(t.text[2].value_or("")).append(*t.text[1]);
    scratch.swap(*o);
    return &scratch;
  }

  ExprPtr left_, right_, separator_;
};

// join(separator, prefix, value): the items of a list (a text: its comma-separated parts, as
// Camel iterates a String), each after the prefix, between separators; nulls are skipped.
class JoinNode final : public Expression {
 public:
  JoinNode(ExprPtr separator, ExprPtr prefix, ExprPtr value)
      : separator_(std::move(separator)), prefix_(std::move(prefix)), value_(std::move(value)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    Texts<2> t;
    if (!t.evaluate(ex, {separator_.get(), prefix_.get()})) return nullptr;
    ScratchValue s;
    const Value* v = value_->evaluate(ex, *s);
    if (!v) return nullptr;
    std::string_view separator = t.text[0].value_or(",");
    std::string_view prefix = t.text[1].value_or("");
    ScratchValue o;
    std::string& out = o->resetString();
    bool first = true;
    auto add = [&](std::string_view item) {
      if (!first) out.append(separator);
      first = false;
      out.append(prefix).append(item);
    };
    try {
      if (v->isList()) {
        thread_local std::string buffer;
        for (const Value& item : v->getList()) {
          if (!item.isNull()) add(stringForm(item, buffer));
        }
      } else if (!v->isNull()) {
        thread_local std::string buffer;
        std::string_view text = stringForm(*v, buffer);
        while (true) {
          size_t comma = text.find(',');
          add(text.substr(0, comma));
          if (comma == std::string_view::npos) break;
          text.remove_prefix(comma + 1);
        }
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    scratch.swap(*o);
    return &scratch;
  }

 private:
  ExprPtr separator_, prefix_, value_;
};

ExprPtr body() { return bodyNode(); }
ExprPtr null() { return std::make_unique<LiteralNode>(Value()); }

// `fn` as a call of `name`, with "()" counted as no arguments.
std::optional<Call> callOfStringFunction(Parser& parser, std::string_view fn,
                                         std::string_view name) {
  auto call = callOf(parser, fn, name);
  if (call && call->args.size() == 1 && trim(call->args[0]).empty()) call->args.clear();
  if (!call && fn == name && name != "join") {
    parser.fail(fn, fmt::format("'{}' needs its arguments in parentheses", name),
                name == "concat" ? "${concat(left,right,separator)}"
                                 : fmt::format("${{{}(value,...)}}: see docs/simple.md", name));
  }
  return call;
}

}  // namespace

ExprPtr parseStringFunction(Parser& parser, std::string_view fn) {
  struct Form {
    std::string_view name;
    Cut cut;
    size_t min;  // arguments without the value (the value, when given, comes first)
  };
  for (Form f : {Form{"substringBefore", Cut::Before, 1}, Form{"substringAfter", Cut::After, 1},
                 Form{"substringBetween", Cut::Between, 2}}) {
    auto call = callOfStringFunction(parser, fn, f.name);
    if (!call) continue;
    expectArgs(parser, fn, *call, f.min, f.min + 1);
    expectNoChain(parser, call->rest);
    const bool with_value = call->args.size() > f.min;
    ExprPtr value = with_value ? parser.parseArgument(call->args[0]) : body();
    ExprPtr a = parser.parseArgument(call->args[with_value ? 1 : 0]);
    ExprPtr b = f.cut == Cut::Between ? parser.parseArgument(call->args.back()) : nullptr;
    return std::make_unique<SubstringNode>(f.cut, std::move(value), std::move(a), std::move(b));
  }
  if (auto call = callOfStringFunction(parser, fn, "concat")) {
    expectArgs(parser, fn, *call, 1, 3);
    expectNoChain(parser, call->rest);
    if (call->args.size() == 1) {
      return std::make_unique<ConcatNode>(body(), parser.parseArgument(call->args[0]), null());
    }
    return std::make_unique<ConcatNode>(
        parser.parseArgument(call->args[0]), parser.parseArgument(call->args[1]),
        call->args.size() == 3 ? parser.parseArgument(call->args[2]) : null());
  }
  if (fn == "join") return std::make_unique<JoinNode>(null(), null(), body());
  if (auto call = callOfStringFunction(parser, fn, "join")) {
    expectArgs(parser, fn, *call, 0, 3);
    expectNoChain(parser, call->rest);
    auto arg = [&](size_t i, ExprPtr fallback) {
      return call->args.size() > i && !trim(call->args[i]).empty()
                 ? parser.parseArgument(call->args[i])
                 : std::move(fallback);
    };
    return std::make_unique<JoinNode>(arg(0, null()), arg(1, null()), arg(2, body()));
  }
  return nullptr;
}

}  // namespace dromedary::simplelang
