// SPDX-License-Identifier: Apache-2.0
// JsonPath: a parser into segments and filter trees (once, at route start), and an evaluator
// that walks them over values with a list of matches per step and no recursion into the data
// (deep scans keep their own stack).
#include "json_path.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <dromedary/spi/language.h>

namespace dromedary::component::json {

namespace {

struct FilterNode;

struct Segment {
  enum class Kind { Names, Indexes, Slice, Wildcard, Filter };
  Kind kind = Kind::Names;
  bool deep = false;  // after `..`: applied to the node and every node under it
  std::vector<std::string> names;
  std::vector<int64_t> indexes;
  std::optional<int64_t> from, to;
  int64_t step = 1;
  std::shared_ptr<const FilterNode> filter;
};

enum class Function { None, Length, Size, Min, Max, Avg, Sum, Keys, First, Last };

struct PathExpr {
  bool relative = false;  // @ (the filter's current node) rather than $
  std::vector<Segment> segments;
  Function function = Function::None;
  bool definite = true;
};

struct Operand {
  enum class Kind { None, Path, Literal, Regex };
  Kind kind = Kind::None;
  PathExpr path;
  Value literal;
  std::shared_ptr<const RE2> regex;
};

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge, Regex, In, Nin, SubsetOf, AnyOf, NoneOf, Size, Empty };

struct FilterNode {
  enum class Op { Or, And, Not, Test, Compare };
  Op op = Op::Test;
  std::shared_ptr<const FilterNode> a, b;
  Operand left, right;
  Cmp cmp = Cmp::Eq;
};

// --- parsing --------------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string_view text) : t_(text) {}

  Result<PathExpr> whole() {
    skipSpace();
    DROMEDARY_TRY(path, this->path(false));
    skipSpace();
    if (i_ < t_.size()) return error("the end of the path");
    return path;
  }

 private:
  Error error(std::string_view expected) const {
    return makeError(ErrorCode::InvalidExpression,
                     fmt::format("jsonpath '{}': expected {} at position {}{}", t_, expected, i_ + 1,
                                 i_ < t_.size() ? fmt::format(" ('{}')", t_.substr(i_, 10)) : ""));
  }
  bool at(std::string_view s) const { return t_.substr(i_).starts_with(s); }
  bool eat(std::string_view s) {
    if (!at(s)) return false;
    i_ += s.size();
    return true;
  }
  void skipSpace() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  static bool nameChar(char c) {
    return c != '.' && c != '[' && c != ']' && c != '(' && c != ')' && c != ' ' && c != '\t' &&
           c != '=' && c != '!' && c != '<' && c != '>' && c != '&' && c != '|' && c != ',' &&
           c != '\'' && c != '"' && c != '\n' && c != '\r';
  }

  // `$...` or `@...`; `inFilter`: a path inside a filter (ends at an operator or `)`).
  Result<PathExpr> path(bool in_filter) {
    PathExpr p;
    if (eat("$")) {
      p.relative = false;
    } else if (eat("@")) {
      p.relative = true;
    } else if (!in_filter) {
      // Camel lets a path start without `$` (`store.book`): it is read from the root.
    } else {
      return error("$ or @");
    }
    if (!in_filter && (i_ < t_.size() && t_[i_] != '.' && t_[i_] != '[')) {
      DROMEDARY_TRY_VOID(dotted(p, false));
    }
    while (i_ < t_.size()) {
      if (eat("..")) {
        if (at("[")) {
          DROMEDARY_TRY_VOID(bracket(p, true));
        } else {
          DROMEDARY_TRY_VOID(dotted(p, true));
        }
      } else if (eat(".")) {
        DROMEDARY_TRY_VOID(dotted(p, false));
      } else if (at("[")) {
        DROMEDARY_TRY_VOID(bracket(p, false));
      } else {
        break;
      }
      if (p.function != Function::None) break;
    }
    for (const Segment& s : p.segments) {
      bool single = (s.kind == Segment::Kind::Names && s.names.size() == 1) ||
                    (s.kind == Segment::Kind::Indexes && s.indexes.size() == 1);
      if (s.deep || !single) p.definite = false;
    }
    return p;
  }

