// SPDX-License-Identifier: Apache-2.0
// kafka: — the component, its endpoints, and the producers they share (one librdkafka
// producer per distinct configuration). Options are in kafka_settings.cc, the consumer in
// kafka_consumer.cc, the producer in kafka_producer.cc.
#include <map>
#include <mutex>

#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/kafka/kafka.h>
#include <dromedary/spi/component.h>

#include "kafka_consumer.h"
#include "kafka_failure.h"
#include "kafka_producer.h"
#include "kafka_records.h"

namespace dromedary {
namespace component::kafka {

namespace {

// The producers of a context, by configuration: endpoints whose librdkafka properties are
// the same share one (Camel users expect one producer per configuration, not per route).
class Producers {
 public:
  ProducerClient* get(Context& context, const KafkaSettings& s) {
    std::vector<std::pair<std::string, std::string>> key = s.common;
    key.insert(key.end(), s.producer.begin(), s.producer.end());
    std::lock_guard lock(mutex_);
    auto& slot = clients_[key];
    if (!slot) slot = std::make_unique<ProducerClient>(context, s.uri, s.common, s.producer);
    return slot.get();
  }

 private:
  std::mutex mutex_;
  std::map<Properties, std::unique_ptr<ProducerClient>> clients_;
};

class KafkaEndpoint final : public Endpoint {
 public:
  KafkaEndpoint(Component& component, Uri uri, EndpointOptions options, KafkaSettings settings,
                Producers& producers)
      : Endpoint(component, std::move(uri), std::move(options)),
        settings_(std::move(settings)), producers_(producers) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    if (settings_.topicIsPattern || settings_.topics.size() > 1) {
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("cannot send to '{}': a producer sends to one topic (a "
                                   "list or a pattern is for consumers)",
                                   uri()));
    }
    ProducerClient* client = producers_.get(context(), settings_);
    return std::unique_ptr<Producer>(std::make_unique<KafkaProducer>(settings_, *client));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    return std::unique_ptr<Consumer>(
        std::make_unique<KafkaConsumer>(context(), settings_, processor));
  }

 private:
  KafkaSettings settings_;
  Producers& producers_;
};

class KafkaComponent final : public Component {
 public:
  std::string_view scheme() const override { return "kafka"; }
  std::string_view syntax() const override { return "kafka:topic"; }
  std::span<const OptionSpec> endpointOptions() const override { return kafkaOptions(); }
  // Unknown options are taken here: additionalProperties.* pass to librdkafka, any other is
  // refused (kafkaSettings), naming the option.
  bool lenientOptions() const noexcept override { return true; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    DROMEDARY_TRY(merged, withComponentProperties(uri, options));
    const Uri& effective = merged ? *merged : uri;
    if (merged) {
      DROMEDARY_TRY(reread, EndpointOptions::resolve(kafkaOptions(), effective, true));
      options = std::move(reread);
    }
    DROMEDARY_TRY(settings, kafkaSettings(context(), effective, options, options.unknownOptions()));
    settings.uri = uri.text();
    return std::unique_ptr<Endpoint>(std::make_unique<KafkaEndpoint>(
        *this, uri, std::move(options), std::move(settings), producers_));
  }

 private:
  // Camel's component-level settings for each option the URI does not give:
  // camel.component.kafka.NAME (any case, or kebab-case, matched as URI options are) and
  // camel.component.kafka.additionalProperties[NAME] (or additional-properties[NAME]). The URI
  // with them added, or nullopt when none applies. Keys that name no endpoint option (Camel's
  // component-only settings) are left alone.
  Result<std::optional<Uri>> withComponentProperties(const Uri& uri,
                                                     const EndpointOptions& options) {
    constexpr std::string_view base = "camel.component.kafka.";
    std::string extra;
    for (const auto& [key, raw] : context().properties().withPrefix(base)) {
      std::string_view suffix = std::string_view(key).substr(base.size());
      std::string name;
      std::string_view family;
      for (std::string_view f : {"additionalProperties[", "additional-properties["}) {
        if (suffix.starts_with(f)) family = f;
      }
      if (!family.empty()) {
        if (!suffix.ends_with(']') || suffix.size() == family.size() + 1) {
          return makeError(ErrorCode::InvalidOption,
                           fmt::format("property '{}': expected {}{}NAME]", key, base, family));
        }
        name = fmt::format("additionalProperties.{}",
                           suffix.substr(family.size(), suffix.size() - family.size() - 1));
        if (uri.option(name)) continue;  // the endpoint's own wins
      } else {
        const OptionSpec* spec = nullptr;
        for (const OptionSpec& s : kafkaOptions()) {
          if (EndpointOptions::names({&s, 1}, suffix)) spec = &s;
        }
        if (!spec || options.isSet(spec->name)) continue;
        name = spec->name;
      }
      auto value = context().properties().resolve(raw);  // {{...}} in the value
      if (!value) {
        return makeError(value.error().code,
                         fmt::format("property '{}' for endpoint '{}': {}", key, uri.text(),
                                     value.error().message));
      }
      extra += fmt::format("{}{}={}", extra.empty() && uri.options().empty() ? "" : "&", name,
                           encodeUriComponent(*value));
    }
    if (extra.empty()) return std::optional<Uri>();
    std::string text = uri.text();
    text += text.find('?') == std::string::npos ? "?" : "";
    text += extra;
    DROMEDARY_TRY(parsed, Uri::parse(text));
    return std::optional<Uri>(std::move(parsed));
  }

  Producers producers_;
};

}  // namespace

}  // namespace component::kafka

const KafkaManualCommit* kafkaManualCommit(const Exchange& exchange) noexcept {
  const Value* v = exchange.message().headers().get(component::kafka::header::kManualCommit);
  return v ? v->getIf<KafkaManualCommit>() : nullptr;
}

void registerKafkaComponent(Context& context) {
  using namespace component::kafka;
  context.addComponent(std::make_unique<KafkaComponent>());
  registerKafkaExceptionTypes(context);
}

}  // namespace dromedary
