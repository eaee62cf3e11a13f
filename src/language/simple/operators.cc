// SPDX-License-Identifier: Apache-2.0
#include "language/simple/operators.h"

#include <charconv>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <re2/re2.h>

#include <dromedary/core/value_compare.h>

#include "core/scratch.h"
#include "core/text.h"
#include "core/type_names.h"
#include "language/simple/functions.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

struct OpName {
  std::string_view name;
  BinaryOp op;
};
constexpr OpName kOps[] = {
    {"==", BinaryOp::Eq},
    {"=~", BinaryOp::EqIgnoreCase},
    {"!=", BinaryOp::Ne},
    {"!=~", BinaryOp::NeIgnoreCase},
    {">", BinaryOp::Gt},
    {">=", BinaryOp::Ge},
    {"<", BinaryOp::Lt},
    {"<=", BinaryOp::Le},
    {"contains", BinaryOp::Contains},
    {"!contains", BinaryOp::NotContains},
    {"~~", BinaryOp::ContainsIgnoreCase},
    {"!~~", BinaryOp::NotContainsIgnoreCase},
    {"regex", BinaryOp::Regex},
    {"!regex", BinaryOp::NotRegex},
    {"in", BinaryOp::In},
    {"!in", BinaryOp::NotIn},
    {"range", BinaryOp::Range},
    {"!range", BinaryOp::NotRange},
    {"is", BinaryOp::Is},
    {"!is", BinaryOp::NotIs},
    {"startsWith", BinaryOp::StartsWith},
    {"!startsWith", BinaryOp::NotStartsWith},
    {"endsWith", BinaryOp::EndsWith},
    {"!endsWith", BinaryOp::NotEndsWith},
    {"equals", BinaryOp::TextEquals},
    {"!equals", BinaryOp::NotTextEquals},
};

thread_local std::string buffer_a;
thread_local std::string buffer_b;

bool containsIgnoreCase(std::string_view haystack, std::string_view needle) noexcept {
  if (needle.empty()) return true;
  if (needle.size() > haystack.size()) return false;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (equalsIgnoreCaseAscii(haystack.substr(i, needle.size()), needle)) return true;
  }
  return false;
}

// Comparisons whose right side needs no preparation.
class ComparePredicate final : public Predicate {
 public:
  ComparePredicate(BinaryOp op, ExprPtr left, ExprPtr right)
      : op_(op),
        left_(std::move(left)),
        right_(std::move(right)),
        direct_(isDirect(*left_) && isDirect(*right_)) {}

  bool matches(Exchange& ex) const noexcept override {
    if (direct_) {  // header == literal and the like: no scratch slots needed
      const Value* a = left_->evaluate(ex, unusedScratch());
      const Value* b = right_->evaluate(ex, unusedScratch());
      return a && b && compare(*a, *b);
    }
    ScratchValue sa;
    ScratchValue sb;
    const Value* a = left_->evaluate(ex, *sa);
    if (!a) return false;
    const Value* b = right_->evaluate(ex, *sb);
    if (!b) return false;
    return compare(*a, *b);
  }

 private:
  bool compare(const Value& a, const Value& b) const noexcept {
    switch (op_) {
      case BinaryOp::Eq: return coerceEquals(a, b);
      case BinaryOp::Ne: return !coerceEquals(a, b);
      case BinaryOp::EqIgnoreCase: return equalsIgnoringCase(a, b);
      case BinaryOp::NeIgnoreCase: return !equalsIgnoringCase(a, b);
      case BinaryOp::Contains: return coerceContains(a, b);
      case BinaryOp::NotContains: return !coerceContains(a, b);
      case BinaryOp::ContainsIgnoreCase: return containsIgnoringCase(a, b);
      case BinaryOp::NotContainsIgnoreCase: return !containsIgnoringCase(a, b);
      case BinaryOp::StartsWith: return coerceStartsWith(a, b);
      case BinaryOp::NotStartsWith: return !coerceStartsWith(a, b);
      case BinaryOp::EndsWith: return coerceEndsWith(a, b);
      case BinaryOp::NotEndsWith: return !coerceEndsWith(a, b);
      case BinaryOp::TextEquals: return textEquals(a, b);
      case BinaryOp::NotTextEquals: return !textEquals(a, b);
      default: break;
    }
    std::optional<int> c = coerceCompare(a, b);
    if (!c) return false;
    switch (op_) {
      case BinaryOp::Gt: return *c > 0;
      case BinaryOp::Ge: return *c >= 0;
      case BinaryOp::Lt: return *c < 0;
      case BinaryOp::Le: return *c <= 0;
      default: return false;
    }
  }

