// SPDX-License-Identifier: Apache-2.0
#pragma once

// A query as Camel's sql component reads it: `#` (the placeholder) or `?` for a positional
// parameter, `:#name` for a named one (from the body's map, else a header), `:#${simple}`
// for an expression, and `:#in:name` / `:#in:${simple}` for an IN list that expands to one
// parameter per element. Parsed once, when the endpoint is made; per message only the values
// are found.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/spi/language.h>

#include "database.h"

namespace dromedary::component::sql {

struct QueryParameter {
  enum class Kind : uint8_t { Positional, Named, Expression };
  Kind kind = Kind::Positional;
  bool inList = false;  // :#in:...
  std::string name;     // Named: the key; Expression: its text, for messages
  HeaderKey header;     // Named: the key as a header's, hashed once
  std::shared_ptr<const Expression> expression;
};

class ParsedQuery {
 public:
  /// `placeholder`: the text that stands for a positional parameter besides `?` (Camel's
  /// `placeholder` option, "#"; empty when usePlaceholder=false). Text inside single quotes
  /// is left alone. Fails on an unclosed `${` or a name missing after `:#`.
  static Result<ParsedQuery> parse(std::string_view sql, std::string_view placeholder,
                                   Context& context);

  const std::string& original() const noexcept { return original_; }
  const std::vector<QueryParameter>& parameters() const noexcept { return parameters_; }
  bool hasInList() const noexcept { return hasInList_; }
  /// The statement with $1 ... $n, for a query without IN lists.
  std::string statementSql() const;
  /// The statement for one message of a query with IN lists: each list parameter expands to
  /// as many numbered parameters as `counts` says (counts[i] for parameters()[i]).
  std::string statementSql(const std::vector<size_t>& counts) const;

  /// The values for one execution, in statement order, IN lists expanded. `source` is the
  /// message's body, or one element of a batch; `positional` are the values # takes in turn.
  /// On failure, says which parameter could not be found and leaves `out` unspecified.
  Result<void> values(Exchange& exchange, const Value& source, std::vector<Value>& out,
                      std::vector<size_t>* in_counts) const;

 private:
  std::string original_;
  std::vector<std::string> pieces_;  // text around parameters: parameters_.size() + 1
  std::vector<QueryParameter> parameters_;
  bool hasInList_ = false;
  char separator_ = ',';

 public:
  /// The separator a text body's positional values are split at (Camel's `separator`).
  void setSeparator(char separator) noexcept { separator_ = separator; }
};

/// The values a body gives positional parameters: a list's elements, a text's parts split at
/// `separator`, or the body itself.
std::vector<Value> positionalValues(const Value& body, char separator);

}  // namespace dromedary::component::sql
