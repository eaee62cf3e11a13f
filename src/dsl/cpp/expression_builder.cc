// SPDX-License-Identifier: Apache-2.0
#include <dromedary/engine/expression_builder.h>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "core/scratch.h"
#include "core/text.h"
#include "core/text_expression.h"
#include <dromedary/core/value_compare.h>
#include "engine/expression_spec.h"
#include "engine/resources.h"
#include "language/simple/simple_language.h"

namespace dromedary {

namespace {

const Value kNull;

// --- compiled expressions --------------------------------------------------------------

class ConstantExpression final : public Expression {
 public:
  explicit ConstantExpression(Value value) : value_(std::move(value)) {}
  const Value* evaluate(Exchange&, Value&) const noexcept override { return &value_; }

 private:
  Value value_;
};

// A text constant: setHeader/setProperty copy it straight into the header's own text (the
// spare string a pooled exchange kept), without the value's general copy.
class ConstantTextExpression final : public TextExpression {
 public:
  explicit ConstantTextExpression(Value value) : value_(std::move(value)) {}
  const Value* evaluate(Exchange&, Value&) const noexcept override { return &value_; }
  bool appendText(Exchange& ex, std::string& out) const noexcept override {
    try {
      out.append(value_.getString());
    } catch (...) {
      ex.setException(std::current_exception());
      return false;
    }
    return true;
  }
  bool assignText(Exchange& ex, std::string& out) const noexcept override {
    try {
      detail::assignText(out, value_.getString());
    } catch (...) {
      ex.setException(std::current_exception());
      return false;
    }
    return true;
  }
  bool rendersBeside(const HeaderKey&) const noexcept override { return true; }

 private:
  Value value_;  // a string
};

class HeaderExpression final : public Expression {
 public:
  explicit HeaderExpression(std::string name) : name_(std::move(name)) {}
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    // As Camel's header expression: a header that is absent (or null) falls back on the
    // exchange property of that name.
    const Value* v = ex.message().getHeader(name_);
    if (!v || v->isNull()) [[unlikely]] v = ex.getProperty(name_);
    return v ? v : &kNull;
  }

 private:
  HeaderKey name_;
};

class PropertyExpression final : public Expression {
 public:
  explicit PropertyExpression(std::string name) : name_(std::move(name)) {}
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    const Value* v = ex.getProperty(name_);
    return v ? v : &kNull;
  }

 private:
  HeaderKey name_;
};

class BodyExpression final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    return &ex.message().body();
  }
};

class FunctionExpression final : public Expression {
 public:
  explicit FunctionExpression(std::function<Value(const Exchange&)> fn) : fn_(std::move(fn)) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      scratch = fn_(ex);
      return &scratch;
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
  }
  bool mayBlock() const noexcept override { return true; }  // user code

 private:
  std::function<Value(const Exchange&)> fn_;
};

// --- compiled predicates ------------------------------------------------------------------

enum class Op { Eq, Ne, Lt, Le, Gt, Ge, Contains, StartsWith, EndsWith };

std::string_view opText(Op op) {
  switch (op) {
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Contains: return "contains";
    case Op::StartsWith: return "startsWith";
    case Op::EndsWith: return "endsWith";
  }
  return "?";
}

class ComparePredicate final : public Predicate {
 public:
  ComparePredicate(Op op, std::unique_ptr<Expression> left, std::unique_ptr<Expression> right)
      : op_(op), left_(std::move(left)), right_(std::move(right)) {}

