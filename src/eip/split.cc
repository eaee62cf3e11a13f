// SPDX-License-Identifier: Apache-2.0
// split(expression): each item runs the split's steps as a sub-exchange of its own, with
// Camel's CamelSplitIndex, CamelSplitSize and CamelSplitComplete properties.
//
// Items are taken from the value in place: a list's elements one by one, a text's tokens
// by scanning it (nothing is built up front, whether or not `streaming` is set). Without
// `streaming`, a tokenized text is scanned once more first to count its tokens, so that
// every item knows CamelSplitSize, as in Camel; with it, only the last item does. A file
// body (FileBody) is read in chunks as it is cut, in bounded memory; without `streaming` it
// is read once more first, to count its items.
#include <string_view>

#include <re2/re2.h>

#include <fmt/format.h>

#include "eip/fan_out.h"
#include "eip/split_stream.h"
#include "eip/models.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

using detail::FanOutState;

namespace {

const HeaderKey kSplitIndex{"CamelSplitIndex"};
const HeaderKey kSplitSize{"CamelSplitSize"};
const HeaderKey kSplitComplete{"CamelSplitComplete"};
constexpr size_t kEnd = std::string_view::npos;

std::string_view textOf(const Value& v) noexcept {
  if (v.isString()) return v.getString();
  if (v.isBytes()) return v.getBytes().view();
  return {};
}

// Cuts a text into tokens, from a position, without copying it.
class TokenScanner {
 public:
  explicit TokenScanner(const Tokenizer& t) : token_(t.token), group_(t.group > 1 ? t.group : 1) {
    if (t.regex) regex_ = std::make_unique<RE2>(t.token);
  }

  // The token (or group of tokens) starting at `cursor`; moves `cursor` past it and its
  // delimiter, to kEnd after the last one (a trailing delimiter ends the text).
  std::string_view next(std::string_view text, size_t& cursor) const noexcept {
    const size_t start = cursor;
    size_t end = start;
    for (int i = 0; i < group_ && cursor != kEnd; ++i) {
      size_t at, len;
      find(text, cursor, at, len);
      if (at == kEnd) {
        end = text.size();
        cursor = kEnd;
      } else {
        end = at;
        cursor = at + len;
        if (cursor >= text.size()) cursor = kEnd;
      }
    }
    return text.substr(start, end - start);
  }

  // Moves `cursor` past one token (not a group): skipFirst.
  void skipOne(std::string_view text, size_t& cursor) const noexcept {
    size_t at, len;
    find(text, cursor, at, len);
    cursor = at == kEnd || at + len >= text.size() ? kEnd : at + len;
  }

  const std::string& token() const noexcept { return token_; }
  const RE2* regex() const noexcept { return regex_.get(); }
  int group() const noexcept { return group_; }

  // The items left from `cursor`.
  size_t count(std::string_view text, size_t cursor) const noexcept {
    size_t n = 0;
    while (cursor != kEnd) {
      next(text, cursor);
      ++n;
    }
    return n;
  }

 private:
  void find(std::string_view text, size_t from, size_t& at, size_t& len) const noexcept {
    if (regex_) {
      re2::StringPiece match;
      re2::StringPiece input(text.data(), text.size());
      // An empty match would never advance: such a pattern does not cut.
      if (regex_->Match(input, from, text.size(), RE2::UNANCHORED, &match, 1) &&
          !match.empty()) {
        at = static_cast<size_t>(match.data() - text.data());
        len = match.size();
        return;
      }
      at = kEnd;
      len = 0;
      return;
    }
    at = token_.empty() ? kEnd : text.find(token_, from);
    len = token_.size();
  }

  std::string token_;
  int group_;
  std::unique_ptr<RE2> regex_;
};

class SplitStep final : public FanOutStep {
 public:
  SplitStep(FanOutOptions options, std::unique_ptr<Expression> expression,
            std::optional<Tokenizer> tokenizer, bool streaming, const detail::Block& body)
      : FanOutStep(std::move(options), true),
        expression_(std::move(expression)),
        tokenizer_(std::move(tokenizer)),
        streaming_(streaming),
        body_(body),
        scanner_(tokenizer_ ? *tokenizer_ : defaultTokenizer()) {}