  // After `.` (or `..`): a name, `*`, or a function call ending the path.
  Result<void> dotted(PathExpr& p, bool deep) {
    Segment s;
    s.deep = deep;
    if (eat("*")) {
      s.kind = Segment::Kind::Wildcard;
      p.segments.push_back(std::move(s));
      return {};
    }
    size_t start = i_;
    while (i_ < t_.size() && nameChar(t_[i_])) ++i_;
    if (i_ == start) return error("a property name or *");
    std::string name(t_.substr(start, i_ - start));
    if (eat("()")) {
      static const std::pair<std::string_view, Function> kFunctions[] = {
          {"length", Function::Length}, {"size", Function::Size}, {"min", Function::Min},
          {"max", Function::Max},       {"avg", Function::Avg},   {"sum", Function::Sum},
          {"keys", Function::Keys},     {"first", Function::First}, {"last", Function::Last}};
      for (const auto& [n, f] : kFunctions) {
        if (n == name) {
          p.function = f;
          return {};
        }
      }
      i_ = start;
      return error("one of the functions length(), size(), min(), max(), avg(), sum(), keys(), "
                   "first(), last()");
    }
    s.names.push_back(std::move(name));
    p.segments.push_back(std::move(s));
    return {};
  }

  Result<std::string> quoted() {
    char q = t_[i_++];
    std::string out;
    while (i_ < t_.size() && t_[i_] != q) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) ++i_;
      out += t_[i_++];
    }
    if (i_ >= t_.size()) return error(fmt::format("the closing {}", q));
    ++i_;
    return out;
  }

  Result<int64_t> integer() {
    size_t start = i_;
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    if (i_ == start || (i_ == start + 1 && t_[start] == '-')) return error("a number");
    std::string digits(t_.substr(start, i_ - start));
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == ERANGE) return error("a number that fits in 64 bits");
    return static_cast<int64_t>(v);
  }

  Result<void> bracket(PathExpr& p, bool deep) {
    Segment s;
    s.deep = deep;
    ++i_;  // [
    skipSpace();
    if (eat("*")) {
      s.kind = Segment::Kind::Wildcard;
    } else if (eat("?(")) {
      s.kind = Segment::Kind::Filter;
      DROMEDARY_TRY(f, orExpr());
      s.filter = std::move(f);
      skipSpace();
      if (!eat(")")) return error(") closing the filter");
    } else if (at("'") || at("\"")) {
      s.kind = Segment::Kind::Names;
      for (;;) {
        skipSpace();
        if (!at("'") && !at("\"")) return error("a quoted property name");
        DROMEDARY_TRY(name, quoted());
        s.names.push_back(std::move(name));
        skipSpace();
        if (!eat(",")) break;
      }
    } else {
      std::optional<int64_t> first;
      if (!at(":")) {
        DROMEDARY_TRY(n, integer());
        first = n;
      }
      skipSpace();
      if (eat(":")) {
        s.kind = Segment::Kind::Slice;
        s.from = first;
        skipSpace();
        if (!at("]") && !at(":")) {
          DROMEDARY_TRY(n, integer());
          s.to = n;
        }
        skipSpace();
        if (eat(":")) {
          skipSpace();
          DROMEDARY_TRY(n, integer());
          if (n <= 0) return error("a positive slice step");
          s.step = n;
        }
      } else {
        s.kind = Segment::Kind::Indexes;
        s.indexes.push_back(*first);
        while (skipSpace(), eat(",")) {
          skipSpace();
          DROMEDARY_TRY(n, integer());
          s.indexes.push_back(n);
        }
      }
    }
    skipSpace();
    if (!eat("]")) return error("]");
    p.segments.push_back(std::move(s));
    return {};
  }

  // --- filters ---

  Result<std::shared_ptr<const FilterNode>> orExpr() {
    DROMEDARY_TRY(left, andExpr());
    for (;;) {
      skipSpace();
      if (!eat("||")) return left;
      if (++operators_ > 256) return error("at most 256 && and || in a filter");
      DROMEDARY_TRY(right, andExpr());
      auto n = std::make_shared<FilterNode>();
      n->op = FilterNode::Op::Or;
      n->a = std::move(left);
      n->b = std::move(right);
      left = std::move(n);
    }
  }

  Result<std::shared_ptr<const FilterNode>> andExpr() {
    DROMEDARY_TRY(left, unary());
    for (;;) {
      skipSpace();
      if (!eat("&&")) return left;
      if (++operators_ > 256) return error("at most 256 && and || in a filter");
      DROMEDARY_TRY(right, unary());
      auto n = std::make_shared<FilterNode>();
      n->op = FilterNode::Op::And;
      n->a = std::move(left);
      n->b = std::move(right);
      left = std::move(n);
    }
  }

  Result<std::shared_ptr<const FilterNode>> unary() {
    if (++depth_ > 64) return error("filters nested at most 64 deep");
    skipSpace();
    std::shared_ptr<const FilterNode> out;
    if (eat("!")) {
      DROMEDARY_TRY(inner, unary());
      auto n = std::make_shared<FilterNode>();
      n->op = FilterNode::Op::Not;
      n->a = std::move(inner);
      out = std::move(n);
    } else if (eat("(")) {
      DROMEDARY_TRY(inner, orExpr());
      skipSpace();
      if (!eat(")")) return error(")");
      out = std::move(inner);
    } else {
      DROMEDARY_TRY(c, comparison());
      out = std::move(c);
    }
    --depth_;
    return out;
  }

  Result<std::shared_ptr<const FilterNode>> comparison() {
    auto n = std::make_shared<FilterNode>();
    DROMEDARY_TRY(left, operand());
    n->left = std::move(left);
    skipSpace();
    static const std::pair<std::string_view, Cmp> kOps[] = {
        {"==", Cmp::Eq},          {"!=", Cmp::Ne},       {"<=", Cmp::Le},
        {">=", Cmp::Ge},          {"=~", Cmp::Regex},    {"<", Cmp::Lt},
        {">", Cmp::Gt},           {"nin ", Cmp::Nin},    {"in ", Cmp::In},
        {"subsetof ", Cmp::SubsetOf}, {"anyof ", Cmp::AnyOf}, {"noneof ", Cmp::NoneOf},
        {"size ", Cmp::Size},     {"empty ", Cmp::Empty}};
    for (const auto& [text, op] : kOps) {
      if (!eat(text)) continue;
      n->op = FilterNode::Op::Compare;
      n->cmp = op;
      skipSpace();
      DROMEDARY_TRY(right, op == Cmp::Regex ? regex() : operand());
      n->right = std::move(right);
      return std::shared_ptr<const FilterNode>(std::move(n));
    }
    n->op = FilterNode::Op::Test;
    return std::shared_ptr<const FilterNode>(std::move(n));
  }

  Result<Operand> regex() {
    if (!eat("/")) return error("a /regular expression/ after =~");
    std::string pattern;
    while (i_ < t_.size() && t_[i_] != '/') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] == '/') ++i_;
      pattern += t_[i_++];
    }
    if (!eat("/")) return error("the closing / of the regular expression");
    RE2::Options options;
    options.set_log_errors(false);
    if (eat("i")) options.set_case_sensitive(false);
    auto re = std::make_shared<RE2>(pattern, options);
    if (!re->ok()) return error(fmt::format("a valid regular expression ({})", re->error()));
    Operand o;
    o.kind = Operand::Kind::Regex;
    o.regex = std::move(re);
    return o;
  }

  Result<Value> literal() {
    skipSpace();
    if (at("'") || at("\"")) {
      DROMEDARY_TRY(s, quoted());
      return Value(std::move(s));
    }
    if (eat("true")) return Value(true);
    if (eat("false")) return Value(false);
    if (eat("null")) return Value();
    if (eat("[")) {
      ValueList items;
      skipSpace();
      if (!eat("]")) {
        for (;;) {
          DROMEDARY_TRY(v, literal());
          items.push_back(std::move(v));
          skipSpace();
          if (eat("]")) break;
          if (!eat(",")) return error(", or ] in the list");
        }
      }
      return Value(std::move(items));
    }
    size_t start = i_;
    if (i_ < t_.size() && (t_[i_] == '-' || t_[i_] == '+')) ++i_;
    while (i_ < t_.size() && ((t_[i_] >= '0' && t_[i_] <= '9') || t_[i_] == '.' || t_[i_] == 'e' ||
                              t_[i_] == 'E' || ((t_[i_] == '-' || t_[i_] == '+') && i_ > start &&
                                                (t_[i_ - 1] == 'e' || t_[i_ - 1] == 'E')))) {
      ++i_;
    }
    std::string number(t_.substr(start, i_ - start));
    if (number.empty()) return error("a value: @.path, $.path, a number, 'text', true, false, null or a [list]");
    char* end = nullptr;
    if (number.find_first_of(".eE") == std::string::npos) {
      errno = 0;
      long long v = std::strtoll(number.c_str(), &end, 10);
      if (end == number.c_str() + number.size() && errno == 0) return Value(static_cast<int64_t>(v));
    }
    double d = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) {
      i_ = start;
      return error("a number");
    }
    return Value(d);
  }

  Result<Operand> operand() {
    skipSpace();
    Operand o;
    if (at("@") || at("$")) {
      DROMEDARY_TRY(p, path(true));
      o.kind = Operand::Kind::Path;
      o.path = std::move(p);
      return o;
    }
    DROMEDARY_TRY(v, literal());
    o.kind = Operand::Kind::Literal;
    o.literal = std::move(v);
    return o;
  }

  std::string_view t_;
  size_t i_ = 0;
  int depth_ = 0;
  int operators_ = 0;
};