  bool matches(Exchange& ex) const noexcept override {
    ScratchValue sa;
    ScratchValue sb;
    const Value* a = left_->evaluate(ex, *sa);
    if (!a) return false;
    const Value* b = right_->evaluate(ex, *sb);
    if (!b) return false;
    switch (op_) {
      case Op::Eq: return coerceEquals(*a, *b);
      case Op::Ne: return !coerceEquals(*a, *b);
      case Op::Contains: return coerceContains(*a, *b);
      case Op::StartsWith: return coerceStartsWith(*a, *b);
      case Op::EndsWith: return coerceEndsWith(*a, *b);
      default: break;
    }
    std::optional<int> c = coerceCompare(*a, *b);
    if (!c) return false;
    switch (op_) {
      case Op::Lt: return *c < 0;
      case Op::Le: return *c <= 0;
      case Op::Gt: return *c > 0;
      case Op::Ge: return *c >= 0;
      default: return false;
    }
  }
  bool mayBlock() const noexcept override {
    return left_->mayBlock() || right_->mayBlock();
  }

 private:
  Op op_;
  std::unique_ptr<Expression> left_;
  std::unique_ptr<Expression> right_;
};

class IsNullPredicate final : public Predicate {
 public:
  IsNullPredicate(std::unique_ptr<Expression> e, bool negate)
      : expression_(std::move(e)), negate_(negate) {}
  bool matches(Exchange& ex) const noexcept override {
    ScratchValue s;
    const Value* v = expression_->evaluate(ex, *s);
    if (!v) return false;
    return v->isNull() != negate_;
  }
  bool mayBlock() const noexcept override { return expression_->mayBlock(); }

 private:
  std::unique_ptr<Expression> expression_;
  bool negate_;
};

class LogicalPredicate final : public Predicate {
 public:
  LogicalPredicate(bool is_and, std::unique_ptr<Predicate> a, std::unique_ptr<Predicate> b)
      : and_(is_and), a_(std::move(a)), b_(std::move(b)) {}
  bool matches(Exchange& ex) const noexcept override {
    bool first = a_->matches(ex);
    if (ex.failed()) return false;
    if (and_ ? !first : first) return first;  // short-circuit, as Camel's && and ||
    return b_->matches(ex);
  }
  bool mayBlock() const noexcept override { return a_->mayBlock() || b_->mayBlock(); }

 private:
  bool and_;
  std::unique_ptr<Predicate> a_;
  std::unique_ptr<Predicate> b_;
};

class NotPredicate final : public Predicate {
 public:
  explicit NotPredicate(std::unique_ptr<Predicate> p) : p_(std::move(p)) {}
  bool matches(Exchange& ex) const noexcept override {
    bool r = p_->matches(ex);
    return ex.failed() ? false : !r;
  }
  bool mayBlock() const noexcept override { return p_->mayBlock(); }

 private:
  std::unique_ptr<Predicate> p_;
};

class FunctionPredicate final : public Predicate {
 public:
  explicit FunctionPredicate(std::function<bool(const Exchange&)> fn) : fn_(std::move(fn)) {}
  bool matches(Exchange& ex) const noexcept override {
    try {
      return fn_(ex);
    } catch (...) {
      ex.setException(std::current_exception());
      return false;
    }
  }
  bool mayBlock() const noexcept override { return true; }  // user code

 private:
  std::function<bool(const Exchange&)> fn_;
};

class TruthyPredicate final : public Predicate {
 public:
  explicit TruthyPredicate(std::unique_ptr<Expression> e) : expression_(std::move(e)) {}
  bool matches(Exchange& ex) const noexcept override {
    ScratchValue s;
    const Value* v = expression_->evaluate(ex, *s);
    return v && isTruthy(*v);
  }
  bool mayBlock() const noexcept override { return expression_->mayBlock(); }

 private:
  std::unique_ptr<Expression> expression_;
};

// --- specs --------------------------------------------------------------------------------

struct ConstantSpec final : detail::ExpressionSpec {
  explicit ConstantSpec(Value v) : value(std::move(v)) {}
  Value value;
  bool isConstant() const override { return true; }
  std::string literalPrefix(Context& context) const override {
    if (!value.isString()) return {};
    return context.resolvePlaceholders(value.getString()).value_or(std::string());
  }
  Result<std::unique_ptr<Expression>> compile(Context& context) const override {
    if (!value.isString()) return std::unique_ptr<Expression>(new ConstantExpression(value));
    auto resolved = context.resolvePlaceholders(value.getString());
    if (!resolved) return resolved.error();
    return std::unique_ptr<Expression>(new ConstantTextExpression(Value(std::move(*resolved))));
  }
  std::string describe() const override {
    return fmt::format("constant{{{}}}", value.toString());
  }
};