 protected:
  Status begin(Exchange& input, FanOutState& s) noexcept override {
    const Headers& props = input.properties();
    s.ownPropertiesAbsent = !props.contains(kSplitIndex) && !props.contains(kSplitSize) &&
                            !props.contains(kSplitComplete);
    const Value* v = expression_->evaluate(input, s.items);
    if (!v) return Status::Fail;
    s.source = v;
    if (const FileBody* file = v->getIf<FileBody>()) return beginFile(input, s, *file);
    if (const StreamBody* stream = v->getIf<StreamBody>()) return beginStream(input, s, *stream);
    if (!tokenizer_ && !v->isString() && !v->isBytes()) {
      if (v->isList()) {
        s.size = v->getList().size();
      } else if (v->isMap()) {
        s.size = v->getMap().size();
      } else {
        s.size = v->isNull() ? 0 : 1;  // any other value is one item
      }
      s.sized = true;
      return Status::Continue;
    }
    // Text: cut into tokens (a plain text splits on commas, as in Camel).
    if (!v->isString() && !v->isBytes()) {
      try {
        std::string text;
        v->appendTo(text);
        s.items = Value(std::move(text));
      } catch (...) {
        input.setException(std::current_exception());
        return Status::Fail;
      }
      s.source = &s.items;
    }
    std::string_view text = textOf(*s.source);
    s.cursor = text.empty() ? kEnd : 0;
    if (tokenizer_ && tokenizer_->skipFirst && s.cursor != kEnd) scanner_.skipOne(text, s.cursor);
    if (!streaming_) {
      s.size = scanner_.count(text, s.cursor);
      s.sized = true;
    }
    return Status::Continue;
  }

  FanOutWork next(Exchange&, FanOutState& s, Exchange& sub) noexcept override {
    // A list's items apart: the common case, kept small enough to need no stack frame of
    // its own for the tokenizer's work.
    if (s.source->isList()) return nextOfList(s, sub);
    return nextOther(s, sub);
  }

 private:
  FanOutWork nextOfList(FanOutState& s, Exchange& sub) noexcept {
    if (s.index >= s.size) return {};
    const bool last = s.index + 1 == s.size;
    try {
      sub.messageForEngine().setBody(s.source->getList()[s.index]);
    } catch (...) {
      sub.setException(std::current_exception());  // this item fails; the split goes on
    }
    setOwnProperties(s, sub, last);
    return {&body_};
  }

