// SPDX-License-Identifier: Apache-2.0
#include "language/simple/parser.h"

#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "core/text.h"
#include "language/simple/functions.h"
#include "language/simple/operators.h"

namespace dromedary::simplelang {

namespace {

bool isSpace(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The index of the quote closing the one at `open`, or npos.
size_t findCloseQuote(std::string_view text, size_t open) noexcept {
  char quote = text[open];
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::optional<Value> numberLiteral(std::string_view word) noexcept {
  if (word.empty()) return std::nullopt;
  std::string_view digits = word.front() == '+' ? word.substr(1) : word;
  if (digits.empty() || !(std::isdigit(static_cast<unsigned char>(digits.back())))) {
    return std::nullopt;
  }
  int64_t i = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
  if (ec == std::errc() && ptr == digits.data() + digits.size()) return Value(i);
  double d = 0;
  auto [dptr, dec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
  if (dec == std::errc() && dptr == digits.data() + digits.size()) return Value(d);
  return std::nullopt;
}

// A keyword literal or a number, in predicate operands and arguments.
std::optional<Value> keywordOrNumber(std::string_view word) noexcept {
  if (word == "null") return Value();
  if (word == "true") return Value(true);
  if (word == "false") return Value(false);
  return numberLiteral(word);
}

enum class TokenKind { Function, Quoted, Word, Binary, And, Or, Question, Colon, Elvis };

struct Token {
  TokenKind kind;
  std::string_view text;  ///< function: its content; quoted: its content; else the word
  std::string_view full;  ///< the token as written
  BinaryOp op = BinaryOp::Eq;
  int increment = 0;      ///< +1 for a trailing ++, -1 for --
  bool negate = false;    ///< a leading ! on a function

  bool isOperand() const noexcept {
    return kind == TokenKind::Function || kind == TokenKind::Quoted || kind == TokenKind::Word;
  }
  bool isOperator() const noexcept { return !isOperand(); }
};

// Splits predicate text into tokens. With `strict` false a malformed text yields nullopt
// (the caller then reads it as a template); with `strict` true it is a syntax error.
class Tokenizer {
 public:
  Tokenizer(const Parser& parser, std::string_view text, bool inner, bool strict)
      : parser_(parser), text_(text), inner_(inner), strict_(strict) {}

  std::optional<std::vector<Token>> run() {
    std::vector<Token> tokens;
    size_t i = 0;
    const size_t n = text_.size();
    while (true) {
      while (i < n && isSpace(text_[i])) ++i;
      if (i >= n) break;
      size_t start = i;
      Token token{TokenKind::Word, {}, {}};
      if (text_[i] == '!' && functionOpenerLength(text_, i + 1) > 0) {
        token.negate = true;
        ++i;
      }
      if (size_t open = functionOpenerLength(text_, i)) {
        size_t end = findFunctionEnd(text_, i + open);
        if (end == std::string_view::npos) {
          if (!bad(text_.substr(i, open), "function is not closed: missing '}'")) return {};
        }
        size_t after = end + 1;
        int increment = 0;
        if (text_.substr(after, 2) == "++" || text_.substr(after, 2) == "--") {
          if (after + 2 == n || isSpace(text_[after + 2])) {
            increment = text_[after] == '+' ? 1 : -1;
            after += 2;
          }
        }
        if (after == n || isSpace(text_[after])) {
          token.kind = TokenKind::Function;
          token.text = text_.substr(i + open, end - i - open);
          token.full = text_.substr(start, after - start);
          token.increment = increment;
          tokens.push_back(token);
          i = after;
          continue;
        }
        i = start;  // text glued to the function: the whole run is one word (a template)
        token.negate = false;
      } else if (text_[i] == '\'' || text_[i] == '"') {
        size_t close = findCloseQuote(text_, i);
        if (close == std::string_view::npos) {
          bad(text_.substr(i, 1), "quoted text is not closed");
          // Loosely read, the rest is one word: an operator before it still shows, so the
          // strict pass reports the quote; text without operators stays a template.
          token.text = token.full = text_.substr(i);
          tokens.push_back(token);
          break;
        }
        token.kind = TokenKind::Quoted;
        token.text = text_.substr(i + 1, close - i - 1);
        token.full = text_.substr(i, close + 1 - i);
        tokens.push_back(token);
        i = close + 1;
        continue;
      }
      // A word: up to whitespace outside parentheses, quotes and functions.
      int depth = 0;
      while (i < n) {
        char c = text_[i];
        if (size_t open = functionOpenerLength(text_, i)) {
          size_t end = findFunctionEnd(text_, i + open);
          if (end == std::string_view::npos) {
            if (!bad(text_.substr(i, open), "function is not closed: missing '}'")) return {};
          }
          i = end + 1;
          continue;
        }
        if ((c == '\'' || c == '"') && inner_) {
          size_t close = findCloseQuote(text_, i);
          if (close != std::string_view::npos) {
            i = close + 1;
            continue;
          }
        }
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (isSpace(c) && depth <= 0) break;
        ++i;
      }
      token.text = token.full = text_.substr(start, i - start);
      classify(token);
      tokens.push_back(token);
    }
    joinTwoWordOperators(tokens);
    return tokens;
  }

 private:
  // Reports a malformed token: throws when strict, else returns false.
  bool bad(std::string_view at, std::string what) const {
    if (strict_) parser_.fail(at, std::move(what));
    return false;
  }

  void classify(Token& token) const {
    std::string_view w = token.text;
    if (w == "&&") {
      token.kind = TokenKind::And;
    } else if (w == "||") {
      token.kind = TokenKind::Or;
    } else if (inner_ && w == "?") {
      token.kind = TokenKind::Question;
    } else if (inner_ && w == ":") {
      token.kind = TokenKind::Colon;
    } else if (w == "?:") {
      token.kind = TokenKind::Elvis;
    } else if (auto op = binaryOpByName(w)) {
      token.kind = TokenKind::Binary;
      token.op = *op;
    } else if (inner_ && w.size() > 2 && (w.ends_with("++") || w.ends_with("--"))) {
      token.increment = w.back() == '+' ? 1 : -1;
      token.text = w.substr(0, w.size() - 2);
    }
  }

  // "starts with" and "ends with" are operators spelled as two words.
  static void joinTwoWordOperators(std::vector<Token>& tokens) {
    for (size_t i = 1; i + 1 < tokens.size(); ++i) {
      Token& t = tokens[i];
      if (t.kind != TokenKind::Word || tokens[i + 1].kind != TokenKind::Word ||
          tokens[i + 1].text != "with" || !tokens[i - 1].isOperand()) {
        continue;
      }
      if (t.text != "starts" && t.text != "ends") continue;
      t.kind = TokenKind::Binary;
      t.op = t.text == "starts" ? BinaryOp::StartsWith : BinaryOp::EndsWith;
      t.full = std::string_view(t.full.data(),
                                static_cast<size_t>(tokens[i + 1].full.data() +
                                                    tokens[i + 1].full.size() - t.full.data()));
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  }

  const Parser& parser_;
  std::string_view text_;
  bool inner_;
  bool strict_;
};

bool hasOperator(const std::vector<Token>& tokens) noexcept {
  for (const Token& t : tokens) {
    if (t.isOperator()) return true;
  }
  return false;
}

// Recursive descent over a token list: logical chains of comparisons, then (inside braces)
// an optional ternary.
class TokenParser {
 public:
  TokenParser(Parser& parser, std::string_view text, std::vector<Token> tokens, bool inner)
      : parser_(parser), text_(text), tokens_(std::move(tokens)), inner_(inner) {}

  PredPtr parseChain() {
    PredPtr acc = parseComparison();
    while (!atEnd() && (peek().kind == TokenKind::And || peek().kind == TokenKind::Or)) {
      bool is_and = next().kind == TokenKind::And;
      PredPtr rhs = parseComparison();
      acc = makeLogical(is_and, std::move(acc), std::move(rhs));
    }
    return acc;
  }

  // Inside braces: a chain, then an optional `? a : b`, or an elvis `a ?: b`.
  ExprPtr parseInnerValue() {
    if (tokens_.size() >= 2 && tokens_[1].kind == TokenKind::Elvis) {
      ExprPtr value = operand(next());
      next();
      ExprPtr fallback = operand(expectOperand("'?:' needs a value on its right", tokens_[1]));
      expectEnd();
      return std::make_unique<ElvisNode>(std::move(value), std::move(fallback));
    }
    PredPtr condition = parseChain();
    if (!atEnd() && peek().kind == TokenKind::Question) {
      const Token& question = next();
      ExprPtr when_true = operand(expectOperand("'?' needs a value after it", question));
      if (atEnd() || peek().kind != TokenKind::Colon) {
        parser_.fail(atEnd() ? question.full : peek().full,
                     "ternary operator needs ' : ' after its first value");
      }
      const Token& colon = next();
      ExprPtr when_false = operand(expectOperand("':' needs a value after it", colon));
      expectEnd();
      return std::make_unique<TernaryNode>(std::move(condition), std::move(when_true),
                                           std::move(when_false));
    }
    expectEnd();
    return std::make_unique<PredicateValueNode>(std::move(condition));
  }

  void expectEnd() {
    if (!atEnd()) parser_.fail(peek().full, fmt::format("unexpected '{}'", peek().full));
  }

 private:
  bool atEnd() const noexcept { return pos_ >= tokens_.size(); }
  const Token& peek() const noexcept { return tokens_[pos_]; }
  const Token& next() noexcept { return tokens_[pos_++]; }

  const Token& expectOperand(std::string_view what, const Token& after) {
    if (atEnd()) parser_.fail(after.full, std::string(what));
    if (!peek().isOperand()) parser_.fail(peek().full, std::string(what));
    return next();
  }

  PredPtr parseComparison() {
    if (atEnd()) {
      parser_.fail(text_.substr(text_.size()), "expected a value at the end");
    }
    if (!peek().isOperand()) {
      parser_.fail(peek().full, fmt::format("operator '{}' needs a value on its left",
                                            peek().full));
    }
    const Token& left = next();
    if (atEnd() || peek().kind != TokenKind::Binary) {
      return negatedOrTruthy(left);
    }
    const Token& op = next();
    if (isNegated(left)) {
      parser_.fail(left.full, "'!' negates a function, not a comparison",
                   "negate the operator instead, e.g. != or !contains");
    }
    const Token& right = expectOperand(
        fmt::format("operator '{}' needs a value on its right", op.full), op);
    if (isNegated(right)) {
      parser_.fail(right.full, "'!' cannot be the right-hand side of a comparison");
    }
    return makeBinary(parser_, op.op, operand(left), operand(right), right.full);
  }

  bool isNegated(const Token& t) const noexcept {
    return t.negate || (inner_ && t.kind == TokenKind::Word && t.text.starts_with('!') &&
                        t.text.size() > 1 && !keywordOrNumber(t.text));
  }

  PredPtr negatedOrTruthy(const Token& t) {
    if (t.negate) {
      Token plain = t;
      plain.negate = false;
      return makeNot(makeTruthy(operand(plain)));
    }
    if (isNegated(t)) {
      return makeNot(makeTruthy(parseFunction(parser_, t.text.substr(1))));
    }
    return makeTruthy(operand(t));
  }

  ExprPtr operand(const Token& t) {
    ExprPtr e;
    switch (t.kind) {
      case TokenKind::Function: e = parser_.parseInner(t.text); break;
      case TokenKind::Quoted: e = parser_.parseTemplate(t.text, /*quoted=*/true); break;
      default:
        if (auto v = keywordOrNumber(t.text)) {
          e = std::make_unique<LiteralNode>(std::move(*v));
        } else if (inner_) {
          e = parseFunction(parser_, t.text);
        } else {
          e = parser_.parseTemplate(t.text);
        }
        break;
    }
    if (t.increment != 0) {
      e = std::make_unique<IncrementNode>(std::move(e), t.increment, std::string(t.full));
    }
    if (t.negate) {
      e = std::make_unique<PredicateValueNode>(makeNot(makeTruthy(std::move(e))));
    }
    return e;
  }

  Parser& parser_;
  std::string_view text_;
  std::vector<Token> tokens_;
  bool inner_;
  size_t pos_ = 0;
};

}  // namespace

size_t functionOpenerLength(std::string_view text, size_t i) noexcept {
  if (i >= text.size() || text[i] != '$') return 0;
  if (text.substr(i, 2) == "${") return 2;
  if (text.substr(i, 8) == "$simple{") return 8;
  return 0;
}

size_t findFunctionEnd(std::string_view text, size_t from) noexcept {
  int depth = 1;
  for (size_t i = from; i < text.size(); ++i) {
    if (size_t open = functionOpenerLength(text, i)) {
      ++depth;
      i += open - 1;
    } else if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '\'' || text[i] == '"') {
      // A quoted '}' does not close the function, when the quote is closed before the end.
      size_t close = findCloseQuote(text, i);
      if (close != std::string_view::npos) i = close;
    } else if (text[i] == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

size_t findCloseParen(std::string_view text, size_t open) noexcept {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (size_t fn = functionOpenerLength(text, i)) {
      size_t end = findFunctionEnd(text, i + fn);
      if (end == std::string_view::npos) return end;
      i = end;
    } else if (text[i] == '\'' || text[i] == '"') {
      size_t close = findCloseQuote(text, i);
      if (close == std::string_view::npos) return close;
      i = close;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::vector<std::string_view> splitArguments(std::string_view args) {
  std::vector<std::string_view> out;
  if (trim(args).empty()) return out;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (size_t fn = functionOpenerLength(args, i)) {
      size_t end = findFunctionEnd(args, i + fn);
      if (end == std::string_view::npos) break;
      i = end;
    } else if (args[i] == '\'' || args[i] == '"') {
      size_t close = findCloseQuote(args, i);
      if (close == std::string_view::npos) break;
      i = close;
    } else if (args[i] == '(') {
      ++depth;
    } else if (args[i] == ')') {
      --depth;
    } else if (args[i] == ',' && depth == 0) {
      out.push_back(trim(args.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(args.substr(start)));
  return out;
}

std::optional<std::string_view> unquote(std::string_view text) noexcept {
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      findCloseQuote(text, 0) == text.size() - 1) {
    return text.substr(1, text.size() - 2);
  }
  return std::nullopt;
}

std::string formatSyntaxError(std::string_view whole, const SyntaxError& error) {
  size_t pos = std::min(error.pos, whole.size());
  size_t line_start = whole.rfind('\n', pos == 0 ? 0 : pos - 1);
  line_start = (line_start == std::string_view::npos || line_start >= pos) ? 0 : line_start + 1;
  if (pos > 0 && whole[pos - 1] == '\n') line_start = pos;
  size_t line_end = whole.find('\n', pos);
  if (line_end == std::string_view::npos) line_end = whole.size();
  size_t column = pos - line_start + 1;
  size_t line = 1;
  for (size_t i = 0; i < line_start; ++i) line += whole[i] == '\n';
  std::string shown(whole.substr(line_start, line_end - line_start));
  for (char& c : shown) {
    if (c == '\t' || c == '\r') c = ' ';
  }
  std::string where = line > 1 ? fmt::format("line {}, column {}", line, column)
                               : fmt::format("column {}", column);
  std::string out = fmt::format("{} at {} in simple expression\n  {}\n  {}^", error.what, where,
                                shown, std::string(column - 1, ' '));
  if (!error.hint.empty()) {
    out += '\n';
    out += error.hint;
  }
  return out;
}

void Parser::fail(std::string_view at, std::string what, std::string hint) const {
  size_t pos = (at.data() >= whole_.data() && at.data() <= whole_.data() + whole_.size())
                   ? posOf(at)
                   : 0;
  throw SyntaxError{pos, std::move(what), std::move(hint)};
}

ExprPtr Parser::parseTemplate(std::string_view text, bool quoted) {
  Nesting nesting(*this, text);
  std::vector<ExprPtr> parts;
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) {
      parts.push_back(std::make_unique<LiteralNode>(Value(std::move(literal))));
      literal.clear();
    }
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char escaped = text[i + 1];
      switch (escaped) {
        case 'n': literal += '\n'; break;
        case 't': literal += '\t'; break;
        case 'r': literal += '\r'; break;
        case '$':
        case '}':
          if (!quoted) {
            literal += escaped;
            break;
          }
          [[fallthrough]];
        default:
          literal += c;
          literal += escaped;
          break;
      }
      i += 2;
      continue;
    }
    if (size_t open = functionOpenerLength(text, i)) {
      size_t end = findFunctionEnd(text, i + open);
      if (end == std::string_view::npos) {
        fail(text.substr(i, open), "function is not closed: missing '}'");
      }
      flush();
      ExprPtr fn = parseInner(text.substr(i + open, end - i - open));
      size_t after = end + 1;
      if (text.substr(after, 2) == "++" || text.substr(after, 2) == "--") {
        int delta = text[after] == '+' ? 1 : -1;
        fn = std::make_unique<IncrementNode>(std::move(fn), delta,
                                             std::string(text.substr(i, after + 2 - i)));
        after += 2;
      }
      parts.push_back(std::move(fn));
      i = after;
      continue;
    }
    literal += c;
    ++i;
  }
  flush();
  if (parts.empty()) return std::make_unique<LiteralNode>(Value(std::string()));
  if (parts.size() == 1) return std::move(parts.front());
  return std::make_unique<TemplateNode>(std::move(parts));
}

PredPtr Parser::parsePredicate(std::string_view text) {
  Nesting nesting(*this, text);
  auto loose = Tokenizer(*this, text, /*inner=*/false, /*strict=*/false).run();
  if (!loose || !hasOperator(*loose)) {
    // No operator: the text is a template whose value is tested (`${header.flag}`,
    // `!${body.isEmpty()}`).
    std::string_view t = trim(text);
    if (loose && loose->size() == 1 && loose->front().negate) {
      return makeNot(makeTruthy(parseInner(loose->front().text)));
    }
    return makeTruthy(parseTemplate(t));
  }
  auto tokens = Tokenizer(*this, text, /*inner=*/false, /*strict=*/true).run();
  TokenParser tp(*this, text, std::move(*tokens), /*inner=*/false);
  PredPtr p = tp.parseChain();
  tp.expectEnd();
  return p;
}

ExprPtr Parser::parseInner(std::string_view inner) {
  Nesting nesting(*this, inner);
  std::string_view t = trim(inner);
  if (t.empty()) fail(inner, "empty function: expected a name such as body or header.foo");
  auto loose = Tokenizer(*this, t, /*inner=*/true, /*strict=*/false).run();
  if (loose && hasOperator(*loose)) {
    auto tokens = Tokenizer(*this, t, /*inner=*/true, /*strict=*/true).run();
    TokenParser tp(*this, t, std::move(*tokens), /*inner=*/true);
    return tp.parseInnerValue();
  }
  if (t.front() == '!' && t.size() > 1) {
    std::string_view rest = t.substr(1);
    ExprPtr negated = rest.front() == '!' ? parseInner(rest) : parseFunction(*this, rest);
    return std::make_unique<PredicateValueNode>(makeNot(makeTruthy(std::move(negated))));
  }
  return parseFunction(*this, t);
}

ExprPtr Parser::parseArgument(std::string_view arg) {
  Nesting nesting(*this, arg);
  std::string_view t = trim(arg);
  if (auto content = unquote(t)) return parseTemplate(*content, /*quoted=*/true);
  if (size_t open = functionOpenerLength(t, 0)) {
    size_t end = findFunctionEnd(t, open);
    if (end == t.size() - 1) return parseInner(t.substr(open, end - open));
    return parseTemplate(t);
  }
  if (auto v = keywordOrNumber(t)) return std::make_unique<LiteralNode>(std::move(*v));
  return std::make_unique<LiteralNode>(Value(std::string(t)));
}

}  // namespace dromedary::simplelang