  static bool equalsIgnoringCase(const Value& a, const Value& b) noexcept {
    if (coerceEquals(a, b)) return true;
    if (a.isNull() || b.isNull()) return false;
    return equalsIgnoreCaseAscii(stringForm(a, buffer_a), stringForm(b, buffer_b));
  }
  static bool containsIgnoringCase(const Value& a, const Value& b) noexcept {
    if (a.isNull() || b.isNull()) return false;
    return containsIgnoreCase(stringForm(a, buffer_a), stringForm(b, buffer_b));
  }
  static bool textEquals(const Value& a, const Value& b) noexcept {
    if (a.isNull() || b.isNull()) return a.isNull() && b.isNull();
    return stringForm(a, buffer_a) == stringForm(b, buffer_b);
  }

  BinaryOp op_;
  ExprPtr left_;
  ExprPtr right_;
  bool direct_;
};

// `left OP literal` for the comparisons most routes make: a text literal under == or !=,
// an integer literal under ==, !=, >, >=, < or <=, with a left side that needs no scratch (a
// header, a property, the body). The literal's kind is known when the route starts, so the
// usual case (a text header against a text literal, an integer against an integer) compares
// at once; every other value goes through coerceEquals / coerceCompare as ComparePredicate
// does, so the result is always theirs.
class LiteralComparePredicate final : public Predicate {
 public:
  // A header read is kept as its (interned) key alone: its node goes.
  LiteralComparePredicate(BinaryOp op, ExprPtr left, const Value& literal)
      : op_(op), header_(headerKeyOf(*left)), literal_(literal) {
    if (!header_) left_ = std::move(left);
    if (literal_.isString()) {
      std::string_view text = literal_.getString();
      literal_digits_ = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
    }
    if (!header_) return;
    negate_ = op_ == BinaryOp::Ne;
    if (literal_.isString()) {
      fast_ = Fast::HeaderText;  // handles() admits text under == and != only
      return;
    }
    // An integer: the ones that match make the range [low_, high_] (negated for !=).
    const int64_t y = literal_.getInt();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    fast_ = Fast::HeaderInt;
    switch (op_) {
      case BinaryOp::Gt:
        if (y == kMax) fast_ = Fast::None;  // nothing is greater: left to the general path
        low_ = y + (y == kMax ? 0 : 1), high_ = kMax;
        break;
      case BinaryOp::Ge: low_ = y, high_ = kMax; break;
      case BinaryOp::Lt:
        if (y == kMin) fast_ = Fast::None;
        low_ = kMin, high_ = y - (y == kMin ? 0 : 1);
        break;
      case BinaryOp::Le: low_ = kMin, high_ = y; break;
      default: low_ = y, high_ = y; break;  // == and !=
    }
  }

  /// Whether `op` against `literal` is one of the shapes this predicate speeds up.
  static bool handles(BinaryOp op, const Value& literal) noexcept {
    bool equality = op == BinaryOp::Eq || op == BinaryOp::Ne;
    bool ordering = op == BinaryOp::Gt || op == BinaryOp::Ge || op == BinaryOp::Lt ||
                    op == BinaryOp::Le;
    return (equality && (literal.isString() || literal.isInt())) ||
           (ordering && literal.isInt());
  }

  bool matches(Exchange& ex) const noexcept override {
    // The usual cases first, in a few instructions: a text header against a text literal, an
    // integer header against an integer literal. Anything else (an absent header read from a
    // property, another type, coercion) takes the general path, out of line.
    if (fast_ == Fast::HeaderText) {
      const Value* a = ex.message().getHeader(*header_);
      if (a && a->isString()) [[likely]] {
        if (detail::sameBytes(a->getString(), literal_.getString())) return !negate_;
        if (!literal_digits_) return negate_;
      }
    } else if (fast_ == Fast::HeaderInt) {
      const Value* a = ex.message().getHeader(*header_);
      if (a && a->isInt()) [[likely]] {
        const int64_t x = a->getInt();
        return (x >= low_ && x <= high_) != negate_;
      }
    }
    return general(ex);
  }

 private:
  enum class Fast : uint8_t { None, HeaderText, HeaderInt };

  [[gnu::noinline]] bool general(Exchange& ex) const noexcept {
    // A header (most comparisons) is looked up here, without a call through its node.
    const Value* a = header_ ? &headerOrProperty(ex, *header_)
                             : left_->evaluate(ex, unusedScratch());
    if (!a) return false;
    switch (op_) {
      case BinaryOp::Eq: return equals(*a);
      case BinaryOp::Ne: return !equals(*a);
      default: break;
    }
    int c;
    if (a->isInt()) [[likely]] {
      int64_t x = a->getInt();
      int64_t y = literal_.getInt();
      c = x < y ? -1 : x > y ? 1 : 0;
    } else {
      std::optional<int> general = coerceCompare(*a, literal_);
      if (!general) return false;
      c = *general;
    }
    switch (op_) {
      case BinaryOp::Gt: return c > 0;
      case BinaryOp::Ge: return c >= 0;
      case BinaryOp::Lt: return c < 0;
      default: return c <= 0;
    }
  }

