// SPDX-License-Identifier: Apache-2.0
#include "language/simple/navigation.h"

#include <charconv>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <re2/re2.h>

#include <dromedary/core/value_compare.h>

#include "core/scratch.h"
#include "core/text.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

enum class Method {
  Length, Size, IsEmpty, ToUpperCase, ToLowerCase, Trim, Substring, Replace,
  StartsWith, EndsWith, Contains, IndexOf, ToString, Get, Equals, EqualsIgnoreCase, Getter,
  Split, ReplaceAll, ReplaceFirst, LastIndexOf,
};

struct MethodSpec {
  std::string_view name;
  Method method;
  size_t minArgs;
  size_t maxArgs;
};
constexpr MethodSpec kMethods[] = {
    {"length", Method::Length, 0, 0},           {"size", Method::Size, 0, 0},
    {"isEmpty", Method::IsEmpty, 0, 0},         {"toUpperCase", Method::ToUpperCase, 0, 0},
    {"toLowerCase", Method::ToLowerCase, 0, 0}, {"trim", Method::Trim, 0, 0},
    {"substring", Method::Substring, 1, 2},     {"replace", Method::Replace, 2, 2},
    {"startsWith", Method::StartsWith, 1, 1},   {"endsWith", Method::EndsWith, 1, 1},
    {"contains", Method::Contains, 1, 1},       {"indexOf", Method::IndexOf, 1, 1},
    {"toString", Method::ToString, 0, 0},       {"get", Method::Get, 1, 1},
    {"equals", Method::Equals, 1, 1},           {"equalsIgnoreCase", Method::EqualsIgnoreCase, 1, 1},
    {"split", Method::Split, 1, 1},             {"replaceAll", Method::ReplaceAll, 2, 2},
    {"replaceFirst", Method::ReplaceFirst, 2, 2}, {"lastIndexOf", Method::LastIndexOf, 1, 1},
};
constexpr std::string_view kMethodNames =
    "length(), size(), isEmpty(), toUpperCase(), toLowerCase(), trim(), substring(begin[,end]), "
    "replace(from,to), startsWith(s), endsWith(s), contains(s), indexOf(s), toString(), "
    "get(key|index), equals(x), equalsIgnoreCase(s), split(regex), replaceAll(regex,to), "
    "replaceFirst(regex,to), lastIndexOf(s), and getXxx() for the map key xxx";

enum class StepKind { Key, Index, Method };

struct NavStep {
  StepKind kind;
  bool nullSafe = false;
  std::string key;         // Key, and Getter's key
  int64_t index = 0;       // Index: from the start, or from the end when from_last
  bool fromLast = false;
  Method method = Method::Length;
  std::vector<ExprPtr> args;
  std::string text;        // as written, for errors
};

// The compiled regex for `pattern`: patterns come from the route's text, so each thread keeps
// the last few it compiled and a message compiles nothing once warm. Null when invalid.
const RE2* cachedRegex(std::string_view pattern) {
  struct Entry {
    std::string pattern;
    std::unique_ptr<RE2> re;
  };
  thread_local std::vector<Entry> cache;
  thread_local size_t next = 0;
  for (const Entry& e : cache) {
    if (e.pattern == pattern) return e.re->ok() ? e.re.get() : nullptr;
  }
  constexpr size_t kEntries = 16;
  Entry entry{std::string(pattern), std::make_unique<RE2>(pattern, RE2::Quiet)};
  if (cache.size() < kEntries) {
    cache.push_back(std::move(entry));
    return cache.back().re->ok() ? cache.back().re.get() : nullptr;
  }
  Entry& slot = cache[next++ % kEntries];
  slot = std::move(entry);
  return slot.re->ok() ? slot.re.get() : nullptr;
}

