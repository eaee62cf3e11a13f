// SPDX-License-Identifier: Apache-2.0
#include "language/simple/nodes.h"

#include <cmath>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "core/scratch.h"
#include "core/text.h"
#include "language/simple/functions.h"

namespace dromedary::simplelang {

namespace {
const Value kNull;
const Value kTrue{true};
const Value kFalse{false};

// Elvis' notion of "has a value": Camel's effective boolean (null, false, 0 and blank are not).
bool hasEffectiveValue(const Value& v) noexcept {
  switch (v.type()) {
    case ValueType::Null: return false;
    case ValueType::Bool: return v.getBool();
    case ValueType::Int: return v.getInt() != 0;
    case ValueType::Double: return v.getDouble() != 0.0;
    case ValueType::String: return !trim(v.getString()).empty();
    case ValueType::Bytes: return !trim(v.getBytes().view()).empty();
    case ValueType::List: return !v.getList().empty();
    case ValueType::Map: return !v.getMap().empty();
    case ValueType::Object: return true;
  }
  return false;
}
}  // namespace

const Value& nullValue() noexcept { return kNull; }
const Value& boolValue(bool b) noexcept { return b ? kTrue : kFalse; }

const Value* failEvaluation(Exchange& ex, std::string_view source,
                            std::string_view problem) noexcept {
  try {
    ex.failWithDetail(ErrorCode::EvaluationFailed, "Simple expression failed",
                      fmt::format("{}: {}", source, problem));
  } catch (...) {
    ex.fail(ErrorCode::EvaluationFailed, "Simple expression failed");
  }
  return nullptr;
}

bool isDirect(const Expression& e) noexcept { return dynamic_cast<const DirectNode*>(&e); }

Value g_unused_scratch;  // never written: DirectNodes ignore their scratch

const Value* literalValue(const Expression& e) noexcept {
  const auto* literal = dynamic_cast<const LiteralNode*>(&e);
  return literal ? &literal->value() : nullptr;
}

TemplateNode::TemplateNode(std::vector<ExprPtr> parts) {
  size_t text_bytes = 0;
  for (const ExprPtr& e : parts) {
    const Value* literal = literalValue(*e);
    if (literal && literal->isString()) text_bytes += literal->getString().size();
  }
  void* memory = ::operator new(parts.size() * sizeof(Part) + text_bytes);
  parts_ = static_cast<Part*>(memory);
  char* text = reinterpret_cast<char*>(parts_ + parts.size());
  uint32_t offset = 0;
  for (ExprPtr& e : parts) {
    Part* part = parts_ + count_;
    const Value* literal = literalValue(*e);
    if (literal && literal->isString()) {
      const std::string& t = literal->getString();
      std::memcpy(text + offset, t.data(), t.size());
      new (part) Part{nullptr, nullptr, text + offset, static_cast<uint32_t>(t.size()), true, false};
      offset += static_cast<uint32_t>(t.size());
    } else {
      // A header read is kept as its (interned) key alone: its node goes.
      const bool direct = isDirect(*e);
      const HeaderKey* header = headerKeyOf(*e);
      new (part) Part{header ? nullptr : std::move(e), header, nullptr, 0, false, direct};
    }
    ++count_;
  }
}

TemplateNode::~TemplateNode() {
  for (uint32_t i = 0; i < count_; ++i) parts_[i].~Part();
  ::operator delete(parts_);
}

namespace {
// A part's value as text: most are text already (a header, the body), appended inline.
inline void appendValue(const Value& v, std::string& text) {
  if (v.isString()) {
    text.append(v.getString());
  } else {
    v.appendTo(text);
  }
}
}  // namespace

bool TemplateNode::appendText(Exchange& ex, std::string& text) const noexcept {
  try {
    for (const Part& part : *this) {
      if (part.literal) {
        text.append(part.text, part.textSize);
        continue;
      }
      const Value* v;
      if (part.header) {  // most parts: a header, read by its key
        appendValue(headerOrProperty(ex, *part.header), text);
        continue;
      }
      if (part.direct) {
        v = part.expression->evaluate(ex, unusedScratch());
        if (!v) return false;
        appendValue(*v, text);
      } else {
        ScratchValue s;
        v = part.expression->evaluate(ex, *s);
        if (!v) return false;
        v->appendTo(text);
      }
    }
  } catch (...) {
    ex.setException(std::current_exception());
    return false;
  }
  return true;
}

bool TemplateNode::assignText(Exchange& ex, std::string& text) const noexcept {
  // Literals and text headers (most templates: `premium-${header.kind}`): every part's text
  // is found first, then `text` is sized once and the parts copied in, inline where the
  // string held as much before (a header's last text). Any other part renders through
  // appendText.
  constexpr uint32_t kMaxParts = 8;
  if (count_ > kMaxParts) return TextExpression::assignText(ex, text);
  struct View {  // not std::string_view: an array of those is zeroed first
    const char* data;
    size_t size;
  };
  View views[kMaxParts];
  size_t total = 0;
  for (uint32_t i = 0; i < count_; ++i) {
    const Part& part = parts_[i];
    if (part.literal) {
      views[i] = {part.text, part.textSize};
    } else if (part.header) {
      const Value& v = headerOrProperty(ex, *part.header);
      if (!v.isString()) return TextExpression::assignText(ex, text);
      const std::string& header_text = v.getString();
      views[i] = {header_text.data(), header_text.size()};
    } else {
      return TextExpression::assignText(ex, text);
    }
    total += views[i].size;
  }
  // No part can be `text` itself: this runs only where rendersBeside() holds (setHeader's
  // in-place text). Checked anyway, since such a part would be overwritten while read.
  for (uint32_t i = 0; i < count_; ++i) {
    if (views[i].data == text.data()) return TextExpression::assignText(ex, text);
  }
  try {
    if (total > text.size()) text.resize(total);  // once, past what it held
  } catch (...) {
    text.clear();  // not the text it held: that may be a removed header's
    ex.setException(std::current_exception());
    return false;
  }
  char* out = text.data();
  for (uint32_t i = 0; i < count_; ++i) {
    detail::moveBytes(out, views[i].data, views[i].size);
    out += views[i].size;
  }
  text.resize(total);  // not longer: inline
  return true;
}

// Literals and header reads only (a header read never fails), none of `target`: a hash that
// agrees is taken as the same name.
bool TemplateNode::rendersBeside(const HeaderKey& target) const noexcept {
  for (const Part& part : *this) {
    if (part.literal) continue;
    const HeaderKey* key = part.header;
    if (!key || key->hash() == target.hash()) return false;
  }
  return true;
}

const Value* TemplateNode::evaluate(Exchange& ex, Value& scratch) const noexcept {
  // Render into a local slot first: a part may read the value `scratch` is about to replace.
  ScratchValue out;
  if (!appendText(ex, out->resetString())) return nullptr;
  scratch.swap(*out);
  return &scratch;
}

const Value* PredicateValueNode::evaluate(Exchange& ex, Value&) const noexcept {
  bool matched = predicate_->matches(ex);
  if (!matched && ex.failed()) return nullptr;
  return &boolValue(matched);
}

const Value* TernaryNode::evaluate(Exchange& ex, Value& scratch) const noexcept {
  bool matched = condition_->matches(ex);
  if (!matched && ex.failed()) return nullptr;
  return (matched ? when_true_ : when_false_)->evaluate(ex, scratch);
}

const Value* ElvisNode::evaluate(Exchange& ex, Value& scratch) const noexcept {
  const Value* v = value_->evaluate(ex, scratch);
  if (!v) return nullptr;
  if (hasEffectiveValue(*v)) return v;
  return fallback_->evaluate(ex, scratch);
}

const Value* IncrementNode::evaluate(Exchange& ex, Value& scratch) const noexcept {
  ScratchValue s;
  const Value* v = value_->evaluate(ex, *s);
  if (!v) return nullptr;
  if (!v->isDouble()) {
    if (auto i = v->tryAs<int64_t>()) {
      scratch = Value(*i + delta_);
      return &scratch;
    }
  }
  if (auto d = v->tryAs<double>()) {
    scratch = Value(*d + delta_);
    return &scratch;
  }
  return failEvaluation(ex, source_,
                        v->isNull() ? "cannot increment null"
                                    : "cannot increment a value that is not a number");
}

}  // namespace dromedary::simplelang