  bool equals(const Value& a) const noexcept {
    if (literal_.isString() && a.isString()) [[likely]] {
      // Two texts are equal when they are the same text, or both digits of the same number.
      if (detail::sameBytes(a.getString(), literal_.getString())) return true;
      if (!literal_digits_) return false;
    } else if (literal_.isInt() && a.isInt()) {
      return a.getInt() == literal_.getInt();
    }
    return coerceEquals(a, literal_);
  }

  BinaryOp op_;
  Fast fast_ = Fast::None;
  bool negate_ = false;  // !=, for the fast paths
  bool literal_digits_ = false;
  ExprPtr left_;              // null when it reads a header
  const HeaderKey* header_;  // the header it reads, if it does
  Value literal_;
  int64_t low_ = 0;  // Fast::HeaderInt: the integers that match, [low_, high_]
  int64_t high_ = 0;
};

// Right sides that are prepared once when constant (regex, in, range, is) share this shape:
// `Prepared` is built from the right side's text, at compile time when it is a literal, else
// per exchange (a dynamic regex or list costs what it costs).
template <class Prepared>
class PreparedPredicate final : public Predicate {
 public:
  PreparedPredicate(ExprPtr left, ExprPtr right, std::unique_ptr<Prepared> constant,
                    bool negate)
      : left_(std::move(left)),
        right_(std::move(right)),
        constant_(std::move(constant)),
        negate_(negate) {}

  bool matches(Exchange& ex) const noexcept override {
    ScratchValue sa;
    const Value* a = left_->evaluate(ex, *sa);
    if (!a) return false;
    if (constant_) return constant_->test(*a) != negate_;
    ScratchValue sb;
    const Value* b = right_->evaluate(ex, *sb);
    if (!b) return false;
    std::string error;
    std::string hint;
    std::unique_ptr<Prepared> prepared;
    try {
      prepared = Prepared::make(stringForm(*b, buffer_b), error, hint);
    } catch (...) {
      ex.setException(std::current_exception());
      return false;
    }
    if (!prepared) {
      failEvaluation(ex, Prepared::kWhat, error);
      return false;
    }
    return prepared->test(*a) != negate_;
  }

 private:
  ExprPtr left_;
  ExprPtr right_;
  std::unique_ptr<Prepared> constant_;
  bool negate_;
};

struct RegexMatch {
  static constexpr std::string_view kWhat = "regex";
  std::unique_ptr<RE2> re;

  static std::unique_ptr<RegexMatch> make(std::string_view pattern, std::string& error, std::string&) {
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_unique<RE2>(pattern, options);
    if (!re->ok()) {
      error = fmt::format("invalid regex '{}': {}", pattern, re->error());
      return nullptr;
    }
    auto out = std::make_unique<RegexMatch>();
    out->re = std::move(re);
    return out;
  }
  // Java's String.matches: the whole text must match.
  bool test(const Value& v) const noexcept {
    if (v.isNull()) return false;
    return RE2::FullMatch(stringForm(v, buffer_a), *re);
  }
};

struct InList {
  static constexpr std::string_view kWhat = "in";
  std::vector<Value> items;

