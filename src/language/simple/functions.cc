// SPDX-License-Identifier: Apache-2.0
#include "language/simple/functions.h"

#include "language/simple/date_functions.h"
#include "language/simple/exception_functions.h"
#include "engine/resources.h"
#include "language/simple/string_functions.h"
#include "language/simple/variable_functions.h"
#include "language/simple/file_functions.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <random>

#include <fmt/format.h>

#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

#include "core/header_keys.h"
#include "core/scratch.h"
#include "core/text.h"
#include "core/type_names.h"
#include "language/simple/date_format.h"
#include "language/simple/navigation.h"
#include "language/simple/operators.h"
#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

// --- nodes reading the exchange ---------------------------------------------------------

class BodyNode final : public DirectNode {
 public:
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    return &ex.message().body();
  }
};

// Keys interned (core/header_keys.h): a node is 16 bytes rather than 48.
class HeaderNode final : public DirectNode {
 public:
  explicit HeaderNode(std::string_view name) : name_(internHeaderKey(name)) {}
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    return &headerOrProperty(ex, name_);
  }
  const HeaderKey& key() const noexcept { return name_; }

 private:
  const HeaderKey& name_;
};

class PropertyNode final : public DirectNode {
 public:
  explicit PropertyNode(std::string_view name) : name_(internHeaderKey(name)) {}
  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    const Value* v = ex.getProperty(name_);
    return v ? v : &nullValue();
  }

 private:
  const HeaderKey& name_;
};

// All headers as a map (a copy: this one allocates).
class HeadersNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      ValueMap map;
      map.reserve(ex.message().headers().size());
      for (const Headers::Entry& e : ex.message().headers()) map.emplace_back(e.name, e.value);
      scratch = Value(std::move(map));
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }
};

class HeadersSizeNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    scratch = Value(static_cast<int64_t>(ex.message().headers().size()));
    return &scratch;
  }
};

// Text the exchange knows (its id, route ids): copied into the scratch string.
class ExchangeTextNode final : public Expression {
 public:
  enum class Kind { ExchangeId, RouteId, FromRouteId, Exchange };
  explicit ExchangeTextNode(Kind kind) : kind_(kind) {}
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      switch (kind_) {
        case Kind::ExchangeId: scratch.setString(ex.exchangeId()); break;
        case Kind::RouteId:
        case Kind::FromRouteId: {
          std::string_view id = kind_ == Kind::RouteId ? ex.routeId() : ex.fromRouteId();
          if (id.empty()) return &nullValue();
          scratch.setString(id);
          break;
        }
        case Kind::Exchange: {
          std::string& s = scratch.resetString();
          s += "Exchange[";
          s += ex.exchangeId();
          s += ']';
          break;
        }
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }

 private:
  Kind kind_;
};

// bodyAs / mandatoryBodyAs / headerAs / convertTo: a conversion through the type converter.
class ConvertNode final : public Expression {
 public:
  ConvertNode(ExprPtr value, ValueType target, bool mandatory, std::string source,
              std::string type_name)
      : value_(std::move(value)),
        target_(detail::builtinTypeId(target)),
        mandatory_(mandatory),
        source_(std::move(source)),
        type_name_(std::move(type_name)) {
    // Java's narrower whole numbers are held as 64-bit integers: their range is checked.
    if (auto b = integerBounds(type_name_)) bounds_ = *b;
  }

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    ScratchValue s;
    const Value* v = value_->evaluate(ex, *s);
    if (!v) return nullptr;
    if (v->isNull()) {
      if (!mandatory_) return &nullValue();
      return failEvaluation(ex, source_, fmt::format("no body available of type {}", type_name_));
    }
    if (v->typeId() == target_) {
      if (!inRange(*v)) return outOfRange(ex, *v);
      if (v != s.get()) return v;
      scratch.swap(*s);
      return &scratch;
    }
    if (!detail::convertValue(*v, target_, scratch)) {
      std::string buffer;
      std::string shown(stringForm(*v, buffer));
      if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
      return failEvaluation(ex, source_,
                            fmt::format("cannot convert {} '{}' to {}", v->typeName(), shown,
                                        type_name_));
    }
    if (!inRange(scratch)) return outOfRange(ex, *v);
    return &scratch;
  }

 private:
  bool inRange(const Value& v) const noexcept {
    return bounds_.first == bounds_.second || !v.isInt() ||
           (v.getInt() >= bounds_.first && v.getInt() <= bounds_.second);
  }
  const Value* outOfRange(Exchange& ex, const Value& v) const noexcept {
    std::string buffer;
    return failEvaluation(ex, source_,
                          fmt::format("cannot convert {} '{}' to {}: out of range ({} to {})",
                                      v.typeName(), stringForm(v, buffer), type_name_,
                                      bounds_.first, bounds_.second));
  }

  std::pair<int64_t, int64_t> bounds_{0, 0};  // equal: no bounds
  ExprPtr value_;
  TypeId target_;
  bool mandatory_;
  std::string source_;
  std::string type_name_;
};

class BodyOneLineNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    const Value& body = ex.message().body();
    if (body.isNull()) return &nullValue();
    try {
      ScratchValue s;
      std::string& text = s->resetString();
      body.appendTo(text);
      std::erase_if(text, [](char c) { return c == '\n' || c == '\r'; });
      scratch.swap(*s);
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }
};

class BodyTypeNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    const Value& body = ex.message().body();
    if (body.isNull()) return &nullValue();
    scratch.setString(body.typeName());
    return &scratch;
  }
};

// --- generated values -----------------------------------------------------------------

std::mt19937_64& randomEngine() noexcept {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

class RandomNode final : public Expression {
 public:
  RandomNode(int64_t min, int64_t max) : min_(min), max_(max) {}
  // Camel: min inclusive, max exclusive.
  const Value* evaluate(Exchange&, Value& scratch) const noexcept override {
    std::uniform_int_distribution<int64_t> dist(min_, max_ - 1);
    scratch = Value(dist(randomEngine()));
    return &scratch;
  }

 private:
  int64_t min_;
  int64_t max_;
};

// A random (version 4) UUID, 8-4-4-4-12 hex digits.
class UuidNode final : public Expression {
 public:
  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    uint64_t hi = randomEngine()();
    uint64_t lo = randomEngine()();
    hi = (hi & ~0xF000ULL) | 0x4000ULL;                  // version 4
    lo = (lo & ~(0xC000ULL << 48)) | (0x8000ULL << 48);  // variant 10
    try {
      std::string& s = scratch.resetString();
      fmt::format_to(std::back_inserter(s), "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32,
                     (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48, lo & 0xFFFFFFFFFFFFULL);
    } catch (...) {
      ex.setException(std::current_exception());
      return nullptr;
    }
    return &scratch;
  }
};

// --- helpers over a value: length, size, isEmpty, uppercase, lowercase, trim -------------

enum class Helper { Length, Size, IsEmpty, Uppercase, Lowercase, Trim };

class HelperNode final : public Expression {
 public:
  HelperNode(Helper helper, ExprPtr value) : helper_(helper), value_(std::move(value)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    ScratchValue s;
    const Value* v = value_->evaluate(ex, *s);
    if (!v) return nullptr;
    thread_local std::string buffer;
    switch (helper_) {
      case Helper::Length: {
        if (v->isNull()) {
          scratch = Value(int64_t{0});
        } else {
          scratch = Value(static_cast<int64_t>(stringForm(*v, buffer).size()));
        }
        return &scratch;
      }
      case Helper::Size: {
        int64_t n = v->isNull() ? 0
                    : v->isList() ? static_cast<int64_t>(v->getList().size())
                    : v->isMap()  ? static_cast<int64_t>(v->getMap().size())
                                  : 1;
        scratch = Value(n);
        return &scratch;
      }
      case Helper::IsEmpty: {
        bool empty = v->isNull() || (v->isList() && v->getList().empty()) ||
                     (v->isMap() && v->getMap().empty()) ||
                     ((v->isString() || v->isBytes()) && trim(stringForm(*v, buffer)).empty());
        return &boolValue(empty);
      }
      case Helper::Uppercase:
      case Helper::Lowercase:
      case Helper::Trim: {
        if (v->isNull()) return &nullValue();
        try {
          std::string_view text = stringForm(*v, buffer);
          if (helper_ == Helper::Trim) text = trim(text);
          ScratchValue o;
          std::string& out = o->resetString();
          out.assign(text);
          for (char& c : out) {
            if (helper_ == Helper::Uppercase && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
            if (helper_ == Helper::Lowercase && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
          }
          scratch.swap(*o);
        } catch (...) {
          ex.setException(std::current_exception());
          return nullptr;
        }
        return &scratch;
      }
    }
    return nullptr;
  }

 private:
  Helper helper_;
  ExprPtr value_;
};

// --- parsing ------------------------------------------------------------------------------

// Functions Dromedary knows, for "did you mean".
constexpr std::string_view kFunctionNames[] = {
    "body", "bodyAs", "mandatoryBodyAs", "bodyOneLine", "bodyType", "header", "headers",
    "headerAs", "exchangeProperty", "exchangeId", "id", "messageId", "routeId", "fromRouteId",
    "camelId", "exchange", "exception", "date", "date-with-timezone", "random", "uuid", "sys",
    "jsonpath", "jq",
    "sysenv", "env", "properties", "propertiesExist", "null", "empty", "createEmpty", "length",
    "size", "isEmpty", "uppercase", "lowercase", "trim", "iif", "not", "convertTo", "val",
    "type", "messageTimestamp", "variable", "variables", "variableAs", "substringBefore",
    "substringAfter", "substringBetween", "concat", "join", "resource",
};

// Camel functions that cannot mean anything here, with the reason shown to the user.
struct Unsupported {
  std::string_view name;
  std::string_view why;
};
constexpr Unsupported kUnsupported[] = {
    {"bean", "calls a Java bean; Dromedary has no bean registry (use process() with a C++ "
             "processor)"},
    {"ref", "looks up a Java bean; Dromedary has no bean registry"},
    {"camelContext", "invokes Java methods on the CamelContext; use camelId for its name"},
    {"messageHistory", "message history is not recorded"},
    {"logExchange", "not supported yet"},
    {"jsonpath", "JSONPath is not supported yet"},
    {"xpath", "XPath is not supported yet"},
};

std::string_view leadingName(std::string_view fn) noexcept {
  size_t n = 0;
  while (n < fn.size() && (std::isalnum(static_cast<unsigned char>(fn[n])) || fn[n] == '_' ||
                           fn[n] == '-')) {
    ++n;
  }
  return fn.substr(0, n);
}

// After a name at `fn[at]`: ".rest", "[..]rest", "?.rest", or "" (the navigation chain).
bool isChainStart(std::string_view rest) noexcept {
  return rest.empty() || rest.starts_with('.') || rest.starts_with('[') || rest.starts_with("?.");
}

// Splits "name.rest" / "name[..]" forms after a prefix: the name ends at '.', '[' or "?.".
std::pair<std::string_view, std::string_view> nameAndChain(std::string_view text) noexcept {
  size_t n = 0;
  while (n < text.size() && text[n] != '.' && text[n] != '[' &&
         !(text[n] == '?' && n + 1 < text.size() && text[n + 1] == '.')) {
    ++n;
  }
  return {text.substr(0, n), text.substr(n)};
}

// "[name]rest" -> name, rest; name may be quoted.
std::pair<std::string_view, std::string_view> bracketName(Parser& parser, std::string_view text) {
  size_t close = text.find(']');
  if (close == std::string_view::npos) parser.fail(text, "'[' is not closed: missing ']'");
  std::string_view name = trim(text.substr(1, close - 1));
  if (auto q = unquote(name)) name = *q;
  if (name.empty()) parser.fail(text, "empty name in '[]'");
  return {name, text.substr(close + 1)};
}

// `prefix.name`, `prefix:name` or `prefix[name]`, followed by a navigation chain (none after
// the colon form); nullopt when `fn` starts with none of the prefixes so.
struct NamedAccess {
  std::string_view name;
  std::string_view chain;
};
std::optional<NamedAccess> namedAccess(Parser& parser, std::string_view fn,
                                       std::initializer_list<std::string_view> prefixes,
                                       std::string_view what) {
  for (std::string_view prefix : prefixes) {
    if (!fn.starts_with(prefix) || fn.size() == prefix.size()) continue;
    std::string_view rest = fn.substr(prefix.size());
    NamedAccess access;
    if (rest.starts_with('.')) {
      std::tie(access.name, access.chain) = nameAndChain(rest.substr(1));
    } else if (rest.starts_with(':')) {
      access.name = rest.substr(1);
    } else if (rest.starts_with('[')) {
      std::tie(access.name, access.chain) = bracketName(parser, rest);
    } else {
      continue;
    }
    if (access.name.empty()) parser.fail(rest, fmt::format("expected {}", what));
    return access;
  }
  return std::nullopt;
}

ValueType conversionTarget(Parser& parser, std::string_view type) {
  std::string_view t = trim(type);
  if (auto q = unquote(t)) t = *q;
  if (auto target = conversionTargetByName(t)) return *target;
  std::string meant = closestMatch(t, conversionTargetNames());
  parser.fail(type, fmt::format("unknown type '{}'", t),
              meant.empty() ? "known types: String, Integer, Long, Double, Float, Boolean, byte[]"
                            : fmt::format("did you mean '{}'?", meant));
}

std::string sourceOf(std::string_view fn) { return fmt::format("${{{}}}", fn); }

ExprPtr literal(Value v) { return std::make_unique<LiteralNode>(std::move(v)); }

// Java system properties that have a meaning for a native process (as placeholders' sys:).
Value systemProperty(std::string_view name) {
  std::optional<std::string> v = Properties::systemProperty(name);
  return v ? Value(std::move(*v)) : Value();
}

// Constants of org.apache.camel.Exchange that route files refer to with ${type:...}.
struct ExchangeConstant {
  std::string_view field;
  std::string_view value;
};
constexpr ExchangeConstant kExchangeConstants[] = {
    {"AGGREGATED_SIZE", "CamelAggregatedSize"},
    {"BREADCRUMB_ID", "breadcrumbId"},
    {"CHARSET_NAME", "CamelCharsetName"},
    {"CONTENT_ENCODING", "Content-Encoding"},
    {"CONTENT_LENGTH", "Content-Length"},
    {"CONTENT_TYPE", "Content-Type"},
    {"CORRELATION_ID", "CamelCorrelationId"},
    {"EXCEPTION_CAUGHT", "CamelExceptionCaught"},
    {"FAILURE_ENDPOINT", "CamelFailureEndpoint"},
    {"FAILURE_ROUTE_ID", "CamelFailureRouteId"},
    {"FILE_NAME", "CamelFileName"},
    {"FILTER_MATCHED", "CamelFilterMatched"},
    {"HTTP_METHOD", "CamelHttpMethod"},
    {"HTTP_PATH", "CamelHttpPath"},
    {"HTTP_QUERY", "CamelHttpQuery"},
    {"HTTP_RESPONSE_CODE", "CamelHttpResponseCode"},
    {"HTTP_URI", "CamelHttpUri"},
    {"LOOP_INDEX", "CamelLoopIndex"},
    {"REDELIVERED", "CamelRedelivered"},
    {"REDELIVERY_COUNTER", "CamelRedeliveryCounter"},
    {"REDELIVERY_MAX_COUNTER", "CamelRedeliveryMaxCounter"},
    {"SPLIT_COMPLETE", "CamelSplitComplete"},
    {"SPLIT_INDEX", "CamelSplitIndex"},
    {"SPLIT_SIZE", "CamelSplitSize"},
    {"TIMER_COUNTER", "CamelTimerCounter"},
    {"TIMER_FIRED_TIME", "CamelTimerFiredTime"},
    {"TIMER_NAME", "CamelTimerName"},
    {"TIMER_PERIOD", "CamelTimerPeriod"},
};

ExprPtr parseTypeConstant(Parser& parser, std::string_view ref) {
  constexpr std::string_view kExchange = "org.apache.camel.Exchange.";
  if (ref.starts_with(kExchange)) {
    std::string_view field = ref.substr(kExchange.size());
    for (const ExchangeConstant& c : kExchangeConstants) {
      if (c.field == field) return literal(Value(c.value));
    }
    std::vector<std::string_view> fields;
    for (const ExchangeConstant& c : kExchangeConstants) fields.push_back(c.field);
    std::string meant = closestMatch(field, fields);
    parser.fail(field, fmt::format("unknown constant 'Exchange.{}'", field),
                meant.empty() ? std::string() : fmt::format("did you mean '{}'?", meant));
  }
  parser.fail(ref, fmt::format("type:{} is not supported", ref),
              "C++ has no reflection: only the constants of org.apache.camel.Exchange are known");
}

ExprPtr parseHelper(Parser& parser, std::string_view fn, Helper helper, std::string_view name) {
  if (fn == name) return std::make_unique<HelperNode>(helper, std::make_unique<BodyNode>());
  auto call = callOf(parser, fn, name);
  if (!call) return nullptr;
  expectArgs(parser, fn, *call, 0, 1);
  ExprPtr value = call->args.empty() ? std::make_unique<BodyNode>()
                                     : parser.parseArgument(call->args[0]);
  ExprPtr node = std::make_unique<HelperNode>(helper, std::move(value));
  return parseNavigation(parser, std::move(node), call->rest, sourceOf(fn));
}

}  // namespace

ExprPtr bodyNode() { return std::make_unique<BodyNode>(); }

std::optional<Call> callOf(Parser& parser, std::string_view fn, std::string_view name) {
  if (!fn.starts_with(name) || fn.size() == name.size() || fn[name.size()] != '(') {
    return std::nullopt;
  }
  size_t close = findCloseParen(fn, name.size());
  if (close == std::string_view::npos) {
    parser.fail(fn.substr(name.size()), "'(' is not closed: missing ')'");
  }
  return Call{splitArguments(fn.substr(name.size() + 1, close - name.size() - 1)),
              fn.substr(close + 1)};
}

void expectArgs(Parser& parser, std::string_view fn, const Call& call, size_t min, size_t max) {
  if (call.args.size() >= min && call.args.size() <= max) return;
  std::string expected = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
  parser.fail(fn, fmt::format("'{}' takes {} argument{}, not {}", leadingName(fn), expected,
                              max == 1 ? "" : "s", call.args.size()));
}

void expectNoChain(Parser& parser, std::string_view rest) {
  if (!rest.empty()) parser.fail(rest, fmt::format("unexpected '{}'", rest));
}

const HeaderKey* headerKeyOf(const Expression& e) noexcept {
  const auto* header = dynamic_cast<const HeaderNode*>(&e);
  return header ? &header->key() : nullptr;
}

ExprPtr parseFunction(Parser& parser, std::string_view fn) {
  const std::string source = sourceOf(fn);
  auto chained = [&](ExprPtr base, std::string_view chain) {
    if (!isChainStart(chain)) parser.fail(chain, fmt::format("unexpected '{}'", chain));
    return parseNavigation(parser, std::move(base), chain, source);
  };

  // The body.
  for (std::string_view prefix : {"body", "in.body"}) {
    if (fn.starts_with(prefix) && isChainStart(fn.substr(prefix.size()))) {
      return chained(std::make_unique<BodyNode>(), fn.substr(prefix.size()));
    }
  }
  if (fn == "bodyOneLine") return std::make_unique<BodyOneLineNode>();
  if (fn == "bodyType") return std::make_unique<BodyTypeNode>();
  for (std::string_view name : {"bodyAs", "mandatoryBodyAs"}) {
    if (auto call = callOf(parser, fn, name)) {
      expectArgs(parser, fn, *call, 1, 1);
      ValueType target = conversionTarget(parser, call->args[0]);
      ExprPtr node = std::make_unique<ConvertNode>(std::make_unique<BodyNode>(), target,
                                                   name == "mandatoryBodyAs", source,
                                                   std::string(trim(call->args[0])));
      return chained(std::move(node), call->rest);
    }
  }
  if (auto call = callOf(parser, fn, "convertTo")) {
    expectArgs(parser, fn, *call, 1, 2);
    std::string_view type = call->args.back();
    ExprPtr value = call->args.size() == 2 ? parser.parseArgument(call->args[0])
                                           : std::make_unique<BodyNode>();
    ExprPtr node = std::make_unique<ConvertNode>(std::move(value), conversionTarget(parser, type),
                                                 false, source, std::string(trim(type)));
    return chained(std::move(node), call->rest);
  }

  // Headers.
  if (fn == "headers" || fn == "in.headers") return std::make_unique<HeadersNode>();
  if (fn == "headers.size" || fn == "headers.size()") return std::make_unique<HeadersSizeNode>();
  if (auto access = namedAccess(parser, fn, {"header", "headers", "in.header", "in.headers"},
                                "a header name")) {
    return chained(std::make_unique<HeaderNode>(access->name), access->chain);
  }
  if (auto call = callOf(parser, fn, "headerAs")) {
    expectArgs(parser, fn, *call, 2, 2);
    std::string_view name = call->args[0];
    if (auto q = unquote(name)) name = *q;
    ExprPtr node = std::make_unique<ConvertNode>(
        std::make_unique<HeaderNode>(name), conversionTarget(parser, call->args[1]),
        false, source, std::string(trim(call->args[1])));
    return chained(std::move(node), call->rest);
  }

  // Exchange properties.
  if (auto access = namedAccess(parser, fn, {"exchangeProperty", "exchangeProperties"},
                                "a property name")) {
    return chained(std::make_unique<PropertyNode>(access->name), access->chain);
  }

  // Variables (Camel 4).
  if (fn == "variables") return variablesNode();
  if (fn == "variables.size" || fn == "variables.size()") {
    return chained(variablesNode(), ".size()");
  }
  if (auto access = namedAccess(parser, fn, {"variable", "variables"}, "a variable name")) {
    return chained(variableNode(parser, access->name), access->chain);
  }
  if (auto call = callOf(parser, fn, "variableAs")) {
    expectArgs(parser, fn, *call, 2, 2);
    std::string_view name = call->args[0];
    if (auto q = unquote(name)) name = *q;
    ExprPtr node = std::make_unique<ConvertNode>(variableNode(parser, trim(name)),
                                                 conversionTarget(parser, call->args[1]), false,
                                                 source, std::string(trim(call->args[1])));
    return chained(std::move(node), call->rest);
  }

  // The exchange, its ids and its failure.
  using Kind = ExchangeTextNode::Kind;
  if (fn == "exchangeId" || fn == "id" || fn == "messageId") {
    return std::make_unique<ExchangeTextNode>(Kind::ExchangeId);
  }
  if (fn == "routeId") return std::make_unique<ExchangeTextNode>(Kind::RouteId);
  if (fn == "fromRouteId") return std::make_unique<ExchangeTextNode>(Kind::FromRouteId);
  if (fn == "exchange") return std::make_unique<ExchangeTextNode>(Kind::Exchange);
  // Messages carry no source timestamp here yet: Camel's answer for that case is 0.
  if (fn == "messageTimestamp") return literal(Value(int64_t{0}));
  if (fn == "camelId" || fn == "camelContext.name") {
    return literal(Value(parser.context().name()));
  }
  if (fn == "exception" || fn.starts_with("exception.") || fn.starts_with("exception?.")) {
    return parseExceptionFunction(parser, fn);
  }

  // ${jsonpath(EXPR)} and ${jq(EXPR)}: the json component's languages on the body, compiled
  // with the Simple expression. Everything between the parentheses is the expression: it may
  // hold commas and brackets of its own.
  for (std::string_view name : {"jsonpath", "jq"}) {
    if (!fn.starts_with(name) || fn.size() < name.size() + 2 || fn[name.size()] != '(' ||
        !fn.ends_with(")")) {
      continue;
    }
    std::string_view text = trim(fn.substr(name.size() + 1, fn.size() - name.size() - 2));
    Language* language = parser.context().language(name);
    if (!language) {
      parser.fail(fn, fmt::format("{} is the json component's language, which this build leaves out",
                                  name));
    }
    // ${jq(input,exp)}: the input is header:KEY, exchangeProperty:KEY or variable:KEY.
    LanguageOptions options;
    if (size_t comma = text.find(','); comma != std::string_view::npos) {
      std::string_view input = trim(text.substr(0, comma));
      for (std::string_view kind : {"header:", "exchangeProperty:", "property:", "variable:"}) {
        if (input.starts_with(kind) && input.size() > kind.size() &&
            input.find_first_of(" \t\"'") == std::string_view::npos) {
          options["source"] = std::string(input);
          text = trim(text.substr(comma + 1));
          break;
        }
      }
    }
    auto compiled = language->createExpression(text, parser.context(), options);
    if (!compiled) parser.fail(fn, compiled.error().message);
    return std::move(*compiled);
  }

  // Camel's File language: what the file consumer's headers say.
  if (fn.starts_with("file:")) return parseFileFunction(parser, fn.substr(5));

  // Dates.
  if (fn.starts_with("date:")) return parseDate(parser, fn, fn.substr(5), false);
  if (fn.starts_with("date-with-timezone:")) return parseDate(parser, fn, fn.substr(19), true);

  // Generated values.
  if (auto call = callOf(parser, fn, "random")) {
    expectArgs(parser, fn, *call, 1, 2);
    int64_t bounds[2] = {0, 0};
    for (size_t i = 0; i < call->args.size(); ++i) {
      std::string_view a = call->args[i];
      auto [p, ec] = std::from_chars(a.data(), a.data() + a.size(), bounds[i]);
      if (a.empty() || ec != std::errc() || p != a.data() + a.size()) {
        parser.fail(a.empty() ? fn : a, fmt::format("random bound '{}' is not a whole number", a));
      }
    }
    int64_t min = call->args.size() == 2 ? bounds[0] : 0;
    int64_t max = call->args.size() == 2 ? bounds[1] : bounds[0];
    if (max <= min) {
      parser.fail(fn, fmt::format("random({}) needs max greater than min", fmt::join(call->args, ",")));
    }
    expectNoChain(parser, call->rest);
    return std::make_unique<RandomNode>(min, max);
  }
  if (fn == "uuid" || fn == "uuid(random)" || fn == "uuid(default)") {
    return std::make_unique<UuidNode>();
  }

  // Environment, system and configuration properties (resolved once, at route start).
  for (std::string_view prefix : {"sysenv.", "sysenv:", "env.", "env:"}) {
    if (fn.starts_with(prefix)) {
      const char* v = std::getenv(std::string(fn.substr(prefix.size())).c_str());
      return literal(v ? Value(v) : Value());
    }
  }
  if (fn.starts_with("sys.")) return literal(systemProperty(fn.substr(4)));
  if (fn.starts_with("properties:")) {
    std::string_view spec = fn.substr(11);
    size_t colon = spec.find(':');
    std::string_view key = spec.substr(0, colon);
    if (key.empty()) parser.fail(spec, "expected a property key after 'properties:'");
    if (auto v = parser.context().properties().get(key)) return literal(Value(std::move(*v)));
    if (colon != std::string_view::npos) return literal(Value(spec.substr(colon + 1)));
    parser.fail(key, fmt::format("property '{}' is not defined", key),
                fmt::format("define it, or give a default: ${{properties:{}:default}}", key));
  }
  if (fn.starts_with("propertiesExist:")) {
    std::string_view key = fn.substr(16);
    bool negate = key.starts_with('!');
    if (negate) key.remove_prefix(1);
    return literal(Value(parser.context().properties().get(key).has_value() != negate));
  }
  if (fn.starts_with("type:")) return parseTypeConstant(parser, fn.substr(5));
  // ${resource:classpath:X}, ${resource:file:X}: the file's text, read once, now.
  if (fn.starts_with("resource:")) {
    auto text = detail::readResource(parser.context(), fn);
    if (!text) parser.fail(fn, text.error().message);
    return literal(Value(std::move(*text)));
  }

  // Constants.
  if (fn == "null") return literal(Value());
  for (std::string_view name : {"empty", "createEmpty"}) {
    if (auto call = callOf(parser, fn, name)) {
      expectArgs(parser, fn, *call, 1, 1);
      std::string_view kind = call->args[0];
      expectNoChain(parser, call->rest);
      if (equalsIgnoreCaseAscii(kind, "string")) return literal(Value(std::string()));
      if (equalsIgnoreCaseAscii(kind, "list") || equalsIgnoreCaseAscii(kind, "set")) {
        return literal(Value(ValueList{}));
      }
      if (equalsIgnoreCaseAscii(kind, "map")) return literal(Value(ValueMap{}));
      parser.fail(kind, fmt::format("cannot create an empty '{}'", kind),
                  "expected string, list, set or map");
    }
  }
  if (auto call = callOf(parser, fn, "val")) {
    expectArgs(parser, fn, *call, 1, 1);
    return chained(parser.parseArgument(call->args[0]), call->rest);
  }

  // Helpers over the body or a value.
  struct HelperName {
    std::string_view name;
    Helper helper;
  };
  for (HelperName h : {HelperName{"length", Helper::Length}, HelperName{"size", Helper::Size},
                       HelperName{"isEmpty", Helper::IsEmpty},
                       HelperName{"uppercase", Helper::Uppercase},
                       HelperName{"lowercase", Helper::Lowercase},
                       HelperName{"trim", Helper::Trim}}) {
    if (ExprPtr node = parseHelper(parser, fn, h.helper, h.name)) return node;
  }
  if (auto call = callOf(parser, fn, "iif")) {
    expectArgs(parser, fn, *call, 3, 3);
    expectNoChain(parser, call->rest);
    return std::make_unique<TernaryNode>(parser.parsePredicate(call->args[0]),
                                         parser.parseArgument(call->args[1]),
                                         parser.parseArgument(call->args[2]));
  }
  if (auto call = callOf(parser, fn, "not")) {
    expectArgs(parser, fn, *call, 0, 1);
    expectNoChain(parser, call->rest);
    PredPtr p = call->args.empty() ? makeTruthy(std::make_unique<BodyNode>())
                                   : parser.parsePredicate(call->args[0]);
    return std::make_unique<PredicateValueNode>(makeNot(std::move(p)));
  }

  if (ExprPtr node = parseStringFunction(parser, fn)) return node;

  // Not a function we know.
  std::string_view name = leadingName(fn);
  if (name.empty()) name = fn.substr(0, 1);
  for (const Unsupported& u : kUnsupported) {
    if (u.name == name) {
      parser.fail(name, fmt::format("function '{}' is not supported", name), std::string(u.why));
    }
  }
  std::vector<std::string_view> names(std::begin(kFunctionNames), std::end(kFunctionNames));
  std::string meant = closestMatch(name, names);
  parser.fail(name, fmt::format("unknown function '{}'", name),
              meant.empty() ? std::string() : fmt::format("did you mean '{}'?", meant));
}

}  // namespace dromedary::simplelang