struct HeaderSpec final : detail::ExpressionSpec {
  explicit HeaderSpec(std::string n, bool p) : name(std::move(n)), property(p) {}
  std::string name;
  bool property;
  Result<std::unique_ptr<Expression>> compile(Context& context) const override {
    auto resolved = context.resolvePlaceholders(name);
    if (!resolved) return resolved.error();
    if (resolved->empty()) {
      return makeError(ErrorCode::InvalidExpression,
                       property ? "exchangeProperty() needs a name" : "header() needs a name");
    }
    if (property) return std::unique_ptr<Expression>(new PropertyExpression(*resolved));
    return std::unique_ptr<Expression>(new HeaderExpression(*resolved));
  }
  std::string describe() const override {
    return fmt::format("{}({})", property ? "exchangeProperty" : "header", name);
  }
};

struct BodySpec final : detail::ExpressionSpec {
  Result<std::unique_ptr<Expression>> compile(Context&) const override {
    return std::unique_ptr<Expression>(new BodyExpression());
  }
  std::string describe() const override { return "body"; }
};

struct FunctionSpec final : detail::ExpressionSpec {
  explicit FunctionSpec(std::function<Value(const Exchange&)> f) : fn(std::move(f)) {}
  std::function<Value(const Exchange&)> fn;
  Result<std::unique_ptr<Expression>> compile(Context&) const override {
    return std::unique_ptr<Expression>(new FunctionExpression(fn));
  }
  std::string describe() const override { return "expression{c++}"; }
};

struct LanguageSpec final : detail::ExpressionSpec {
  LanguageSpec(std::string n, std::string t, LanguageOptions o = {})
      : name(std::move(n)), text(std::move(t)), options(std::move(o)) {}
  std::string name;
  std::string text;
  LanguageOptions options;
  Result<Language*> find(Context& context) const {
    Language* language = context.language(name);
    if (!language) {
      std::string known;
      for (const std::string& n : context.languageNames()) known += (known.empty() ? "" : ", ") + n;
      return makeError(ErrorCode::InvalidExpression,
                       fmt::format("unknown language '{}' in expression '{}'; known languages: {}",
                                   name, text, known));
    }
    return language;
  }
  // Property placeholders ({{key}}) are resolved before the language sees the text, as in
  // Camel; text naming a resource (resource:file:x, resource:classpath:x) is that file's.
  Result<std::string> resolved(Context& context) const {
    std::string t = text;
    if (t.find("{{") != std::string::npos) {
      DROMEDARY_TRY(r, context.resolvePlaceholders(t));
      t = std::move(r);
    }
    if (detail::isResourceText(t)) {
      DROMEDARY_TRY(loaded, detail::readResource(context, t));
      return loaded;
    }
    return t;
  }
  Result<std::unique_ptr<Expression>> compile(Context& context) const override {
    DROMEDARY_TRY(language, find(context));
    DROMEDARY_TRY(t, resolved(context));
    return language->createExpression(t, context, options);
  }
  Result<std::unique_ptr<Predicate>> compilePredicate(Context& context) const override {
    DROMEDARY_TRY(language, find(context));
    DROMEDARY_TRY(t, resolved(context));
    return language->createPredicate(t, context, options);
  }
  std::string literalPrefix(Context& context) const override {
    if (name != "simple") return {};
    auto t = resolved(context);
    if (!t) return {};
    return t->substr(0, t->find('$'));  // ${...}, $simple{...}: the first dynamic part
  }
  std::string describe() const override { return fmt::format("{}{{{}}}", name, text); }
};