// --- evaluating -----------------------------------------------------------------------------

using Nodes = std::vector<const Value*>;

// How many nodes one evaluation may visit. Filters holding deep scans nest: each level visits
// the document again for every node the level above visits, so the work is the document's
// size to the power of the nesting (the fuzzer found a 300-byte path that ran for minutes on
// a 20-node document). Real paths stay far below; a path past it fails instead of hanging.
std::atomic<uint64_t> g_visit_budget{20'000'000};
thread_local uint64_t t_visits_left = 0;

// Counts a visit; false once the budget is spent (the walk then stops where it is).
bool visit() noexcept {
  if (t_visits_left == 0) return false;
  --t_visits_left;
  return true;
}

std::optional<double> number(const Value& v) {
  if (v.isInt()) return static_cast<double>(v.getInt());
  if (v.isDouble()) return v.getDouble();
  return std::nullopt;
}

bool same(const Value& a, const Value& b) {
  auto x = number(a);
  auto y = number(b);
  if (x && y) return *x == *y;
  return a == b;
}

bool contains(const Value& list, const Value& item) {
  if (!list.isList()) return false;
  return std::any_of(list.getList().begin(), list.getList().end(),
                     [&](const Value& v) { return same(v, item); });
}

size_t sizeOf(const Value& v) {
  if (v.isList()) return v.getList().size();
  if (v.isMap()) return v.getMap().size();
  if (v.isString()) return v.getString().size();
  return 0;
}

