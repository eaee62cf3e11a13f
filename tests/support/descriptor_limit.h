// SPDX-License-Identifier: Apache-2.0
#pragma once

// Lowers this process's descriptor limit to the descriptors open now plus a few, until
// destroyed: how a test exhausts descriptors (accept fails with EMFILE) without exhausting
// the machine's.

#include <sys/resource.h>

#include <cstddef>
#include <filesystem>

namespace dromedary::testing {

class DescriptorLimit {
 public:
  explicit DescriptorLimit(size_t spare) {
    ok_ = getrlimit(RLIMIT_NOFILE, &saved_) == 0;
    size_t open_now = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
      ++open_now;
    }
    rlimit low = saved_;
    low.rlim_cur = open_now + spare;
    ok_ = ok_ && setrlimit(RLIMIT_NOFILE, &low) == 0;
  }
  ~DescriptorLimit() { restore(); }
  DescriptorLimit(const DescriptorLimit&) = delete;
  DescriptorLimit& operator=(const DescriptorLimit&) = delete;

  /// Whether the limit was lowered.
  bool ok() const noexcept { return ok_; }
  /// Puts the limit back (the destructor does too).
  void restore() noexcept {
    if (ok_) setrlimit(RLIMIT_NOFILE, &saved_);
    ok_ = false;
  }

 private:
  rlimit saved_{};
  bool ok_ = false;
};

}  // namespace dromedary::testing