struct CompareSpec final : detail::PredicateSpec {
  CompareSpec(Op o, ExpressionDefinition l, ExpressionDefinition r)
      : op(o), left(std::move(l)), right(std::move(r)) {}
  Op op;
  ExpressionDefinition left;
  ExpressionDefinition right;
  Result<std::unique_ptr<Predicate>> compile(Context& context) const override {
    DROMEDARY_TRY(a, left.compile(context));
    DROMEDARY_TRY(b, right.compile(context));
    return std::unique_ptr<Predicate>(new ComparePredicate(op, std::move(a), std::move(b)));
  }
  std::string describe() const override {
    return fmt::format("{} {} {}", left.describe(), opText(op), right.describe());
  }
};

struct IsNullSpec final : detail::PredicateSpec {
  IsNullSpec(ExpressionDefinition e, bool n) : expression(std::move(e)), negate(n) {}
  ExpressionDefinition expression;
  bool negate;
  Result<std::unique_ptr<Predicate>> compile(Context& context) const override {
    DROMEDARY_TRY(e, expression.compile(context));
    return std::unique_ptr<Predicate>(new IsNullPredicate(std::move(e), negate));
  }
  std::string describe() const override {
    return fmt::format("{} {} null", expression.describe(), negate ? "!=" : "==");
  }
};

struct LogicalSpec final : detail::PredicateSpec {
  LogicalSpec(bool is_and, PredicateDefinition l, PredicateDefinition r)
      : and_(is_and), left(std::move(l)), right(std::move(r)) {}
  bool and_;
  PredicateDefinition left;
  PredicateDefinition right;
  Result<std::unique_ptr<Predicate>> compile(Context& context) const override {
    DROMEDARY_TRY(a, left.compile(context));
    DROMEDARY_TRY(b, right.compile(context));
    return std::unique_ptr<Predicate>(new LogicalPredicate(and_, std::move(a), std::move(b)));
  }
  std::string describe() const override {
    return fmt::format("({} {} {})", left.describe(), and_ ? "&&" : "||", right.describe());
  }
};

struct NotSpec final : detail::PredicateSpec {
  explicit NotSpec(PredicateDefinition p) : inner(std::move(p)) {}
  PredicateDefinition inner;
  Result<std::unique_ptr<Predicate>> compile(Context& context) const override {
    DROMEDARY_TRY(p, inner.compile(context));
    return std::unique_ptr<Predicate>(new NotPredicate(std::move(p)));
  }
  std::string describe() const override { return fmt::format("!({})", inner.describe()); }
};

struct FunctionPredicateSpec final : detail::PredicateSpec {
  explicit FunctionPredicateSpec(std::function<bool(const Exchange&)> f) : fn(std::move(f)) {}
  std::function<bool(const Exchange&)> fn;
  Result<std::unique_ptr<Predicate>> compile(Context&) const override {
    return std::unique_ptr<Predicate>(new FunctionPredicate(fn));
  }
  std::string describe() const override { return "predicate{c++}"; }
};

struct ExpressionPredicateSpec final : detail::PredicateSpec {
  explicit ExpressionPredicateSpec(ExpressionDefinition e) : expression(std::move(e)) {}
  ExpressionDefinition expression;
  Result<std::unique_ptr<Predicate>> compile(Context& context) const override {
    return expression.spec()->compilePredicate(context);
  }
  std::string describe() const override { return expression.describe(); }
};

PredicateDefinition compare(Op op, const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return PredicateDefinition(std::make_shared<CompareSpec>(op, a, b));
}

// --- builtin languages ---------------------------------------------------------------------

class ConstantLanguage final : public Language {
 public:
  Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                       Context& context) override {
    return ConstantSpec(Value(text)).compile(context);
  }
  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                     Context& context) override {
    return ConstantSpec(Value(text)).compilePredicate(context);
  }
};

class HeaderLanguage final : public Language {
 public:
  explicit HeaderLanguage(bool property) : property_(property) {}
  Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                       Context& context) override {
    return HeaderSpec(std::string(trim(text)), property_).compile(context);
  }
  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                     Context& context) override {
    return HeaderSpec(std::string(trim(text)), property_).compilePredicate(context);
  }

 private:
  bool property_;
};

