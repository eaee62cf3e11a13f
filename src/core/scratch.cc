// SPDX-License-Identifier: Apache-2.0
#include "core/scratch.h"

namespace dromedary {

namespace {
// Nesting deeper than this is unusual; beyond it, slots come from an overflow list.
constexpr size_t kInlineSlots = 16;

struct ScratchStack {
  Value slots[kInlineSlots];
  std::vector<std::unique_ptr<Value>> overflow;
  size_t depth = 0;
};
thread_local ScratchStack stack;
}  // namespace

ScratchValue::ScratchValue() noexcept {
  ScratchStack& s = stack;
  size_t d = s.depth++;
  if (d < kInlineSlots) [[likely]] {
    value_ = &s.slots[d];
    return;
  }
  d -= kInlineSlots;
  // Out of memory here is fatal (noexcept), as everywhere else.
  if (d == s.overflow.size()) s.overflow.push_back(std::make_unique<Value>());
  value_ = s.overflow[d].get();
}

ScratchValue::~ScratchValue() {
  // Keep a string's capacity; drop references to shared buffers at once.
  if (!value_->isString() && !value_->isNull()) value_->reset();
  --stack.depth;
}

}  // namespace dromedary