void select(const Segment& s, const Value& node, const Value& root, Nodes& out);

void descend(const Segment& s, const Value& node, const Value& root, Nodes& out) {
  // The node, then every node under it, depth first in document order.
  std::vector<const Value*> stack{&node};
  while (!stack.empty() && visit()) {
    const Value* v = stack.back();
    stack.pop_back();
    select(s, *v, root, out);
    if (v->isList()) {
      const ValueList& l = v->getList();
      for (auto it = l.rbegin(); it != l.rend(); ++it) stack.push_back(&*it);
    } else if (v->isMap()) {
      const ValueMap& m = v->getMap();
      for (auto it = m.rbegin(); it != m.rend(); ++it) stack.push_back(&it->second);
    }
  }
}

// The matches of a path from `start` (the filter's @, or the root).
void walk(const PathExpr& p, const Value& start, const Value& root, Nodes& out) {
  Nodes current{&start};
  Nodes next;
  for (const Segment& s : p.segments) {
    next.clear();
    for (const Value* v : current) {
      if (s.deep) {
        descend(s, *v, root, next);
      } else {
        select(s, *v, root, next);
      }
    }
    std::swap(current, next);
    if (current.empty()) break;
  }
  out = std::move(current);
}

// A filter operand's value: a path's single value (definite) or list of matches; nothing when
// a definite path does not match.
std::optional<Value> valueOf(const Operand& o, const Value& current, const Value& root) {
  if (o.kind == Operand::Kind::Literal) return o.literal;
  if (o.kind != Operand::Kind::Path) return std::nullopt;
  Nodes found;
  walk(o.path, o.path.relative ? current : root, root, found);
  if (o.path.definite) {
    if (found.empty()) return std::nullopt;
    return *found.front();
  }
  ValueList items;
  for (const Value* v : found) {
    if (!visit()) break;
    items.push_back(*v);
  }
  return Value(std::move(items));
}