// Java's String.split(regex): a one-character pattern that is not a regex metacharacter (or
// a backslash and a non-alphanumeric one) splits literally, as Java's fast path does; any other
// pattern is a regex (RE2). Trailing empty strings are left out, as Java leaves them.
bool javaSplit(std::string_view text, std::string_view pattern, ValueList& out) {
  constexpr std::string_view kMeta = ".$|()[{^?*+\\";
  std::string literal;
  if (pattern.size() == 1 && kMeta.find(pattern[0]) == std::string_view::npos) {
    literal = std::string(pattern);
  } else if (pattern.size() == 2 && pattern[0] == '\\' &&
             !std::isalnum(static_cast<unsigned char>(pattern[1]))) {
    literal = std::string(1, pattern[1]);
  }
  if (text.empty()) {
    out.emplace_back(std::string());
    return true;
  }
  if (!literal.empty()) {
    size_t pos = 0;
    while (true) {
      size_t hit = text.find(literal, pos);
      out.emplace_back(std::string(text.substr(pos, hit - pos)));
      if (hit == std::string_view::npos) break;
      pos = hit + literal.size();
    }
  } else {
    const RE2* compiled = cachedRegex(pattern);
    if (!compiled) return false;
    const RE2& re = *compiled;
    re2::StringPiece input(text.data(), text.size());
    re2::StringPiece m;
    size_t piece = 0;   // where the current piece starts
    size_t search = 0;  // where the next match is looked for
    while (search <= text.size() &&
           re.Match(input, search, text.size(), RE2::UNANCHORED, &m, 1)) {
      size_t at = static_cast<size_t>(m.data() - text.data());
      if (m.empty() && (at == 0 || at >= text.size())) {  // no empty piece at either end
        if (at >= text.size()) break;
        search = at + 1;
        continue;
      }
      out.emplace_back(std::string(text.substr(piece, at - piece)));
      piece = at + m.size();
      search = m.empty() ? piece + 1 : piece;
    }
    out.emplace_back(std::string(text.substr(piece)));
  }
  while (out.size() > 1 && out.back().isString() && out.back().getString().empty()) {
    out.pop_back();
  }
  return true;
}

