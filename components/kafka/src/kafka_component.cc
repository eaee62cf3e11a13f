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
  // Camel's component-level settings, camel.component.kafka.NAME (or its kebab-case), for
  // each option the URI does not give: the URI with them added, or nullopt when none is set.
  Result<std::optional<Uri>> withComponentProperties(const Uri& uri,
                                                     const EndpointOptions& options) {
    std::string extra;
    for (const OptionSpec& spec : kafkaOptions()) {
      if (options.isSet(spec.name)) continue;
      std::string kebab;
      for (char c : spec.name) {
        if (c >= 'A' && c <= 'Z') {
          kebab += '-';
          kebab += static_cast<char>(c - 'A' + 'a');
        } else {
          kebab += c;
        }
      }
      auto value = context().properties().get(fmt::format("camel.component.kafka.{}", spec.name));
      if (!value) value = context().properties().get("camel.component.kafka." + kebab);
      if (!value) continue;
      auto resolved = context().properties().resolve(*value);  // {{...}} in the value
      if (!resolved) {
        return makeError(resolved.error().code,
                         fmt::format("camel.component.kafka.{} for endpoint '{}': {}", spec.name,
                                     uri.text(), resolved.error().message));
      }
      value = std::move(*resolved);
      extra += fmt::format("{}{}={}", extra.empty() && uri.options().empty() ? "" : "&",
                           spec.name, encodeUriComponent(*value));
    }
    // librdkafka properties for every endpoint, as Camel writes them in a properties file:
    // camel.component.kafka.additionalProperties[NAME]=VALUE (or additional-properties[...]).
    for (std::string_view family : {"camel.component.kafka.additionalProperties[",
                                    "camel.component.kafka.additional-properties["}) {
      for (const auto& [key, raw] : context().properties().withPrefix(family)) {
        if (!key.ends_with(']') || key.size() == family.size() + 1) {
          return makeError(ErrorCode::InvalidOption,
                           fmt::format("property '{}': expected {}NAME]", key, family));
        }
        std::string name = key.substr(family.size(), key.size() - family.size() - 1);
        if (uri.option("additionalProperties." + name)) continue;  // the endpoint's wins
        auto value = context().properties().resolve(raw);
        if (!value) {
          return makeError(value.error().code,
                           fmt::format("property '{}': {}", key, value.error().message));
        }
        extra += fmt::format("{}additionalProperties.{}={}",
                             extra.empty() && uri.options().empty() ? "" : "&", name,
                             encodeUriComponent(*value));
      }
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
