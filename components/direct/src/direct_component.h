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
#include <string_view>

#include <fmt/format.h>

#include <dromedary/spi/component.h>

namespace dromedary::component::direct {

/// What a producer waiting for a consumer waits on: one for all of a component's channels
/// (waiting is rare, and a lock and condition of its own would be most of a channel's size in
/// a context of many routes). Also held to attach and detach consumers.
struct ChannelSync {
  std::mutex mutex;
  std::condition_variable attached;
};

/// A channel is its consumer only: its name is its key in the component's map, and the lock
/// and condition are the component's (a context may hold many thousand channels).
struct Channel {
  std::atomic<Processor*> consumer{nullptr};
};

/// "direct://name": the subject of a channel's failures, made when one is reported.
inline std::string channelUri(std::string_view name) { return fmt::format("direct://{}", name); }

class DirectComponent final : public Component {
 public:
  // Component
  std::string_view scheme() const override { return "direct"; }
  std::string_view syntax() const override { return "direct:name"; }
  std::span<const OptionSpec> endpointOptions() const override;
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override;
  /// The lock and condition every channel's producers and consumers share.
  ChannelSync& sync() noexcept { return sync_; }

 private:
  std::mutex mutex_;  // for channels_
  std::map<std::string, Channel, std::less<>> channels_;  // by name; a node does not move
  ChannelSync sync_;
};

}  // namespace dromedary::component::direct
