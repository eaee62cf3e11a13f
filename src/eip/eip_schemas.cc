// SPDX-License-Identifier: Apache-2.0
// The schema list: every EIP the file DSLs know, each declared by its own file in src/eip/.
// Adding an EIP adds its schema there and one line here. The reference is printed from them.
#include "eip/eip_schemas.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <stdexcept>

#include <fmt/format.h>

namespace dromedary::eip {

namespace {

constexpr const EipSchema* kSchemas[] = {
    &kToSchema,
    &kToDSchema,
    &kSetBodySchema,
    &kTransformSchema,
    &kSetHeaderSchema,
    &kSetHeadersSchema,
    &kSetPropertySchema,
    &kSetVariableSchema,
    &kSetVariablesSchema,
    &kRemoveVariableSchema,
    &kConvertVariableToSchema,
    &kRemoveHeaderSchema,
    &kRemoveHeadersSchema,
    &kRemovePropertySchema,
    &kRemovePropertiesSchema,
    &kConvertBodyToSchema,
    &kConvertHeaderToSchema,
    &kMarshalSchema,
    &kUnmarshalSchema,
    &kFilterSchema,
    &kChoiceSchema,
    &kLogSchema,
    &kStopSchema,
    &kValidateSchema,
    &kSetExchangePatternSchema,
    &kThrowExceptionSchema,
    &kDelaySchema,
    &kThrottleSchema,
    &kThreadsSchema,
    &kProcessSchema,
    &kBeanSchema,
    &kDoTrySchema,
    &kCircuitBreakerSchema,
    &kSplitSchema,
    &kMulticastSchema,
    &kRecipientListSchema,
    &kRoutingSlipSchema,
    &kDynamicRouterSchema,
    &kWireTapSchema,
    &kLoopSchema,
    &kPipelineSchema,
    &kLoadBalanceSchema,
    &kSortSchema,
    &kClaimCheckSchema,
    &kResequenceSchema,
    &kEnrichSchema,
    &kPollEnrichSchema,
    &kPollSchema,
    &kScriptSchema,
    &kSampleSchema,
    &kIdempotentConsumerSchema,
    &kAggregateSchema,
};

}  // namespace

std::span<const EipSchema* const> eipSchemas() noexcept { return kSchemas; }

const EipSchema* findEipSchema(std::string_view name) noexcept {
  for (const EipSchema* s : kSchemas) {
    if (s->key == name) return s;
    for (std::string_view alias : s->aliases) {
      if (alias == name) return s;
    }
  }
  return nullptr;
}

namespace {
const AttributeSchema& defaulted(const EipSchema& schema, std::string_view attribute,
                                 std::initializer_list<AttributeType> types,
                                 std::string_view clause = {}) {
  const ClauseSchema* c = clause.empty() ? nullptr : schema.clause(clause);
  if (!clause.empty() && !c) {
    throw std::logic_error(fmt::format("EIP '{}' has no clause '{}'", schema.key, clause));
  }
  const AttributeSchema* a = c ? c->attribute(attribute) : schema.attribute(attribute);
  if (!a) {
    throw std::logic_error(fmt::format("EIP '{}' has no attribute '{}'", schema.key, attribute));
  }
  if (std::find(types.begin(), types.end(), a->type) == types.end()) {
    throw std::logic_error(fmt::format("EIP '{}': attribute '{}' is a {}", schema.key, attribute,
                                       attributeTypeName(a->type)));
  }
  return *a;
}
}  // namespace

int64_t integerDefault(const EipSchema& schema, std::string_view attribute) {
  return integerDefault(schema, {}, attribute);
}

bool booleanDefault(const EipSchema& schema, std::string_view attribute) {
  return booleanDefault(schema, {}, attribute);
}

int64_t integerDefault(const EipSchema& schema, std::string_view clause,
                       std::string_view attribute) {
  const AttributeSchema& a =
      defaulted(schema, attribute, {AttributeType::Integer, AttributeType::Duration}, clause);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(a.defaultValue.data(),
                                   a.defaultValue.data() + a.defaultValue.size(), value);
  if (ec != std::errc() || end != a.defaultValue.data() + a.defaultValue.size()) {
    throw std::logic_error(fmt::format("EIP '{}': attribute '{}' has no whole-number default",
                                       schema.key, attribute));
  }
  return value;
}

bool booleanDefault(const EipSchema& schema, std::string_view clause, std::string_view attribute) {
  const AttributeSchema& a = defaulted(schema, attribute, {AttributeType::Boolean}, clause);
  if (a.defaultValue != "true" && a.defaultValue != "false") {
    throw std::logic_error(
        fmt::format("EIP '{}': attribute '{}' has no default", schema.key, attribute));
  }
  return a.defaultValue == "true";
}

std::string textDefault(const EipSchema& schema, std::string_view attribute) {
  return textDefault(schema, {}, attribute);
}

std::string textDefault(const EipSchema& schema, std::string_view clause,
                        std::string_view attribute) {
  return std::string(
      defaulted(schema, attribute, {AttributeType::Text, AttributeType::Enum}, clause)
          .defaultValue);
}

const ClauseSchema* findClause(std::string_view eip, std::string_view name) noexcept {
  const EipSchema* schema = findEipSchema(eip);
  return schema ? schema->clause(name) : nullptr;
}

std::string camelCaseOf(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool upper = false;
  for (char c : name) {
    if (c == '-') {
      upper = !out.empty();
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

std::string_view attributeTypeName(AttributeType type) noexcept {
  switch (type) {
    case AttributeType::Text: return "text";
    case AttributeType::Integer: return "integer";
    case AttributeType::Boolean: return "boolean";
    case AttributeType::Duration: return "duration (ms)";
    case AttributeType::Enum: return "enum";
    case AttributeType::Number: return "number";
  }
  return "text";
}

namespace {
// The attributes' rows, under the table's head (an EIP's own, or a clause's).
std::string attributeTable(std::span<const AttributeSchema> attributes) {
  std::string out = "| attribute | type | default | description |\n| --- | --- | --- | --- |\n";
  for (const AttributeSchema& a : attributes) {
    std::string type(attributeTypeName(a.type));
    if (a.type == AttributeType::Enum) {
      type = "one of";
      for (size_t i = 0; i < a.values.size(); ++i) {
        type += fmt::format("{}`{}`", i == 0 ? " " : ", ", a.values[i]);
      }
    }
    out += fmt::format("| `{}`{} | {} | {} | {} |\n", a.name, a.required ? " (required)" : "", type,
                       a.defaultValue.empty() ? "" : fmt::format("`{}`", a.defaultValue),
                       a.description);
  }
  return out;
}
}  // namespace

std::string eipReference(const EipSchema& s) {
  std::string out = fmt::format("## {}\n\n{}.\n\n", s.key, s.description);
  if (!s.aliases.empty()) {
    out += "Also written: ";
    for (size_t i = 0; i < s.aliases.size(); ++i) {
      out += fmt::format("{}`{}`", i == 0 ? "" : ", ", s.aliases[i]);
    }
    out += ".\n\n";
  }
  switch (s.expression) {
    case ExpressionUse::None: break;
    case ExpressionUse::Expression: out += "Takes an expression.\n\n"; break;
    case ExpressionUse::Predicate: out += "Takes a predicate.\n\n"; break;
  }
  if (s.steps) out += "Holds nested steps.\n\n";
  if (!s.clauses.empty()) out += fmt::format("Holds: {}.\n\n", s.clauses);
  if (!s.shorthand.empty()) {
    out += fmt::format("Short form: `{}: VALUE` sets `{}`.\n\n", s.key, s.shorthand);
  }
  out += attributeTable(s.attributes);
  out += "| `id` | text | | the step's id (statistics, errors) |\n";
  out += "| `description` | text | | |\n";
  for (const ClauseSchema& c : s.clauseSchemas) {
    out += fmt::format("\n`{}`: {}.", c.key, c.description);
    for (size_t i = 0; i < c.aliases.size(); ++i) {
      out += fmt::format("{}`{}`", i == 0 ? " Also written " : ", ", c.aliases[i]);
    }
    if (!c.aliases.empty()) out += '.';
    for (size_t i = 0; i < c.expressions.size(); ++i) {
      out += fmt::format("{}`{}`", i == 0 ? " Takes the expression " : ", ", c.expressions[i]);
    }
    out += c.expressions.empty() ? "\n" : ".\n";
    if (!c.attributes.empty()) {
      out += '\n';
      out += attributeTable(c.attributes);
    }
  }
  return out;
}

std::string eipReference() {
  std::string out =
      "# EIP reference\n\n"
      "Generated from the schemas in src/eip/ (`dromedary eips` prints the same; a test fails when "
      "this file is stale: regenerate it with `dromedary eips --markdown > "
      "docs/eip-reference.md`). What each step does in depth is in docs/eip.md.\n\n";
  for (const EipSchema* s : kSchemas) {
    std::string anchor(s->key);  // Markdown's anchor for a heading: lower case
    for (char& c : anchor) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += fmt::format("- [{}](#{})\n", s->key, anchor);
  }
  for (const EipSchema* s : kSchemas) {
    out += '\n';
    out += eipReference(*s);
  }
  return out;
}

}  // namespace dromedary::eip
