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

struct Channel {
  explicit Channel(ChannelSync& s) : sync(s) {}
  /// "direct://name": the subject of its failures, made when one is reported (a string of its
  /// own for each channel would be a third of its size, and half again above 15 characters).
  std::string uri() const { return fmt::format("direct://{}", name); }
  std::string_view name;  // its key in the component's map (a node does not move)
  std::atomic<Processor*> consumer{nullptr};
  ChannelSync& sync;
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
  std::mutex mutex_;  // for channels_
  std::map<std::string, Channel, std::less<>> channels_;  // by name; a node does not move
  ChannelSync sync_;
};

}  // namespace dromedary::component::direct
