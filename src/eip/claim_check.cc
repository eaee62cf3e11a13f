// SPDX-License-Identifier: Apache-2.0
// claimCheck: Camel's Claim Check EIP. The exchange's claim check repository is the exchange
// property CamelClaimCheckRepository, as Camel keeps it: a map with the messages stored by key
// ("keys") and a stack ("stack"), each message a map of its body and headers. Set and Push
// store a copy; Get, GetAndRemove and Pop merge one back into the message, as the filter says
// (Camel's ClaimCheckAggregationStrategy rules) or through an aggregation strategy.
#include <fmt/format.h>

#include <dromedary/core/file_body.h>
#include "core/name_pattern.h"
#include "core/scratch.h"
#include "core/text.h"
#include "eip/eip_schema.h"
#include "eip/aggregation.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/compiled_route.h"

namespace dromedary::eip {

namespace {

using Operation = ClaimCheckModel::Operation;

const HeaderKey kRepository{"CamelClaimCheckRepository"};

// What a filter merges back, compiled from Camel's syntax once: `body`, `headers`,
// `header:PATTERN`, each with + (include, the default), - (exclude) or -- (remove from the
// message); empty or * merges everything.
struct MergeFilter {
  bool all = true;
  bool body = false;
  bool headers = false;
  std::vector<NamePattern> include, exclude, remove;
  bool removeBody = false, removeHeaders = false;

  // Camel's rules: the body (headers) is merged when named, or when every rule that is not a
  // removal excludes something (and, for headers, no rule names single headers).
  static Result<MergeFilter> parse(std::string_view text) {
    MergeFilter f;
    text = trim(text);
    if (text.empty() || text == "*") return f;
    f.all = false;
    bool only_exclude = true, header_rules = false;
    std::optional<bool> body_rule, headers_rule;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find(',', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view part = trim(text.substr(start, end - start));
      start = end + 1;
      if (part.empty()) continue;
      std::string_view sign = part.starts_with("--")  ? "--"
                              : part.starts_with('-') ? "-"
                              : part.starts_with('+') ? "+"
                                                      : "";
      std::string_view what = part.substr(sign.size());
      if (sign == "--") {
        if (what == "body") {
          f.removeBody = true;
        } else if (what == "headers") {
          f.removeHeaders = true;
        } else if (what.starts_with("header:") && what.size() > 7) {
          f.remove.emplace_back(std::string(what.substr(7)));
        } else {
          return bad(part);
        }
        continue;
      }
      only_exclude = only_exclude && sign == "-";
      if (what == "body") {
        if (!body_rule) body_rule = sign != "-";
      } else if (what == "headers") {
        if (!headers_rule && !header_rules) headers_rule = sign != "-";
      } else if (what.starts_with("header:") && what.size() > 7) {
        header_rules = true;
        (sign == "-" ? f.exclude : f.include).emplace_back(std::string(what.substr(7)));
      } else if (what != "attachments") {  // there are no attachments here: nothing to merge
        return bad(part);
      }
    }
    f.body = body_rule.value_or(only_exclude);
    f.headers = headers_rule ? *headers_rule : (!header_rules && only_exclude);
    return f;
  }

  static Error bad(std::string_view part) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("claimCheck filter part '{}' is not body, headers or "
                                 "header:PATTERN (each may start with +, - or --)",
                                 part));
  }

  static bool any(const std::vector<NamePattern>& patterns, std::string_view name) {
    for (const NamePattern& p : patterns) {
      if (p.matches(name)) return true;
    }
    return false;
  }

  // Merges the stored `body` and `headers` into `m`.
  void merge(Message& m, const Value& stored_body, const ValueMap& stored) const {
    Headers& h = m.headers();
    if (all || body) m.setBody(stored_body);
    const bool exclude_only = include.empty();
    for (const auto& [name, value] : stored) {
      bool put = all || headers;
      if (!put && (!include.empty() || !exclude.empty())) {
        if (any(include, name)) {
          put = true;
        } else if (!any(exclude, name)) {
          put = exclude_only;
        }
      }
      if (put) h.set(name, value);
    }
    if (removeBody) m.body().reset();
    if (removeHeaders) h.clear();
    if (!remove.empty()) {
      std::vector<std::string> gone;
      for (const Headers::Entry& e : h) {
        if (any(remove, e.name)) gone.push_back(e.name);
      }
      for (const std::string& name : gone) h.remove(name);
    }
  }
};

// The message as the repository keeps it.
Value snapshot(const Message& m) {
  ValueMap headers;
  headers.reserve(m.headers().size());
  for (const Headers::Entry& e : m.headers()) headers.emplace_back(e.name, e.value);
  Value body = m.body();
  loadFileBody(body);  // the file moves once the exchange completes
  return Value(ValueMap{{"body", std::move(body)}, {"headers", Value(std::move(headers))}});
}

Value* entry(ValueMap& map, std::string_view name) {
  for (auto& [k, v] : map) {
    if (k == name) return &v;
  }
  return nullptr;
}

// The property as this step made it (anything else there is replaced).
bool isRepository(const Value& v) {
  if (!v.isMap()) return false;
  const ValueMap& m = v.getMap();
  return m.size() == 2 && m[0].first == "keys" && m[0].second.isMap() && m[1].first == "stack" &&
         m[1].second.isList();
}

class ClaimCheckStep final : public Step {
 public:
  ClaimCheckStep(Operation op, std::unique_ptr<Expression> key, MergeFilter filter,
                 std::shared_ptr<AggregationStrategy> strategy)
      : op_(op), key_(std::move(key)), filter_(std::move(filter)), strategy_(std::move(strategy)) {}

