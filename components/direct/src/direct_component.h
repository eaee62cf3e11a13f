// SPDX-License-Identifier: Apache-2.0
#pragma once

// direct: synchronous call into the consuming route, in the caller's thread.
//
// Endpoints with the same name (whatever their options) share one channel; a channel has at
// most one consumer. A producer reads the channel's consumer with one atomic load (a plain
// load on x86) and calls it: no queue, no lock, no copy. With no consumer, the producer
// waits up to `timeout` for one when `block` is on (Camel's default), then fails with
// "No consumers available on endpoint: direct://name" unless `failIfNoConsumers` is off.

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <dromedary/spi/component.h>

namespace dromedary::component::direct {

struct Channel {
  explicit Channel(std::string u) : uri(std::move(u)) {}
  const std::string uri;  // "direct://name": the stable subject of failures
  std::atomic<Processor*> consumer{nullptr};
  std::mutex mutex;  // only for waiting on a consumer and for attach/detach
  std::condition_variable attached;
};

class DirectComponent final : public Component {
 public:
  // Component
  std::string_view scheme() const override { return "direct"; }
  std::string_view syntax() const override { return "direct:name"; }
  std::span<const OptionSpec> endpointOptions() const override;
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override;

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Channel>> channels_;
};

}  // namespace dromedary::component::direct
