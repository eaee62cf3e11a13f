// SPDX-License-Identifier: Apache-2.0
#include "sql_query.h"

#include <cctype>
#include <utility>

#include <fmt/format.h>

#include <dromedary/engine/context.h>

namespace dromedary::component::sql {

namespace {

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
}

Error queryError(std::string_view sql, std::string message) {
  return makeError(ErrorCode::InvalidOption, fmt::format("{} in the query '{}'", message, sql));
}

// An IN list's elements: a list's, a text's comma-separated parts, or the value itself.
void appendInList(const Value& v, std::vector<Value>& out) {
  if (v.isList()) {
    for (const Value& e : v.getList()) out.push_back(e);
  } else if (v.isString()) {
    std::string_view text = v.getString();
    size_t start = 0;
    for (;;) {
      size_t comma = text.find(',', start);
      out.emplace_back(std::string(text.substr(start, comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  } else {
    out.push_back(v);
  }
}

}  // namespace

std::vector<Value> positionalValues(const Value& body, char separator) {
  std::vector<Value> out;
  if (body.isList()) {
    out.assign(body.getList().begin(), body.getList().end());
  } else if (body.isString() && separator != 0) {
    std::string_view text = body.getString();
    size_t start = 0;
    for (;;) {
      size_t cut = text.find(separator, start);
      out.emplace_back(std::string(text.substr(start, cut - start)));
      if (cut == std::string_view::npos) break;
      start = cut + 1;
    }
  } else if (!body.isNull()) {
    out.push_back(body);
  }
  return out;
}

Result<ParsedQuery> ParsedQuery::parse(std::string_view sql, std::string_view placeholder,
                                       Context& context) {
  ParsedQuery q;
  q.original_ = std::string(sql);
  std::string piece;
  bool quoted = false;
  auto marker = [&](size_t i) -> size_t {  // the length of a parameter marker at i, or 0
    if (sql[i] == '?') return 1;
    if (!placeholder.empty() && sql.substr(i, placeholder.size()) == placeholder) {
      return placeholder.size();
    }
    return 0;
  };
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (c == '\'') quoted = !quoted;
    if (quoted) {
      piece += c;
      ++i;
      continue;
    }
    size_t m = c == ':' && i + 1 < sql.size() ? marker(i + 1) : 0;
    if (m > 0) {  // a named parameter, an expression or an IN list
      size_t at = i + 1 + m;
      QueryParameter p;
      if (sql.substr(at, 3) == "in:") {
        p.inList = true;
        at += 3;
      }
      std::string_view rest = sql.substr(at);
      if (rest.starts_with("${") || rest.starts_with("$simple{")) {
        size_t open = rest.find('{');
        size_t close = rest.find('}', open);
        if (close == std::string_view::npos) {
          return queryError(sql, fmt::format("unclosed expression '{}'", rest));
        }
        p.kind = QueryParameter::Kind::Expression;
        p.name = fmt::format("${{{}}}", rest.substr(open + 1, close - open - 1));
        auto compiled = context.language("simple")->createExpression(p.name, context);
        if (!compiled) {
          return queryError(sql, fmt::format("bad expression '{}': {}", p.name,
                                             compiled.error().message));
        }
        p.expression = std::shared_ptr<const Expression>(std::move(*compiled));
        i = at + close + 1;
      } else {
        size_t end = at;
        while (end < sql.size() && isWordChar(sql[end])) ++end;
        if (end == at) {
          return queryError(sql, fmt::format("a parameter name is missing after '{}' at "
                                             "position {}",
                                             sql.substr(i, at - i), i + 1));
        }
        p.kind = QueryParameter::Kind::Named;
        p.name = std::string(sql.substr(at, end - at));
        p.header = HeaderKey(p.name);
        i = end;
      }
      q.hasInList_ = q.hasInList_ || p.inList;
      q.pieces_.push_back(std::move(piece));
      piece.clear();
      q.parameters_.push_back(std::move(p));
      continue;
    }
    m = marker(i);
    if (m > 0) {
      q.pieces_.push_back(std::move(piece));
      piece.clear();
      q.parameters_.push_back(QueryParameter{});
      i += m;
      continue;
    }
    piece += c;
    ++i;
  }
  q.pieces_.push_back(std::move(piece));
  return q;
}

std::string ParsedQuery::statementSql() const {
  std::string out = pieces_[0];
  for (size_t i = 0; i < parameters_.size(); ++i) {
    fmt::format_to(std::back_inserter(out), "${}", i + 1);
    out += pieces_[i + 1];
  }
  return out;
}

std::string ParsedQuery::statementSql(const std::vector<size_t>& counts) const {
  std::string out = pieces_[0];
  size_t n = 0;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    size_t count = parameters_[i].inList ? counts[i] : 1;
    if (count == 0) out += "NULL";  // `in ()` is not SQL; `in (NULL)` matches nothing
    for (size_t k = 0; k < count; ++k) {
      if (k > 0) out += ',';
      fmt::format_to(std::back_inserter(out), "${}", ++n);
    }
    out += pieces_[i + 1];
  }
  return out;
}

Result<void> ParsedQuery::values(Exchange& exchange, const Value& source, std::vector<Value>& out,
                                 std::vector<size_t>* in_counts) const {
  out.clear();
  if (in_counts) in_counts->assign(parameters_.size(), 1);
  std::vector<Value> positional;
  size_t next_positional = 0;
  bool positional_taken = false;
  Value scratch;
  const Message& message = std::as_const(exchange).message();  // read only: no checkpoint save
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const QueryParameter& p = parameters_[i];
    const Value* v = nullptr;
    switch (p.kind) {
      case QueryParameter::Kind::Positional:
        if (!positional_taken) {
          positional = positionalValues(source, separator_);
          positional_taken = true;
        }
        if (next_positional >= positional.size()) {
          size_t expected = 0;
          for (const QueryParameter& q : parameters_) {
            expected += q.kind == QueryParameter::Kind::Positional ? 1 : 0;
          }
          return makeError(ErrorCode::InvalidOption,
                           fmt::format("Number of parameters mismatch or not set. Expected "
                                       "count: {}, actual count: {} (query '{}')",
                                       expected, positional.size(), original_));
        }
        v = &positional[next_positional++];
        break;
      case QueryParameter::Kind::Named:
        if (source.isMap()) v = source.mapGet(p.name);
        if (!v) v = message.getHeader(p.header);
        if (!v) {
          return makeError(ErrorCode::NotFound,
                           fmt::format("Cannot find key [{}] in message body or headers to use "
                                       "when setting named parameter in query [{}]",
                                       p.name, original_));
        }
        break;
      case QueryParameter::Kind::Expression:
        v = p.expression->evaluate(exchange, scratch);
        if (!v) {
          return makeError(ErrorCode::EvaluationFailed,
                           fmt::format("the parameter {} of the query [{}] could not be "
                                       "evaluated",
                                       p.name, original_));
        }
        break;
    }
    if (p.inList) {
      size_t before = out.size();
      appendInList(*v, out);
      if (in_counts) (*in_counts)[i] = out.size() - before;
    } else {
      out.push_back(*v);
    }
  }
  return {};
}

}  // namespace dromedary::component::sql
