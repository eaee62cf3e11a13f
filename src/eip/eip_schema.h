// SPDX-License-Identifier: Apache-2.0
#pragma once

// An EIP's schema: its key in route files and Camel's aliases for it, its attributes with type,
// default and a line of description, and what else it takes (an expression or predicate,
// nested steps). Each pattern's file in src/eip/ declares its own, once; eip_schemas.cc lists
// them. The file DSLs validate against it and take its defaults, `dromedary eips` and
// docs/eip-reference.md are printed from it, and a test holds the C++ builder's defaults to it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dromedary::eip {

enum class AttributeType : unsigned char {
  Text,      ///< any text
  Integer,   ///< a whole number
  Boolean,   ///< true or false
  Duration,  ///< milliseconds, as a whole number
  Enum,      ///< one of `values`
  Number,    ///< a decimal number (a percentage ...)
};

struct AttributeSchema {
  std::string_view name;
  AttributeType type;
  std::string_view defaultValue;  ///< as text; empty: none
  std::string_view description;
  bool required = false;
  std::span<const std::string_view> values = {};  ///< Enum: the values allowed
};

/// A clause with options of its own (resequence's batchConfig, loadBalance's failover): its
/// key and its attributes, as an EIP's.
struct ClauseSchema {
  std::string_view key;
  std::string_view description;
  std::span<const AttributeSchema> attributes = {};
  /// Expressions it takes by name (sticky's correlationExpression).
  std::span<const std::string_view> expressions = {};
  /// Other names Camel reads for it (Camel 4's roundRobinLoadBalancer for roundRobin).
  std::span<const std::string_view> aliases = {};

  const AttributeSchema* attribute(std::string_view name) const noexcept {
    for (const AttributeSchema& a : attributes) {
      if (a.name == name) return &a;
    }
    return nullptr;
  }
};

enum class ExpressionUse : unsigned char {
  None,        ///< takes none
  Expression,  ///< requires an expression (a value: setBody, split ...)
  Predicate,   ///< requires a predicate (filter, loop's doWhile ...)
};

struct EipSchema {
  std::string_view key = {};  ///< as in Camel's YAML and XML: "setHeader"
  std::span<const std::string_view> aliases = {};  ///< other names Camel accepts ("set-header")
  std::string_view description = {};
  /// Besides id and description, which every step takes.
  std::span<const AttributeSchema> attributes = {};
  ExpressionUse expression = ExpressionUse::None;
  bool steps = false;  ///< nested steps
  /// The attribute a bare value stands for (`to: mock:out` is `to: {uri: mock:out}`); empty:
  /// the step is always a map.
  std::string_view shorthand = {};
  /// What else it holds, for the reference: "when, otherwise", "doCatch, doFinally" ...
  std::string_view clauses = {};
  /// The clauses among them that take options (checked and defaulted from here).
  std::span<const ClauseSchema> clauseSchemas = {};

  /// The clause with options whose key or alias is `name`, or null.
  const ClauseSchema* clause(std::string_view name) const noexcept {
    for (const ClauseSchema& c : clauseSchemas) {
      if (c.key == name) return &c;
      for (std::string_view alias : c.aliases) {
        if (alias == name) return &c;
      }
    }
    return nullptr;
  }

  const AttributeSchema* attribute(std::string_view name) const noexcept {
    for (const AttributeSchema& a : attributes) {
      if (a.name == name) return &a;
    }
    return nullptr;
  }
};

/// `own` then `shared`: the attributes of an EIP that takes a shared group's too.
template <size_t N, size_t M>
constexpr std::array<AttributeSchema, N + M> joinAttributes(
    const std::array<AttributeSchema, N>& own, const std::array<AttributeSchema, M>& shared) {
  std::array<AttributeSchema, N + M> out{};
  for (size_t i = 0; i < N; ++i) out[i] = own[i];
  for (size_t i = 0; i < M; ++i) out[N + i] = shared[i];
  return out;
}

/// What split, multicast and recipientList share: how the parts' results are combined, and
/// whether the parts run at once.
inline constexpr std::array<AttributeSchema, 6> kFanOutAttributes{{
    {"parallelProcessing", AttributeType::Boolean, "false",
     "Run the parts on the context's workers at once"},
    {"stopOnException", AttributeType::Boolean, "false",
     "Stop at the first part that fails (the exchange fails with it)"},
    {"aggregationStrategy", AttributeType::Text, "",
     "How the parts' results are combined: a bound strategy or one of Camel's class names"},
    {"strategyRef", AttributeType::Text, "", "Camel's older name for aggregationStrategy"},
    {"timeout", AttributeType::Duration, "0",
     "With parallelProcessing: how long to wait for the parts, in ms (0: no limit)"},
    {"shareUnitOfWork", AttributeType::Boolean, "false",
     "The parts share the exchange's unit of work (one error handler for all)"},
}};

/// What the steps that send to URIs they compute share (recipientList, routingSlip,
/// dynamicRouter).
inline constexpr std::array<AttributeSchema, 2> kDynamicEndpointAttributes{{
    {"ignoreInvalidEndpoints", AttributeType::Boolean, "false",
     "Skip a URI that names no endpoint rather than fail"},
    {"cacheSize", AttributeType::Integer, "1000", "Endpoints kept per thread (-1: no bound)"},
}};

/// The default of `attribute` in `schema` (or in a shared group it joins), typed: how a
/// model's default member initializer reads its schema (models.h), so that the model, the C++
/// builder that makes it and the file DSLs that fill it start from the same values. An
/// attribute the schema lacks, or whose default is not of the type asked, throws
/// std::logic_error: a programming error, which the schema test's models all meet.
int64_t integerDefault(const EipSchema& schema, std::string_view attribute);
bool booleanDefault(const EipSchema& schema, std::string_view attribute);
std::string textDefault(const EipSchema& schema, std::string_view attribute);
/// The same for an attribute of one of its clauses.
int64_t integerDefault(const EipSchema& schema, std::string_view clause,
                       std::string_view attribute);
bool booleanDefault(const EipSchema& schema, std::string_view clause, std::string_view attribute);
std::string textDefault(const EipSchema& schema, std::string_view clause,
                        std::string_view attribute);

/// Every EIP the file DSLs know, in the order of the reference.
std::span<const EipSchema* const> eipSchemas() noexcept;

/// The schema whose key or alias is `name`, or null.
const EipSchema* findEipSchema(std::string_view name) noexcept;
/// The clause with options `name` (key or alias) of the EIP `eip`, or null: how the readers
/// tell a loadBalance policy or a resequence config from the step's other keys.
const ClauseSchema* findClause(std::string_view eip, std::string_view name) noexcept;

/// `name` in camelCase when written in kebab-case ("logging-level" -> "loggingLevel"), as
/// Camel's YAML DSL accepts; else `name`.
std::string camelCaseOf(std::string_view name);

/// The reference of every EIP (docs/eip-reference.md), or of one.
std::string eipReference();
std::string eipReference(const EipSchema& schema);

/// The name of `type` as the reference shows it.
std::string_view attributeTypeName(AttributeType type) noexcept;

}  // namespace dromedary::eip
