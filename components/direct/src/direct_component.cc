// SPDX-License-Identifier: Apache-2.0
#include "direct_component.h"

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>

namespace dromedary {
namespace component::direct {

namespace {

constexpr OptionSpec kOptions[] = {
    {"block", OptionType::Bool, "true",
     "When there is no consumer, wait for one to start (up to timeout) instead of failing"},
    {"failIfNoConsumers", OptionType::Bool, "true",
     "Fail the exchange when there is no consumer; when false the message is logged and "
     "dropped"},
    {"timeout", OptionType::Duration, "30000",
     "How long a blocked producer waits for a consumer (500, 5s, 1m ...)"},
};

class DirectProducer final : public Producer {
 public:
  DirectProducer(Channel& channel, ChannelSync& sync, std::string subject, bool block,
                 std::chrono::milliseconds timeout, bool fail_if_none)
      : channel_(channel),
        sync_(sync),
        subject_(std::move(subject)),
        block_(block),
        timeout_(timeout),
        fail_if_none_(fail_if_none),
        log_(Logger::get("dromedary.direct")) {}

  // A load and a tail call: the wait for a consumer is out of line, so this keeps no frame.
  Status process(Exchange& ex) noexcept override {
    Processor* consumer = channel_.consumer.load(std::memory_order_acquire);
    if (!consumer) [[unlikely]] return processWithoutConsumer(ex);
    return consumer->process(ex);
  }

 private:
  [[gnu::noinline]] Status processWithoutConsumer(Exchange& ex) noexcept {
    Processor* consumer = awaitConsumer();
    if (!consumer) return noConsumer(ex);
    return consumer->process(ex);
  }

  Processor* awaitConsumer() noexcept {
    if (!block_ || timeout_.count() <= 0) return nullptr;
    std::unique_lock lock(sync_.mutex);
    sync_.attached.wait_for(lock, timeout_, [this] {
      return channel_.consumer.load(std::memory_order_acquire) != nullptr;
    });
    return channel_.consumer.load(std::memory_order_acquire);
  }

  Status noConsumer(Exchange& ex) noexcept {
    if (!fail_if_none_) {
      if (log_.enabled(LoggingLevel::Warn)) {
        try {
          log_.log(LoggingLevel::Warn,
                   fmt::format("No consumers available on endpoint: {}; message dropped "
                               "(failIfNoConsumers=false)",
                               subject_));
        } catch (...) {
        }
      }
      return Status::Continue;
    }
    ex.fail(ErrorCode::NoConsumers, "No consumers available on endpoint", subject_);
    return Status::Fail;
  }

  Channel& channel_;
  ChannelSync& sync_;
  const std::string subject_;  // "direct://name": a failure's subject, which must stay put
  bool block_;
  std::chrono::milliseconds timeout_;
  bool fail_if_none_;
  Logger log_;
};

class DirectConsumer final : public Consumer {
 public:
  DirectConsumer(Channel& channel, ChannelSync& sync, const Endpoint& endpoint,
                 Processor& processor)
      : channel_(channel), sync_(sync), endpoint_(endpoint), processor_(processor) {}
  ~DirectConsumer() override { stop(); }

  Result<void> start() override {
    std::lock_guard lock(sync_.mutex);
    Processor* current = channel_.consumer.load(std::memory_order_acquire);
    if (current == &processor_) return {};
    if (current) {
      return makeError(ErrorCode::DuplicateConsumer,
                       fmt::format("Cannot add a 2nd consumer to the same endpoint: {}. A direct "
                                   "endpoint allows only one consumer.",
                                   channelUri(endpoint_.parsedUri().path())));
    }
    channel_.consumer.store(&processor_, std::memory_order_release);
    sync_.attached.notify_all();
    return {};
  }

  bool internal() const noexcept override { return true; }

  void stop() noexcept override {
    std::lock_guard lock(sync_.mutex);
    if (channel_.consumer.load(std::memory_order_acquire) == &processor_) {
      channel_.consumer.store(nullptr, std::memory_order_release);
    }
  }

 private:
  Channel& channel_;
  ChannelSync& sync_;
  const Endpoint& endpoint_;
  Processor& processor_;
};

class DirectEndpoint final : public Endpoint {
 public:
  DirectEndpoint(Component& component, Uri uri, EndpointOptions options, Channel& channel)
      : Endpoint(component, std::move(uri), std::move(options)), channel_(channel) {}

  std::string exclusiveConsumerKey() const override { return channelUri(parsedUri().path()); }

  Result<std::unique_ptr<Producer>> createProducer() override {
    return std::unique_ptr<Producer>(new DirectProducer(
        channel_, sync(), channelUri(parsedUri().path()), options().getBool("block"),
        options().getDuration("timeout"), options().getBool("failIfNoConsumers")));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    return std::unique_ptr<Consumer>(new DirectConsumer(channel_, sync(), *this, processor));
  }

 private:
  ChannelSync& sync() const noexcept { return static_cast<DirectComponent&>(component()).sync(); }
  Channel& channel_;
};

}  // namespace

std::span<const OptionSpec> DirectComponent::endpointOptions() const { return kOptions; }

Result<std::unique_ptr<Endpoint>> DirectComponent::createEndpoint(const Uri& uri,
                                                                  EndpointOptions options) {
  if (uri.path().empty()) {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("direct endpoint '{}' has no name (expected 'direct:name')",
                                 uri.text()));
  }
  std::lock_guard lock(mutex_);
  auto it = channels_.find(uri.path());
  if (it == channels_.end()) it = channels_.try_emplace(std::string(uri.path())).first;
  return std::unique_ptr<Endpoint>(
      new DirectEndpoint(*this, uri, std::move(options), it->second));
}

}  // namespace component::direct

void registerDirectComponent(Context& context) {
  context.addComponent(std::make_unique<component::direct::DirectComponent>());
}

}  // namespace dromedary
