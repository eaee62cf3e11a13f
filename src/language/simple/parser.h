// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Simple parser: turns text into a tree of nodes, once, at route start.
//
// Three modes, as in Camel:
//  - template (expressions): literal text with embedded `${...}` / `$simple{...}` functions;
//    operators outside the braces are plain text.
//  - predicate: `${left} OP right` comparisons joined by && and || (left to right, no
//    precedence, as Camel evaluates them); text without an operator is a template whose value
//    is tested for truth.
//  - inside the braces: a function (`body.name`), or, when an operator surrounded by
//    whitespace is present, a predicate over bare functions (`header.n > 3`), possibly a
//    ternary (`cond ? a : b`) or an elvis (`a ?: b`).
//
// A syntax error is thrown as SyntaxError (position into the whole text) and turned into an
// Error with a caret line by the entry points in simple_language.cc.

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "language/simple/nodes.h"

namespace dromedary {
class Context;
}

namespace dromedary::simplelang {

struct SyntaxError {
  size_t pos;
  std::string what;
  std::string hint;  ///< e.g. "did you mean 'body'?"; may be empty
};

/// "what at column N in simple expression", the expression, and a caret under column N.
std::string formatSyntaxError(std::string_view whole, const SyntaxError& error);

class Parser {
 public:
  Parser(std::string_view whole, Context& context) : whole_(whole), context_(context) {}

  Context& context() const noexcept { return context_; }
  /// The offset of `part` (a view into the text being parsed) in that text.
  size_t posOf(std::string_view part) const noexcept {
    return static_cast<size_t>(part.data() - whole_.data());
  }
  [[noreturn]] void fail(std::string_view at, std::string what, std::string hint = {}) const;

  /// Template mode (see above). `quoted` is for the content of a quoted literal, where a
  /// backslash other than \n, \t, \r is kept (so regexes such as '\d{4}' read as written).
  ExprPtr parseTemplate(std::string_view text, bool quoted = false);
  /// Predicate mode (see above).
  PredPtr parsePredicate(std::string_view text);
  /// The content of one `${...}`.
  ExprPtr parseInner(std::string_view inner);
  /// A function argument: 'quoted', "quoted", ${function}, a number, null, true, false, or
  /// bare text taken literally.
  ExprPtr parseArgument(std::string_view arg);

  /// How deeply functions, negations and templates may nest: far past what anyone writes,
  /// and well inside the stack of the parser and of the compiled expression's evaluation
  /// (24,000 nested '!' crashed both).
  static constexpr int kMaxNesting = 200;

 private:
  // One level deeper for the life of a parse step; past kMaxNesting the parse fails at `at`.
  class Nesting {
   public:
    Nesting(Parser& parser, std::string_view at) : parser_(parser) {
      if (++parser_.depth_ > kMaxNesting) {
        parser_.fail(at, fmt::format("nested deeper than {} levels", kMaxNesting));
      }
    }
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  std::string_view whole_;
  Context& context_;
  int depth_ = 0;
};

/// 2 for "${", 8 for "$simple{" at `i`, else 0.
size_t functionOpenerLength(std::string_view text, size_t i) noexcept;
/// The index of the `}` closing a function whose content starts at `from`; npos if unclosed.
size_t findFunctionEnd(std::string_view text, size_t from) noexcept;
/// The index of the `)` matching the `(` at `open`; npos if unclosed.
size_t findCloseParen(std::string_view text, size_t open) noexcept;
/// Splits function arguments at top-level commas (not inside quotes, parentheses or ${}),
/// trimming each. An empty text has no arguments.
std::vector<std::string_view> splitArguments(std::string_view args);
/// The text without surrounding quotes when it is one quoted literal, else nullopt.
std::optional<std::string_view> unquote(std::string_view text) noexcept;

}  // namespace dromedary::simplelang