  // A file is cut as it is read: the file is opened (and, without `streaming`, its items
  // counted by a first reading) when the split begins.
  [[gnu::noinline]] Status beginFile(Exchange& input, FanOutState& s,
                                     const FileBody& file) noexcept {
    try {
      auto open = [&] {
        auto stream = std::make_unique<FileTokenStream>(file, scanner_.token(),
                                                        scanner_.regex(), scanner_.group());
        if (tokenizer_ && tokenizer_->skipFirst) stream->skipOne();
        return stream;
      };
      if (!streaming_) {
        auto counting = open();
        while (counting->next()) ++s.size;
        s.sized = true;
      }
      s.stream = open();
    } catch (...) {
      input.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  // A stream of values (an sql StreamList): read item by item when `streaming`, else read
  // whole first (the split must know its size), as Camel's splitter does with an Iterator.
  [[gnu::noinline]] Status beginStream(Exchange& input, FanOutState& s,
                                       const StreamBody& body) noexcept {
    try {
      if (!streaming_) {
        s.items = Value(body.readRest());
        s.source = &s.items;
        s.size = s.items.getList().size();
        s.sized = true;
        return Status::Continue;
      }
      s.stream = std::make_unique<ValueStreamSource>(body);
    } catch (...) {
      input.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

  FanOutWork nextOfStream(FanOutState& s, Exchange& sub) noexcept {
    if (!s.stream) return {};
    auto& stream = static_cast<ValueStreamSource&>(*s.stream);
    bool last;
    try {
      Value item;
      if (!stream.next(item)) {
        s.stream.reset();
        return {};
      }
      sub.messageForEngine().setBody(std::move(item));
      last = stream.atEnd();
    } catch (...) {
      sub.setException(std::current_exception());  // the stream cannot be read on: the last
      last = true;
    }
    if (last) s.stream.reset();
    setOwnProperties(s, sub, last);
    return {&body_};
  }

  FanOutWork nextOfFile(FanOutState& s, Exchange& sub) noexcept {
    if (!s.stream) return {};
    auto& stream = static_cast<FileTokenStream&>(*s.stream);
    bool last;
    try {
      std::optional<std::string_view> item = stream.next();
      if (!item) {
        s.stream.reset();
        return {};
      }
      sub.messageForEngine().setBody(*item);
      last = stream.atEnd();
    } catch (...) {
      sub.setException(std::current_exception());  // the file cannot be read on: the last item
      last = true;
    }
    if (last) s.stream.reset();  // closed now, not when the exchange is reused
    setOwnProperties(s, sub, last);
    return {&body_};
  }

  [[gnu::noinline]] FanOutWork nextOther(FanOutState& s, Exchange& sub) noexcept {
    const Value& source = *s.source;
    if (source.isObject() && source.getIf<FileBody>()) return nextOfFile(s, sub);
    if (source.isObject() && source.getIf<StreamBody>()) return nextOfStream(s, sub);
    bool last;
    try {
      if (source.isString() || source.isBytes()) {
        if (s.cursor == kEnd) return {};
        sub.messageForEngine().setBody(scanner_.next(textOf(source), s.cursor));
        last = s.cursor == kEnd;
      } else {
        if (s.index >= s.size) return {};
        if (source.isMap()) {
          const auto& entry = source.getMap()[s.index];
          sub.messageForEngine().setBody(Value(ValueMap{entry}));
        } else {
          sub.messageForEngine().setBody(source);
        }
        last = s.index + 1 == s.size;
      }
    } catch (...) {
      sub.setException(std::current_exception());  // this item fails; the split goes on
      last = s.sized ? s.index + 1 == s.size : s.cursor == kEnd;
    }
    setOwnProperties(s, sub, last);
    return {&body_};
  }

  // CamelSplitIndex, CamelSplitSize and CamelSplitComplete of the item `s.index` (then the
  // next index).
  void setOwnProperties(FanOutState& s, Exchange& sub, bool last) noexcept {
    if (s.copyCurrent && s.ownSlots[0] && (s.sized ? s.ownSlots[1] != nullptr : !last)) {
      // The previous item's copy is still current: its properties are where they were.
      s.ownSlots[0]->setInt(static_cast<int64_t>(s.index));
      ++s.index;
      if (s.sized) s.ownSlots[1]->setInt(static_cast<int64_t>(s.size));
      s.ownSlots[2]->setBool(last);
      return;
    }
    setOwnPropertiesByName(s, sub, last);
  }

  [[gnu::noinline]] void setOwnPropertiesByName(FanOutState& s, Exchange& sub,
                                                bool last) noexcept {
    const size_t index = s.index++;
    try {
      Headers& props = sub.properties();
      const bool append = s.ownPropertiesAbsent && !s.copyCurrent;
      const size_t base = props.size();
      auto prop = [&](const HeaderKey& name) -> Value& {
        return append ? props.addUnchecked(name) : props.slot(name);
      };
      prop(kSplitIndex) = static_cast<int64_t>(index);
      const bool with_size = s.sized || last;
      if (with_size) prop(kSplitSize) = static_cast<int64_t>(s.sized ? s.size : s.index);
      prop(kSplitComplete) = last;
      // Appended in order at the end: remember where, for the next items.
      s.ownSlots[0] = append ? &props.valueAt(base) : nullptr;
      s.ownSlots[1] = append && with_size ? &props.valueAt(base + 1) : nullptr;
      s.ownSlots[2] = append ? &props.valueAt(base + (with_size ? 2 : 1)) : nullptr;
    } catch (...) {
      s.ownSlots[0] = nullptr;
      sub.setException(std::current_exception());  // this item fails; the split goes on
    }
  }

  static const Tokenizer& defaultTokenizer() {
    static const Tokenizer comma;
    return comma;
  }

  std::unique_ptr<Expression> expression_;
  std::optional<Tokenizer> tokenizer_;
  bool streaming_;
  const detail::Block& body_;
  TokenScanner scanner_;
};

}  // namespace

std::string SplitModel::describe() const {
  if (tokenizer) {
    return fmt::format("split[tokenize({}{})]", tokenizer->token, tokenizer->regex ? ", regex" : "");
  }
  return "split[" + expression.describe() + "]";
}

Result<std::unique_ptr<Step>> SplitModel::compile(RouteCompiler& compiler) const {
  std::unique_ptr<Expression> e;
  if (tokenizer && tokenizer->text) {
    auto c = tokenizer->text->compile(compiler.context());
    if (!c) return compiler.error(*this, c.error());
    e = std::move(*c);
  } else {
    auto c = expression.compile(compiler.context());
    if (!c) return compiler.error(*this, c.error());
    e = std::move(*c);
  }
  if (tokenizer) {
    if (tokenizer->token.empty()) {
      return compiler.error(*this, makeError(ErrorCode::InvalidRoute, "tokenize needs a token"));
    }
    if (tokenizer->group < 0) {
      return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                             fmt::format("group must not be negative, not {}",
                                                         tokenizer->group)));
    }
    if (tokenizer->regex) {
      RE2 check(tokenizer->token, RE2::Quiet);
      if (!check.ok()) {
        return compiler.error(*this, makeError(ErrorCode::InvalidExpression,
                                               fmt::format("invalid tokenize regex '{}': {}",
                                                           tokenizer->token, check.error())));
      }
    }
  }
  auto options = this->options.compile(compiler, *this, true);
  if (!options) return options.error();
  auto block = compiler.compileBlock(body);
  if (!block) return block.error();
  return std::unique_ptr<Step>(new SplitStep(std::move(*options), std::move(e), tokenizer,
                                             this->options.streaming, **block));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr auto kSplitAttributes = joinAttributes(
    std::array<AttributeSchema, 1>{{{"streaming", AttributeType::Boolean, "false",
                                     "Cut the parts as they are needed rather than all first"}}},
    kFanOutAttributes);
}  // namespace

extern const EipSchema kSplitSchema{
    .key = "split",
    .description = "Splits the body (a list, text cut by tokenize ...) and runs the nested steps "
                   "for each part",
    .attributes = kSplitAttributes,
    .expression = ExpressionUse::Expression,
    .steps = true,
};

}  // namespace dromedary::eip
