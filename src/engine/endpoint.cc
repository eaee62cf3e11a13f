// SPDX-License-Identifier: Apache-2.0
// Endpoint's polling consumer: created once, on first use, then read without a lock.
#include <fmt/format.h>

#include <dromedary/spi/component.h>

namespace dromedary {

Result<std::unique_ptr<PollingConsumer>> Endpoint::createPollingConsumer() {
  return makeError(ErrorCode::InvalidRoute,
                   fmt::format("endpoint '{}' cannot be polled (the {} component has no polling "
                               "consumer)",
                               uri(), component().scheme()));
}

Result<PollingConsumer*> Endpoint::pollingConsumer() {
  if (PollingConsumer* ready = polling_ready_.load(std::memory_order_acquire)) return ready;
  std::lock_guard lock(polling_mutex_);
  if (!polling_) {
    DROMEDARY_TRY(created, createPollingConsumer());
    polling_ = std::move(created);
    polling_ready_.store(polling_.get(), std::memory_order_release);
  }
  return polling_.get();
}

}  // namespace dromedary