// Camel's variable language (`setBody: {variable: myKey}`): the variable NAME, as Simple's
// ${variable:NAME} reads it (global:, route: prefixes included).
class VariableLanguage final : public Language {
 public:
  Result<std::unique_ptr<Expression>> createExpression(std::string_view text,
                                                       Context& context) override {
    return simpleOf(text, context)->createExpression(wrapped(text), context);
  }
  Result<std::unique_ptr<Predicate>> createPredicate(std::string_view text,
                                                     Context& context) override {
    return simpleOf(text, context)->createPredicate(wrapped(text), context);
  }

 private:
  static Language* simpleOf(std::string_view, Context& context) {
    return context.language("simple");
  }
  static std::string wrapped(std::string_view text) {
    return "${variable:" + std::string(trim(text)) + "}";
  }
};

}  // namespace

bool isTruthy(const Value& v) noexcept {
  // Camel's ObjectHelper.evaluateValuePredicate: a boolean is itself, the text "true" or
  // "false" (any case, trimmed) is that boolean, null is false and any other value is true.
  switch (v.type()) {
    case ValueType::Null: return false;
    case ValueType::Bool: return v.getBool();
    case ValueType::String:
    case ValueType::Bytes: {
      std::string_view text = trim(v.isString() ? std::string_view(v.getString())
                                                : v.getBytes().view());
      return !equalsIgnoreCaseAscii(text, "false");
    }
    default: return true;
  }
}

namespace detail {

Result<std::unique_ptr<Predicate>> ExpressionSpec::compilePredicate(Context& context) const {
  DROMEDARY_TRY(e, compile(context));
  return makeTruthyPredicate(std::move(e));
}

std::unique_ptr<Predicate> makeTruthyPredicate(std::unique_ptr<Expression> expression) {
  return std::make_unique<TruthyPredicate>(std::move(expression));
}

void registerBuiltinLanguages(Context& context) {
  context.addLanguage("constant", std::make_unique<ConstantLanguage>());
  context.addLanguage("header", std::make_unique<HeaderLanguage>(false));
  context.addLanguage("exchangeProperty", std::make_unique<HeaderLanguage>(true));
  context.addLanguage("variable", std::make_unique<VariableLanguage>());
  context.addLanguage("simple", simplelang::makeSimpleLanguage());
}

}  // namespace detail

Result<std::unique_ptr<Expression>> ExpressionDefinition::compile(Context& context) const {
  return spec_->compile(context);
}
std::string ExpressionDefinition::describe() const { return spec_->describe(); }

PredicateDefinition ExpressionDefinition::isEqualTo(const ExpressionDefinition& o) const {
  return compare(Op::Eq, *this, o);
}
PredicateDefinition ExpressionDefinition::isNotEqualTo(const ExpressionDefinition& o) const {
  return compare(Op::Ne, *this, o);
}
PredicateDefinition ExpressionDefinition::isLessThan(const ExpressionDefinition& o) const {
  return compare(Op::Lt, *this, o);
}
PredicateDefinition ExpressionDefinition::isLessThanOrEqualTo(
    const ExpressionDefinition& o) const {
  return compare(Op::Le, *this, o);
}
PredicateDefinition ExpressionDefinition::isGreaterThan(const ExpressionDefinition& o) const {
  return compare(Op::Gt, *this, o);
}
PredicateDefinition ExpressionDefinition::isGreaterThanOrEqualTo(
    const ExpressionDefinition& o) const {
  return compare(Op::Ge, *this, o);
}
PredicateDefinition ExpressionDefinition::contains(const ExpressionDefinition& o) const {
  return compare(Op::Contains, *this, o);
}
PredicateDefinition ExpressionDefinition::startsWith(const ExpressionDefinition& o) const {
  return compare(Op::StartsWith, *this, o);
}
PredicateDefinition ExpressionDefinition::endsWith(const ExpressionDefinition& o) const {
  return compare(Op::EndsWith, *this, o);
}
PredicateDefinition ExpressionDefinition::isNull() const {
  return PredicateDefinition(std::make_shared<IsNullSpec>(*this, false));
}
PredicateDefinition ExpressionDefinition::isNotNull() const {
  return PredicateDefinition(std::make_shared<IsNullSpec>(*this, true));
}

