// SPDX-License-Identifier: Apache-2.0
#pragma once

// ScratchValue: a temporary Value for evaluating expressions on the per-message path.
// Slots come from a per-thread stack and keep their capacity, so after warm-up taking one
// allocates nothing; nesting (an expression evaluated while another is) takes the next slot.

#include <memory>
#include <vector>

#include <dromedary/core/value.h>

namespace dromedary {

class ScratchValue {
 public:
  ScratchValue() noexcept;
  ~ScratchValue();
  ScratchValue(const ScratchValue&) = delete;
  ScratchValue& operator=(const ScratchValue&) = delete;

  Value& operator*() noexcept { return *value_; }
  Value* operator->() noexcept { return value_; }
  Value* get() noexcept { return value_; }

 private:
  Value* value_;
};

}  // namespace dromedary
