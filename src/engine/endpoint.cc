// SPDX-License-Identifier: Apache-2.0
// Endpoint's polling consumer: created once, on first use, then read without a lock.
#include <mutex>

#include <fmt/format.h>

#include <dromedary/spi/component.h>

namespace dromedary {

Result<std::unique_ptr<PollingConsumer>> Endpoint::createPollingConsumer() {
  return makeError(ErrorCode::InvalidRoute,
                   fmt::format("endpoint '{}' cannot be polled (the {} component has no polling "
                               "consumer)",
                               uri(), component().scheme()));
}

Endpoint::~Endpoint() { delete polling_.load(std::memory_order_acquire); }

Result<PollingConsumer*> Endpoint::pollingConsumer() {
  if (PollingConsumer* ready = polling_.load(std::memory_order_acquire)) return ready;
  static std::mutex creating;
  std::lock_guard lock(creating);
  if (PollingConsumer* ready = polling_.load(std::memory_order_relaxed)) return ready;
  DROMEDARY_TRY(created, createPollingConsumer());
  PollingConsumer* made = created.release();
  polling_.store(made, std::memory_order_release);
  return made;
}

}  // namespace dromedary
