// SPDX-License-Identifier: Apache-2.0
#include "core/scratch.h"

namespace dromedary {

namespace {
struct ScratchStack {
  std::vector<std::unique_ptr<Value>> slots;
  size_t depth = 0;
};
thread_local ScratchStack stack;
}  // namespace

ScratchValue::ScratchValue() noexcept {
  if (stack.depth == stack.slots.size()) {
    // Warm-up only: a thread's deepest nesting is reached once. Out of memory is fatal.
    stack.slots.push_back(std::make_unique<Value>());
  }
  value_ = stack.slots[stack.depth++].get();
}

ScratchValue::~ScratchValue() {
  // Keep a string's capacity; drop references to shared buffers at once.
  if (!value_->isString()) value_->reset();
  --stack.depth;
}

}  // namespace dromedary