bool test(const FilterNode& f, const Value& current, const Value& root) {
  switch (f.op) {
    case FilterNode::Op::Or: return test(*f.a, current, root) || test(*f.b, current, root);
    case FilterNode::Op::And: return test(*f.a, current, root) && test(*f.b, current, root);
    case FilterNode::Op::Not: return !test(*f.a, current, root);
    case FilterNode::Op::Test: {
      auto v = valueOf(f.left, current, root);
      if (!v) return false;
      if (f.left.kind == Operand::Kind::Literal) return isTruthy(*v);
      return !(v->isList() && !f.left.path.definite && v->getList().empty());
    }
    case FilterNode::Op::Compare: break;
  }
  auto l = valueOf(f.left, current, root);
  if (f.cmp == Cmp::Regex) {
    return l && l->isString() && RE2::FullMatch(l->getString(), *f.right.regex);
  }
  auto r = valueOf(f.right, current, root);
  if (!l || !r) return f.cmp == Cmp::Ne && (l.has_value() != r.has_value());
  switch (f.cmp) {
    case Cmp::Eq: return same(*l, *r);
    case Cmp::Ne: return !same(*l, *r);
    case Cmp::Lt:
    case Cmp::Le:
    case Cmp::Gt:
    case Cmp::Ge: {
      int order;
      auto x = number(*l);
      auto y = number(*r);
      if (x && y) {
        order = *x < *y ? -1 : (*x > *y ? 1 : 0);
      } else if (l->isString() && r->isString()) {
        order = l->getString().compare(r->getString());
      } else {
        return false;
      }
      if (f.cmp == Cmp::Lt) return order < 0;
      if (f.cmp == Cmp::Le) return order <= 0;
      if (f.cmp == Cmp::Gt) return order > 0;
      return order >= 0;
    }
    case Cmp::In: return contains(*r, *l);
    case Cmp::Nin: return !contains(*r, *l);
    case Cmp::SubsetOf:
    case Cmp::AnyOf:
    case Cmp::NoneOf: {
      if (!l->isList() || !r->isList()) return false;
      const ValueList& items = l->getList();
      auto in_right = [&](const Value& v) { return contains(*r, v); };
      if (f.cmp == Cmp::SubsetOf) return std::all_of(items.begin(), items.end(), in_right);
      if (f.cmp == Cmp::AnyOf) return std::any_of(items.begin(), items.end(), in_right);
      return std::none_of(items.begin(), items.end(), in_right);
    }
    case Cmp::Size: {
      auto n = number(*r);
      return n && (l->isList() || l->isMap() || l->isString()) &&
             static_cast<double>(sizeOf(*l)) == *n;
    }
    case Cmp::Empty: {
      if (!r->isBool() || !(l->isList() || l->isMap() || l->isString())) return false;
      return (sizeOf(*l) == 0) == r->getBool();
    }
    case Cmp::Regex: break;
  }
  return false;
}

void select(const Segment& s, const Value& node, const Value& root, Nodes& out) {
  switch (s.kind) {
    case Segment::Kind::Names:
      if (!node.isMap()) return;
      for (const std::string& name : s.names) {
        for (const auto& [key, value] : node.getMap()) {
          if (key == name) {
            out.push_back(&value);
            break;
          }
        }
      }
      return;
    case Segment::Kind::Indexes: {
      if (!node.isList()) return;
      const ValueList& l = node.getList();
      const auto n = static_cast<int64_t>(l.size());
      for (int64_t i : s.indexes) {
        int64_t at = i < 0 ? n + i : i;
        if (at >= 0 && at < n) out.push_back(&l[static_cast<size_t>(at)]);
      }
      return;
    }
    case Segment::Kind::Slice: {
      if (!node.isList()) return;
      const ValueList& l = node.getList();
      const auto n = static_cast<int64_t>(l.size());
      auto clamp = [&](int64_t i) { return std::clamp(i < 0 ? n + i : i, int64_t{0}, n); };
      int64_t from = s.from ? clamp(*s.from) : 0;
      int64_t to = s.to ? clamp(*s.to) : n;
      for (int64_t i = from; i < to; i += s.step) out.push_back(&l[static_cast<size_t>(i)]);
      return;
    }
    case Segment::Kind::Wildcard:
      if (node.isList()) {
        for (const Value& v : node.getList()) out.push_back(&v);
      } else if (node.isMap()) {
        for (const auto& [key, v] : node.getMap()) out.push_back(&v);
      }
      return;
    case Segment::Kind::Filter:
      if (node.isList()) {
        for (const Value& v : node.getList()) {
          if (!visit()) return;
          if (test(*s.filter, v, root)) out.push_back(&v);
        }
      } else if (node.isMap() && test(*s.filter, node, root)) {
        out.push_back(&node);
      }
      return;
  }
}