PredicateDefinition::PredicateDefinition(const ExpressionDefinition& expression)
    : spec_(std::make_shared<ExpressionPredicateSpec>(expression)) {}

Result<std::unique_ptr<Predicate>> PredicateDefinition::compile(Context& context) const {
  return spec_->compile(context);
}
std::string PredicateDefinition::describe() const { return spec_->describe(); }

ExpressionDefinition constant(Value value) {
  return ExpressionDefinition(std::make_shared<ConstantSpec>(std::move(value)));
}
ExpressionDefinition header(std::string name) {
  return ExpressionDefinition(std::make_shared<HeaderSpec>(std::move(name), false));
}
ExpressionDefinition exchangeProperty(std::string name) {
  return ExpressionDefinition(std::make_shared<HeaderSpec>(std::move(name), true));
}
ExpressionDefinition variable(std::string name) {
  return language("variable", std::move(name));
}
ExpressionDefinition body() { return ExpressionDefinition(std::make_shared<BodySpec>()); }
ExpressionDefinition language(std::string name, std::string text) {
  return ExpressionDefinition(std::make_shared<LanguageSpec>(std::move(name), std::move(text)));
}
ExpressionDefinition language(std::string name, std::string text, LanguageOptions options) {
  return ExpressionDefinition(
      std::make_shared<LanguageSpec>(std::move(name), std::move(text), std::move(options)));
}
ExpressionDefinition jsonpath(std::string text, LanguageOptions options) {
  return language("jsonpath", std::move(text), std::move(options));
}
ExpressionDefinition simple(std::string text) {
  return language("simple", std::move(text));
}
ExpressionDefinition expression(std::function<Value(const Exchange&)> fn) {
  return ExpressionDefinition(std::make_shared<FunctionSpec>(std::move(fn)));
}
PredicateDefinition predicate(std::function<bool(const Exchange&)> fn) {
  return PredicateDefinition(std::make_shared<FunctionPredicateSpec>(std::move(fn)));
}

PredicateDefinition operator==(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Eq, a, b);
}
PredicateDefinition operator!=(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Ne, a, b);
}
PredicateDefinition operator<(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Lt, a, b);
}
PredicateDefinition operator<=(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Le, a, b);
}
PredicateDefinition operator>(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Gt, a, b);
}
PredicateDefinition operator>=(const ExpressionDefinition& a, const ExpressionDefinition& b) {
  return compare(Op::Ge, a, b);
}
PredicateDefinition operator==(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Eq, a, constant(b));
}
PredicateDefinition operator!=(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Ne, a, constant(b));
}
PredicateDefinition operator<(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Lt, a, constant(b));
}
PredicateDefinition operator<=(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Le, a, constant(b));
}
PredicateDefinition operator>(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Gt, a, constant(b));
}
PredicateDefinition operator>=(const ExpressionDefinition& a, const Value& b) {
  return compare(Op::Ge, a, constant(b));
}
PredicateDefinition operator&&(const PredicateDefinition& a, const PredicateDefinition& b) {
  return PredicateDefinition(std::make_shared<LogicalSpec>(true, a, b));
}
PredicateDefinition operator||(const PredicateDefinition& a, const PredicateDefinition& b) {
  return PredicateDefinition(std::make_shared<LogicalSpec>(false, a, b));
}
PredicateDefinition operator!(const PredicateDefinition& a) {
  return PredicateDefinition(std::make_shared<NotSpec>(a));
}

Tokenizer tokenize(std::string token, bool regex, int group) {
  Tokenizer t;
  t.token = std::move(token);
  t.regex = regex;
  t.group = group;
  return t;
}

}  // namespace dromedary