  // Comma separated, as written: ",,a" holds an empty value and "a".
  static std::unique_ptr<InList> make(std::string_view list, std::string&, std::string&) {
    auto out = std::make_unique<InList>();
    size_t start = 0;
    while (true) {
      size_t comma = list.find(',', start);
      out->items.emplace_back(std::string(list.substr(start, comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return out;
  }
  bool test(const Value& v) const noexcept {
    for (const Value& item : items) {
      if (coerceEquals(v, item)) return true;
    }
    return false;
  }
};

struct NumberRange {
  static constexpr std::string_view kWhat = "range";
  double from = 0;
  double to = 0;

  static std::unique_ptr<NumberRange> make(std::string_view text, std::string& error, std::string&) {
    size_t dots = text.find("..");
    auto parse = [](std::string_view s) -> std::optional<double> {
      s = trim(s);
      double d = 0;
      auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
      if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
      return d;
    };
    std::optional<double> from, to;
    if (dots != std::string_view::npos) {
      from = parse(text.substr(0, dots));
      to = parse(text.substr(dots + 2));
    }
    if (!from || !to) {
      error = fmt::format("range must be two numbers as 'from..to', was '{}'", text);
      return nullptr;
    }
    auto out = std::make_unique<NumberRange>();
    out->from = *from;
    out->to = *to;
    return out;
  }
  bool test(const Value& v) const noexcept {
    auto d = v.tryAs<double>();
    return d && *d >= from && *d <= to;
  }
};

struct TypeIs {
  static constexpr std::string_view kWhat = "is";
  const TypeTest* type = nullptr;

  static std::unique_ptr<TypeIs> make(std::string_view name, std::string& error, std::string& hint) {
    const TypeTest* t = typeTestByName(trim(name));
    if (!t) {
      std::string meant = closestMatch(trim(name), typeTestNames());
      error = fmt::format("unknown type '{}'", name);
      if (!meant.empty()) hint = fmt::format("did you mean '{}'?", meant);
      return nullptr;
    }
    auto out = std::make_unique<TypeIs>();
    out->type = t;
    return out;
  }
  bool test(const Value& v) const noexcept { return type->matches(v); }
};

template <class Prepared>
PredPtr makePrepared(Parser& parser, ExprPtr left, ExprPtr right, std::string_view right_text,
                     bool negate) {
  std::unique_ptr<Prepared> constant;
  if (const Value* literal = literalValue(*right)) {
    std::string error;
    std::string hint;
    constant = Prepared::make(stringForm(*literal, buffer_b), error, hint);
    if (!constant) parser.fail(right_text, std::move(error), std::move(hint));
  }
  return std::make_unique<PreparedPredicate<Prepared>>(std::move(left), std::move(right),
                                                       std::move(constant), negate);
}

class LogicalPredicate final : public Predicate {
 public:
  LogicalPredicate(bool is_and, PredPtr a, PredPtr b)
      : is_and_(is_and), a_(std::move(a)), b_(std::move(b)) {}
  bool matches(Exchange& ex) const noexcept override {
    bool first = a_->matches(ex);
    if (!first && ex.failed()) return false;
    if (first != is_and_) return first;  // && stops at false, || at true
    return b_->matches(ex);
  }

 private:
  bool is_and_;
  PredPtr a_;
  PredPtr b_;
};

class NotPredicate final : public Predicate {
 public:
  explicit NotPredicate(PredPtr p) : p_(std::move(p)) {}
  bool matches(Exchange& ex) const noexcept override {
    bool m = p_->matches(ex);
    if (!m && ex.failed()) return false;
    return !m;
  }

 private:
  PredPtr p_;
};

class TruthyPredicate final : public Predicate {
 public:
  explicit TruthyPredicate(ExprPtr e) : e_(std::move(e)) {}
  bool matches(Exchange& ex) const noexcept override {
    ScratchValue s;
    const Value* v = e_->evaluate(ex, *s);
    return v && isTruthy(*v);
  }

 private:
  ExprPtr e_;
};

}  // namespace

std::optional<BinaryOp> binaryOpByName(std::string_view word) noexcept {
  for (const OpName& o : kOps) {
    if (o.name == word) return o.op;
  }
  return std::nullopt;
}

PredPtr makeBinary(Parser& parser, BinaryOp op, ExprPtr left, ExprPtr right,
                   std::string_view right_text) {
  switch (op) {
    case BinaryOp::Regex:
    case BinaryOp::NotRegex:
      return makePrepared<RegexMatch>(parser, std::move(left), std::move(right), right_text,
                                      op == BinaryOp::NotRegex);
    case BinaryOp::In:
    case BinaryOp::NotIn:
      return makePrepared<InList>(parser, std::move(left), std::move(right), right_text,
                                  op == BinaryOp::NotIn);
    case BinaryOp::Range:
    case BinaryOp::NotRange:
      return makePrepared<NumberRange>(parser, std::move(left), std::move(right), right_text,
                                       op == BinaryOp::NotRange);
    case BinaryOp::Is:
    case BinaryOp::NotIs:
      return makePrepared<TypeIs>(parser, std::move(left), std::move(right), right_text,
                                  op == BinaryOp::NotIs);
    default:
      if (const Value* literal = literalValue(*right);
          literal && isDirect(*left) && LiteralComparePredicate::handles(op, *literal)) {
        return std::make_unique<LiteralComparePredicate>(op, std::move(left), *literal);
      }
      return std::make_unique<ComparePredicate>(op, std::move(left), std::move(right));
  }
}

PredPtr makeLogical(bool is_and, PredPtr a, PredPtr b) {
  return std::make_unique<LogicalPredicate>(is_and, std::move(a), std::move(b));
}

PredPtr makeNot(PredPtr p) { return std::make_unique<NotPredicate>(std::move(p)); }

PredPtr makeTruthy(ExprPtr e) { return std::make_unique<TruthyPredicate>(std::move(e)); }

}  // namespace dromedary::simplelang
