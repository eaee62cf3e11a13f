// SPDX-License-Identifier: Apache-2.0
// kamelet: the endpoints that join a route to the routes made from the Kamelets it uses.
//
// Kamelets are instantiated when route files load (src/dsl/kamelet/): each use becomes a route
// of its own, and the loader rewrites the URIs to the three forms this component serves, all
// keyed by the instance's route id (RID), as Camel's kamelet component keys them:
//   kamelet:NAME/RID            the use: a producer calls the instance (a sink or action
//                               Kamelet); a consumer (a route's from) receives what a source
//                               Kamelet's instance sends to its sink
//   kamelet:source?routeId=RID  the instance's from, when the Kamelet is a sink or an action
//   kamelet:sink?routeId=RID    the instance's way back to the route that uses it as its from
// Each is a direct channel of the context's direct component (in the caller's thread, no
// queue, no copy): `kamelet:NAME/RID` and `kamelet:source` share one, `kamelet:sink` and a
// route's `from: kamelet:NAME/RID` the other. A URI still holding Kamelet properties was not
// made by the loader (C++ code, toD): it is refused, saying where Kamelets are instantiated.
#include <fmt/format.h>

#include <mutex>
#include <vector>

#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

namespace dromedary {
namespace component::kamelet {

namespace {

constexpr OptionSpec kOptions[] = {
    {"routeId", OptionType::String, "",
     "The Kamelet instance's route id (kamelet:source and kamelet:sink); the loader sets it"},
    {"block", OptionType::Bool, "true",
     "When the instance is not started yet, wait for it (up to timeout) instead of failing"},
    {"timeout", OptionType::Duration, "30000", "How long a blocked producer waits"},
};

class KameletEndpoint final : public Endpoint {
 public:
  KameletEndpoint(Component& component, Uri uri, EndpointOptions options,
                  std::string producer_channel, std::string consumer_channel)
      : Endpoint(component, std::move(uri), std::move(options)),
        producer_channel_(std::move(producer_channel)),
        consumer_channel_(std::move(consumer_channel)) {}

  std::string exclusiveConsumerKey() const override { return consumer_channel_; }

  Result<std::unique_ptr<Producer>> createProducer() override {
    DROMEDARY_TRY(direct, directEndpoint(producer_channel_));
    return direct->createProducer();
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    DROMEDARY_TRY(direct, directEndpoint(consumer_channel_));
    return direct->createConsumer(processor);
  }

 private:
  // The direct endpoint of `channel`, made by the direct component itself and kept here (the
  // context is busy making this endpoint's producer or consumer: it cannot be asked for one).
  Result<Endpoint*> directEndpoint(const std::string& channel) {
    Component* direct = context().component("direct");
    if (!direct) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("{}: the kamelet component runs on the direct component, "
                                   "which this build leaves out",
                                   uri()));
    }
    DROMEDARY_TRY(parsed, Uri::parse(fmt::format(
                              "{}?block={}&timeout={}", channel,
                              options().getBool("block") ? "true" : "false",
                              options().getDuration("timeout").count())));
    DROMEDARY_TRY(options, EndpointOptions::resolve(direct->endpointOptions(), parsed));
    DROMEDARY_TRY(endpoint, direct->createEndpoint(parsed, std::move(options)));
    std::lock_guard lock(mutex_);
    directs_.push_back(std::move(endpoint));
    return directs_.back().get();
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Endpoint>> directs_;
  // "direct:kamelet.source.RID" (into the instance) or "direct:kamelet.sink.RID" (out of it)
  std::string producer_channel_;
  std::string consumer_channel_;
};

class KameletComponent final : public Component {
 public:
  std::string_view scheme() const override { return "kamelet"; }
  std::string_view syntax() const override { return "kamelet:templateId/routeId"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    const std::string path(uri.path());
    const std::string route_id = options.getString("routeId");
    std::string producer;
    std::string consumer;
    if (path == "source" || path == "sink") {
      if (route_id.empty()) {
        return makeError(ErrorCode::InvalidUri,
                         fmt::format("'{}' is used outside a Kamelet: kamelet:{} stands for the "
                                     "Kamelet's {} and means something only in a Kamelet's "
                                     "template",
                                     uri.text(), path,
                                     path == "source" ? "input" : "output"));
      }
      producer = consumer = fmt::format("direct:kamelet.{}.{}", path, route_id);
    } else {
      const size_t slash = path.find('/');
      if (path.empty() || slash == std::string::npos || slash == 0 || slash + 1 == path.size()) {
        return makeError(
            ErrorCode::InvalidUri,
            fmt::format("'{}' names no Kamelet instance: Kamelets are instantiated when route "
                        "files are loaded (from, to, wireTap and a dead letter URI of a YAML or "
                        "XML route, a Pipe); from C++ code or toD they cannot be",
                        uri.text()));
      }
      // The use's own channel: a producer calls the instance's source, a consumer receives
      // from the instance's sink.
      producer = fmt::format("direct:kamelet.source.{}", path.substr(slash + 1));
      consumer = fmt::format("direct:kamelet.sink.{}", path.substr(slash + 1));
    }
    return std::unique_ptr<Endpoint>(new KameletEndpoint(*this, uri, std::move(options),
                                                         std::move(producer), std::move(consumer)));
  }
};

}  // namespace

}  // namespace component::kamelet

void registerKameletComponent(Context& context) {
  context.addComponent(std::make_unique<component::kamelet::KameletComponent>());
}

}  // namespace dromedary