// Java's replacement text ($1, \$ for a dollar) as RE2's rewrite (\1, $ as itself).
std::string javaReplacement(std::string_view to) {
  std::string out;
  for (size_t i = 0; i < to.size(); ++i) {
    char c = to[i];
    if (c == '\\' && i + 1 < to.size()) {
      char next = to[++i];
      if (next == '\\') out += "\\\\";
      else out += next;
    } else if (c == '$' && i + 1 < to.size() && std::isdigit(static_cast<unsigned char>(to[i + 1]))) {
      out += '\\';
      out += to[++i];
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out;
}

bool isNameChar(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '-';
}

thread_local std::string buffer_a;
thread_local std::string buffer_b;

class NavigationNode final : public Expression {
 public:
  NavigationNode(ExprPtr base, std::vector<NavStep> steps, std::string source)
      : base_(std::move(base)), steps_(std::move(steps)), source_(std::move(source)) {
    lookups_only_ = isDirect(*base_);
    for (const NavStep& step : steps_) lookups_only_ &= step.kind != StepKind::Method;
  }

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    if (lookups_only_) {  // ${body.name}, ${header.x[0]}: pointers into existing values
      const Value* cur = base_->evaluate(ex, unusedScratch());
      for (const NavStep& step : steps_) {
        if (!cur) return nullptr;
        if (cur->isNull()) {
          if (step.nullSafe) return &nullValue();
          return fail(ex, step, "cannot navigate on null (use ?. to allow null)");
        }
        cur = lookup(ex, step, *cur);
      }
      return cur;
    }
    ScratchValue first;
    ScratchValue second;
    Value* buffers[2] = {first.get(), second.get()};
    const Value* cur = base_->evaluate(ex, *buffers[0]);
    if (!cur) return nullptr;
    // Which buffer owns `cur` (directly or as a part of it); -1 when it lives elsewhere.
    int root = cur == buffers[0] ? 0 : -1;
    for (const NavStep& step : steps_) {
      if (cur->isNull()) {
        if (step.nullSafe) return &nullValue();
        return fail(ex, step, "cannot navigate on null (use ?. to allow null)");
      }
      if (step.kind != StepKind::Method) {
        cur = lookup(ex, step, *cur);
        if (!cur) return nullptr;
        continue;
      }
      int target = root == 0 ? 1 : 0;
      Value& out = *buffers[target];
      cur = call(ex, step, *cur, out);
      if (!cur) return nullptr;
      if (cur == &out) root = target;
    }
    if (root < 0) return cur;
    if (cur == buffers[root]) {
      scratch.swap(*buffers[root]);
      return &scratch;
    }
    try {
      scratch = *cur;  // a part of a converted value: copied out (rare)
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }

 private:
  const Value* fail(Exchange& ex, const NavStep& step, std::string_view problem) const noexcept {
    try {
      return failEvaluation(ex, source_, fmt::format("at '{}': {}", step.text, problem));
    } catch (...) {
      return failEvaluation(ex, source_, problem);
    }
  }

  const Value* lookup(Exchange& ex, const NavStep& step, const Value& v) const noexcept {
    if (v.isMap()) {
      // A map is looked up by key; [0] on a map looks up the key "0".
      const Value* found = step.kind == StepKind::Key || !step.key.empty()
                               ? v.mapGet(step.key)
                               : v.mapGet(fmt::format("{}", step.index));
      return found ? found : &nullValue();
    }
    if (v.isList() && step.kind == StepKind::Index && step.key.empty()) {
      const ValueList& list = v.getList();
      int64_t size = static_cast<int64_t>(list.size());
      int64_t i = step.fromLast ? size - 1 - step.index : step.index;
      if (i < 0 || i >= size) {
        return fail(ex, step, fmt::format("index {} is out of bounds for a list of size {}",
                                          i, size));
      }
      return &list[static_cast<size_t>(i)];
    }
    return fail(ex, step, fmt::format("a {} has no {}", v.typeName(),
                                      step.kind == StepKind::Key ? "properties" : "index"));
  }

  const Value* call(Exchange& ex, const NavStep& step, const Value& v, Value& out) const noexcept {
    // Arguments: up to two, evaluated into their own slots.
    ScratchValue s0;
    ScratchValue s1;
    const Value* args[2] = {nullptr, nullptr};
    Value* slots[2] = {s0.get(), s1.get()};
    for (size_t i = 0; i < step.args.size() && i < 2; ++i) {
      args[i] = step.args[i]->evaluate(ex, *slots[i]);
      if (!args[i]) return nullptr;
    }
    size_t count = v.isList() ? v.getList().size() : v.isMap() ? v.getMap().size() : 0;
    bool container = v.isList() || v.isMap();
    try {
      switch (step.method) {
        case Method::Length:
        case Method::Size:
          out = Value(static_cast<int64_t>(container ? count : stringForm(v, buffer_a).size()));
          return &out;
        case Method::IsEmpty:
          return &boolValue(container ? count == 0 : stringForm(v, buffer_a).empty());
        case Method::ToUpperCase:
        case Method::ToLowerCase: {
          std::string_view s = stringForm(v, buffer_a);
          std::string& o = out.resetString();
          o.assign(s);
          bool upper = step.method == Method::ToUpperCase;
          for (char& c : o) {
            if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
            if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
          }
          return &out;
        }
        case Method::Trim:
          out.setString(trim(stringForm(v, buffer_a)));
          return &out;
        case Method::Substring: {
          std::string_view s = stringForm(v, buffer_a);
          auto begin = args[0]->tryAs<int64_t>();
          auto end = args[1] ? args[1]->tryAs<int64_t>() : std::optional<int64_t>(s.size());
          if (!begin || !end || *begin < 0 || *end > static_cast<int64_t>(s.size()) ||
              *begin > *end) {
            return fail(ex, step, fmt::format("substring range is outside a text of length {}",
                                              s.size()));
          }
          out.setString(s.substr(static_cast<size_t>(*begin),
                                 static_cast<size_t>(*end - *begin)));
          return &out;
        }
        case Method::Replace: {
          std::string_view s = stringForm(v, buffer_a);
          std::string_view from = stringForm(*args[0], buffer_b);
          std::string to;
          args[1]->appendTo(to);
          std::string& o = out.resetString();
          if (from.empty()) {
            o.assign(s);
            return &out;
          }
          size_t pos = 0;
          while (true) {
            size_t hit = s.find(from, pos);
            o.append(s.substr(pos, hit - pos));
            if (hit == std::string_view::npos) break;
            o.append(to);
            pos = hit + from.size();
          }
          return &out;
        }
        case Method::StartsWith: return &boolValue(coerceStartsWith(v, *args[0]));
        case Method::EndsWith: return &boolValue(coerceEndsWith(v, *args[0]));
        case Method::Contains: return &boolValue(coerceContains(v, *args[0]));
        case Method::IndexOf: {
          if (v.isList()) {
            const ValueList& list = v.getList();
            for (size_t i = 0; i < list.size(); ++i) {
              if (coerceEquals(list[i], *args[0])) {
                out = Value(static_cast<int64_t>(i));
                return &out;
              }
            }
            out = Value(int64_t{-1});
            return &out;
          }
          std::string_view s = stringForm(v, buffer_a);
          size_t hit = s.find(stringForm(*args[0], buffer_b));
          out = Value(hit == std::string_view::npos ? int64_t{-1} : static_cast<int64_t>(hit));
          return &out;
        }
        case Method::ToString: {
          std::string& o = out.resetString();
          v.appendTo(o);
          return &out;
        }
        case Method::Get: {
          NavStep index;
          index.text = step.text;
          if (v.isList()) {
            auto i = args[0]->tryAs<int64_t>();
            if (!i) return fail(ex, step, "a list index must be a number");
            index.kind = StepKind::Index;
            index.index = *i;
          } else {
            index.kind = StepKind::Key;
            index.key = std::string(stringForm(*args[0], buffer_b));
          }
          return lookup(ex, index, v);
        }
        case Method::Split: {
          std::string_view text = stringForm(v, buffer_a);
          std::string_view pattern = stringForm(*args[0], buffer_b);
          ValueList parts;
          if (!javaSplit(text, pattern, parts)) {
            return fail(ex, step, fmt::format("split: '{}' is not a regular expression", pattern));
          }
          out = Value(std::move(parts));
          return &out;
        }
        case Method::ReplaceAll:
        case Method::ReplaceFirst: {
          std::string text(stringForm(v, buffer_a));
          std::string pattern(stringForm(*args[0], buffer_b));
          std::string to;
          args[1]->appendTo(to);
          const RE2* re = cachedRegex(pattern);
          if (!re) {
            return fail(ex, step, fmt::format("'{}' is not a regular expression", pattern));
          }
          std::string rewrite = javaReplacement(to);
          if (step.method == Method::ReplaceAll) {
            RE2::GlobalReplace(&text, *re, rewrite);
          } else {
            RE2::Replace(&text, *re, rewrite);
          }
          out = Value(std::move(text));
          return &out;
        }
        case Method::LastIndexOf: {
          std::string_view s = stringForm(v, buffer_a);
          size_t hit = s.rfind(stringForm(*args[0], buffer_b));
          out = Value(hit == std::string_view::npos ? int64_t{-1} : static_cast<int64_t>(hit));
          return &out;
        }
        case Method::Equals: return &boolValue(coerceEquals(v, *args[0]));
        case Method::EqualsIgnoreCase:
          return &boolValue(equalsIgnoreCaseAscii(stringForm(v, buffer_a),
                                                  stringForm(*args[0], buffer_b)));
        case Method::Getter: {
          if (!v.isMap()) {
            return fail(ex, step, fmt::format("a {} has no property '{}'", v.typeName(), step.key));
          }
          const Value* found = v.mapGet(step.key);
          return found ? found : &nullValue();
        }
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return nullptr;
  }

  ExprPtr base_;
  std::vector<NavStep> steps_;
  std::string source_;
  bool lookups_only_ = false;
};

}  // namespace

std::string_view navigationMethodNames() noexcept { return kMethodNames; }

ExprPtr parseNavigation(Parser& parser, ExprPtr base, std::string_view chain,
                        std::string source) {
  std::vector<NavStep> steps;
  std::string_view rest = chain;
  while (!rest.empty()) {
    NavStep step;
    std::string_view start = rest;
    if (rest.starts_with("?.")) {
      step.nullSafe = true;
      rest.remove_prefix(2);
    } else if (rest.starts_with('.')) {
      rest.remove_prefix(1);
    } else if (rest.starts_with('[')) {
      size_t close = rest.find(']');
      if (close == std::string_view::npos) parser.fail(rest, "'[' is not closed: missing ']'");
      std::string_view inside = trim(rest.substr(1, close - 1));
      step.kind = StepKind::Index;
      if (auto quoted = unquote(inside)) {
        step.key = std::string(*quoted);
      } else if (inside == "last" || inside.starts_with("last-")) {
        step.fromLast = true;
        std::string_view n = inside.substr(4);
        if (!n.empty()) {
          n.remove_prefix(1);
          auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), step.index);
          if (ec != std::errc() || ptr != n.data() + n.size()) {
            parser.fail(inside, fmt::format("invalid index '{}': expected last or last-N", inside));
          }
        }
      } else {
        auto [ptr, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), step.index);
        if (inside.empty()) parser.fail(rest, "empty index '[]'");
        if (ec != std::errc() || ptr != inside.data() + inside.size()) {
          step.key = std::string(inside);
        }
      }
      step.text = std::string(rest.substr(0, close + 1));
      rest.remove_prefix(close + 1);
      steps.push_back(std::move(step));
      continue;
    } else {
      parser.fail(rest, fmt::format("unexpected '{}' after a function: expected '.', '?.' or '['",
                                    rest.substr(0, 1)));
    }
    size_t n = 0;
    while (n < rest.size() && isNameChar(rest[n])) ++n;
    if (n == 0) parser.fail(rest, "expected a name after '.'");
    std::string_view name = rest.substr(0, n);
    if (n < rest.size() && rest[n] == '(') {
      size_t close = findCloseParen(rest, n);
      if (close == std::string_view::npos) parser.fail(rest.substr(n), "'(' is not closed: missing ')'");
      std::vector<std::string_view> args = splitArguments(rest.substr(n + 1, close - n - 1));
      step.kind = StepKind::Method;
      const MethodSpec* spec = nullptr;
      for (const MethodSpec& m : kMethods) {
        if (m.name == name) spec = &m;
      }
      if (!spec && name.size() > 3 && name.starts_with("get") && args.empty() &&
          std::isupper(static_cast<unsigned char>(name[3]))) {
        step.method = Method::Getter;
        step.key = std::string(name.substr(3));
        step.key[0] = toLowerAscii(step.key[0]);
      } else if (!spec) {
        std::vector<std::string_view> names;
        for (const MethodSpec& m : kMethods) names.push_back(m.name);
        std::string meant = closestMatch(name, names);
        for (std::string_view candidate : names) {
          if (meant.empty() && name.size() >= 4 && candidate.starts_with(name)) {
            meant = std::string(candidate);
          }
        }
        parser.fail(name, fmt::format("unknown method '{}()'", name),
                    meant.empty() ? fmt::format("Simple supports {}", kMethodNames)
                                  : fmt::format("did you mean '{}()'?", meant));
      } else {
        if (args.size() < spec->minArgs || args.size() > spec->maxArgs) {
          parser.fail(name, fmt::format("method '{}()' takes {} argument{}, not {}", name,
                                        spec->minArgs == spec->maxArgs
                                            ? std::to_string(spec->minArgs)
                                            : fmt::format("{} or {}", spec->minArgs,
                                                          spec->maxArgs),
                                        spec->maxArgs == 1 ? "" : "s", args.size()));
        }
        step.method = spec->method;
        for (std::string_view a : args) step.args.push_back(parser.parseArgument(a));
      }
      n = close + 1;
    } else {
      step.kind = StepKind::Key;
      step.key = std::string(name);
    }
    step.text = std::string(start.substr(0, static_cast<size_t>(rest.data() + n - start.data())));
    rest.remove_prefix(n);
    steps.push_back(std::move(step));
  }
  if (steps.empty()) return base;
  return std::make_unique<NavigationNode>(std::move(base), std::move(steps), std::move(source));
}

}  // namespace dromedary::simplelang