  Status run(Exchange& ex) noexcept override {
    try {
      std::string key;
      if (key_) {
        ScratchValue scratch;
        const Value* k = key_->evaluate(ex, *scratch);
        if (!k) return Status::Fail;
        key = k->toString();
      }
      Value& repo = ex.properties().slot(kRepository);
      if (!isRepository(repo)) {
        repo = Value(ValueMap{{"keys", Value(ValueMap{})}, {"stack", Value(ValueList{})}});
      }
      ValueMap& parts = repo.mutableMap();
      ValueMap& keys = entry(parts, "keys")->mutableMap();
      ValueList& stack = entry(parts, "stack")->mutableList();
      switch (op_) {
        case Operation::Set:
          if (Value* old = entry(keys, key)) {
            *old = snapshot(ex.message());
          } else {
            keys.emplace_back(key, snapshot(ex.message()));
          }
          return Status::Continue;
        case Operation::Push:
          stack.push_back(snapshot(ex.message()));
          return Status::Continue;
        case Operation::Pop: {
          if (stack.empty()) return Status::Continue;
          Value stored = std::move(stack.back());
          stack.pop_back();
          return mergeBack(ex, stored);
        }
        case Operation::Get:
        case Operation::GetAndRemove: {
          for (auto it = keys.begin(); it != keys.end(); ++it) {
            if (it->first != key) continue;
            Value stored = it->second;
            if (op_ == Operation::GetAndRemove) keys.erase(it);
            return mergeBack(ex, stored);
          }
          return Status::Continue;  // nothing stored under the key: nothing to merge
        }
      }
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  bool mayBlock() const noexcept override { return false; }

 private:
  Status mergeBack(Exchange& ex, const Value& stored) {
    const ValueMap& m = stored.getMap();
    const Value& body = m[0].second;
    const ValueMap& headers = m[1].second.getMap();
    if (!strategy_) {
      filter_.merge(ex.message(), body, headers);
      return Status::Continue;
    }
    // A strategy sees the exchange and a copy of it carrying the stored message.
    ExchangePtr held = acquireExchange(ex.context());
    held->resetAsCopyOf(ex, false);
    Message& hm = held->messageForEngine();
    hm.headers().clear();
    for (const auto& [name, value] : headers) hm.headers().set(name, value);
    hm.setBody(body);
    // As enrich merges its reply: the strategy's choice goes on, the stored message or not.
    return enrichWith(ex, *held, strategy_.get(), false);
  }

  Operation op_;
  std::unique_ptr<Expression> key_;
  MergeFilter filter_;
  std::shared_ptr<AggregationStrategy> strategy_;
};

constexpr std::string_view kOperations[] = {"Get", "GetAndRemove", "Set", "Push", "Pop"};

}  // namespace

std::string ClaimCheckModel::describe() const {
  std::string text = fmt::format("claimCheck[{}", kOperations[static_cast<int>(operation)]);
  if (!key.empty()) text += " " + key;
  return text + "]";
}

Result<std::unique_ptr<Step>> ClaimCheckModel::compile(RouteCompiler& compiler) const {
  auto fail = [&](std::string message) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
  };
  const bool keyed = operation == Operation::Get || operation == Operation::GetAndRemove ||
                     operation == Operation::Set;
  const std::string_view op = kOperations[static_cast<int>(operation)];
  if (keyed && key.empty()) return fail(fmt::format("claimCheck {} needs a key", op));
  if (!keyed && !key.empty()) {
    return fail(fmt::format("claimCheck {} takes no key (it uses the stack)", op));
  }
  const bool merges = operation != Operation::Set && operation != Operation::Push;
  if (!merges && !filter.empty()) {
    return fail(fmt::format("claimCheck {} takes no filter: it stores the whole message", op));
  }
  if (!filter.empty() && (strategy || !strategyRef.empty())) {
    return fail("claimCheck takes a filter or an aggregationStrategy, not both");
  }
  auto parsed = MergeFilter::parse(filter);
  if (!parsed) return compiler.error(*this, parsed.error());
  auto resolved = resolveStrategy(compiler, *this, strategy, strategyRef);
  if (!resolved) return resolved.error();
  std::unique_ptr<Expression> key_expression;
  if (keyed) {
    auto text = compiler.context().resolvePlaceholders(key);
    if (!text) return compiler.error(*this, text.error());
    auto e = (text->find("${") != std::string::npos ? simple(*text) : constant(Value(*text)))
                 .compile(compiler.context());
    if (!e) return compiler.error(*this, e.error());
    key_expression = std::move(*e);
  }
  return std::unique_ptr<Step>(new ClaimCheckStep(operation, std::move(key_expression),
                                                  std::move(*parsed), std::move(*resolved)));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kClaimCheckAliases[] = {"claim-check"};
constexpr AttributeSchema kClaimCheckAttributes[] = {
    {"operation", AttributeType::Enum, "", "Get, GetAndRemove, Set, Push or Pop", true,
     kOperations},
    {"key", AttributeType::Text, "",
     "The claim check's key (Get, GetAndRemove, Set); ${...} is Simple"},
    {"filter", AttributeType::Text, "",
     "What Get, GetAndRemove and Pop merge back: body, headers, header:PATTERN, each with +, - "
     "or --, comma-separated (default: everything)"},
    {"aggregationStrategy", AttributeType::Text, "",
     "Merge through this strategy instead of a filter: a bound strategy or a Camel class name"},
    {"aggregationStrategyMethodName", AttributeType::Text, "", "Not supported (Java beans)"},
};
}  // namespace

extern const EipSchema kClaimCheckSchema{
    .key = "claimCheck",
    .aliases = kClaimCheckAliases,
    .description =
        "Stores the message under a key or on a stack, and merges it back later "
        "(Camel's Claim Check)",
    .attributes = kClaimCheckAttributes,
};

}  // namespace dromedary::eip