std::string canonical(const PathExpr& p) {
  std::string out = p.relative ? "@" : "$";
  for (const Segment& s : p.segments) {
    if (s.deep) out += "..";
    switch (s.kind) {
      case Segment::Kind::Names:
        out += "[";
        for (size_t i = 0; i < s.names.size(); ++i) out += fmt::format("{}'{}'", i ? "," : "", s.names[i]);
        out += "]";
        break;
      case Segment::Kind::Indexes: out += fmt::format("[{}]", fmt::join(s.indexes, ",")); break;
      case Segment::Kind::Slice: out += "[:]"; break;
      case Segment::Kind::Wildcard: out += "[*]"; break;
      case Segment::Kind::Filter: out += "[?]"; break;
    }
  }
  return out;
}

Result<Value> applyFunction(Function f, const Value& input, const std::string& text) {
  auto fail = [&](std::string_view what) {
    return makeError(ErrorCode::InvalidExpression, fmt::format("jsonpath '{}': {}", text, what));
  };
  switch (f) {
    case Function::None: return input;
    case Function::Length:
    case Function::Size:
      if (!input.isList() && !input.isMap() && !input.isString()) {
        return fail("length() applies to a list, a map or a text");
      }
      return Value(static_cast<int64_t>(sizeOf(input)));
    case Function::Keys: {
      if (!input.isMap()) return fail("keys() applies to a map");
      ValueList keys;
      for (const auto& [k, v] : input.getMap()) keys.emplace_back(k);
      return Value(std::move(keys));
    }
    case Function::First:
    case Function::Last:
      if (!input.isList() || input.getList().empty()) return fail("first() and last() apply to a list that is not empty");
      return f == Function::First ? input.getList().front() : input.getList().back();
    default: break;
  }
  if (!input.isList()) return fail("min(), max(), avg() and sum() apply to a list of numbers");
  std::vector<double> xs;
  for (const Value& v : input.getList()) {
    if (auto x = number(v)) xs.push_back(*x);
  }
  if (xs.empty()) return fail("min(), max() and avg() need at least one number");
  double sum = 0;
  for (double x : xs) sum += x;
  if (f == Function::Sum) return Value(sum);
  if (f == Function::Avg) return Value(sum / static_cast<double>(xs.size()));
  if (f == Function::Min) return Value(*std::min_element(xs.begin(), xs.end()));
  return Value(*std::max_element(xs.begin(), xs.end()));
}

}  // namespace

struct JsonPathProgram {
  std::string text;
  PathExpr path;
};

Result<JsonPath> JsonPath::compile(std::string_view text) {
  DROMEDARY_TRY(path, Parser(text).whole());
  JsonPath out;
  out.program_ = std::make_shared<const JsonPathProgram>(JsonPathProgram{std::string(text), std::move(path)});
  return out;
}

Result<Value> JsonPath::evaluate(const Value& root) const {
  const PathExpr& p = program_->path;
  Nodes found;
  const uint64_t budget = visitBudget();
  t_visits_left = budget;
  walk(p, root, root, found);
  if (t_visits_left == 0) {
    return makeError(ErrorCode::EvaluationFailed,
                     fmt::format("jsonpath '{}': gave up after visiting {} nodes (filters that "
                                 "hold deep scans multiply the work at each level)",
                                 program_->text, budget));
  }
  Value result;
  if (p.definite) {
    if (found.empty()) {
      return makeError(ErrorCode::InvalidExpression,
                       fmt::format("No results for path: {}", canonical(p)));
    }
    result = *found.front();
  } else {
    ValueList items;
    items.reserve(found.size());
    for (const Value* v : found) items.push_back(*v);
    result = Value(std::move(items));
  }
  return applyFunction(p.function, result, program_->text);
}

uint64_t JsonPath::visitBudget() noexcept {
  return g_visit_budget.load(std::memory_order_relaxed);
}

void JsonPath::setVisitBudget(uint64_t visits) noexcept {
  g_visit_budget.store(visits, std::memory_order_relaxed);
}

bool JsonPath::definite() const noexcept {
  return program_->path.definite && program_->path.function == Function::None;
}

const std::string& JsonPath::text() const noexcept { return program_->text; }

}  // namespace dromedary::component::json
