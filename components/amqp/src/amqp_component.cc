// SPDX-License-Identifier: Apache-2.0
// amqp:[queue:|topic:]NAME — the component, its option table, endpoints, producer and consumer.
// The connection machinery is in connection.h; this file maps Camel's options onto it.
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include <map>

#include <dromedary/amqp/amqp_component.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/option_table.h>

#include "client.h"
#include "connection.h"

namespace dromedary {
namespace component::amqp {

namespace {

constexpr OptionSpec kOptions[] = {
    {"remoteURI", OptionType::String, "",
     "This endpoint's broker (amqp://host:port), on a connection of its own; default: the "
     "component's camel.component.amqp.remoteURI"},
    {"concurrentConsumers", OptionType::Int, "1",
     "Receiver links consuming for a route, each processing its messages in order"},
    {"exchangePattern", OptionType::Enum, "",
     "InOnly or InOut for every message sent (default: the exchange's own pattern)",
     "InOnly,InOut"},
    {"replyTo", OptionType::String, "",
     "A named reply queue for requests (default: a temporary queue per connection)"},
    {"replyToType", OptionType::Enum, "",
     "Temporary (a dynamic node per connection; the default), Exclusive (replyTo is ours "
     "alone), Shared (replyTo is shared; the default when replyTo is set)",
     "Temporary,Shared,Exclusive"},
    {"requestTimeout", OptionType::Duration, "20000",
     "How long a request waits for its reply, and any message for the broker to take it"},
    {"deliveryPersistent", OptionType::Bool, "true",
     "Send durable messages, and complete a one-way send only once the broker accepted it"},
    {"replyToDeliveryPersistent", OptionType::Bool, "true",
     "Send replies (of a consumer route) as durable messages"},
    {"timeToLive", OptionType::Int, "-1", "Message time to live in milliseconds (-1: none)"},
    {"priority", OptionType::Int, "-1", "Message priority 0-9 (-1: the broker's default)"},
    {"preserveMessageQos", OptionType::Bool, "false",
     "Take priority, delivery mode and expiration from the JMSPriority, JMSDeliveryMode and "
     "JMSExpiration headers"},
    {"durableSubscriptionName", OptionType::String, "",
     "Topics: a durable subscription under this name"},
    {"selector", OptionType::String, "",
     "A JMS selector (apache.org:selector-filter:string) for brokers that support it"},
    {"prefetch", OptionType::Int, "100",
     "Credit per receiver link: the most messages fetched ahead of processing"},
    {"transferException", OptionType::Bool, "false",
     "InOut: a failed consumer route replies with its failure, which fails the requester's "
     "exchange"},
    {"headerFilterStrategy", OptionType::String, "",
     "#name of a bound HeaderFilterStrategy deciding which headers are sent and taken; "
     "default: Camel's own (Camel*, org.apache.camel.*) never are"},
    {"disableReplyTo", OptionType::Bool, "false",
     "Treat every message as InOnly: no reply queue, no reply sent"},
};

class AmqpProducer final : public Producer {
 public:
  AmqpProducer(Connection& connection, const ProducerSpec& spec)
      : connection_(connection), spec_(spec) {}
  Status process(Exchange& exchange) noexcept override {
    // The exchange belongs to the Proton thread from here until it is resumed.
    return connection_.send(exchange, spec_) ? Status::Suspend : Status::Fail;
  }
  // It queues the message for the Proton thread and parks the exchange: it never waits.
  bool mayBlock() const noexcept override { return false; }

 private:
  Connection& connection_;
  const ProducerSpec& spec_;
};

class AmqpConsumer final : public Consumer {
 public:
  AmqpConsumer(Connection& connection, std::shared_ptr<ConsumerGroup> group)
      : connection_(connection), group_(std::move(group)) {}
  // What a stop left open closes now: links that waited for an exchange still running past
  // the stop's timeout are not waited for (the timeout holds; the broker delivers it again).
  ~AmqpConsumer() override {
    stop();
    if (!started_before_ || group_->released.load()) return;
    connection_.removeConsumer(group_, /*wait=*/completing() == 0);
  }
  Result<void> start() override {
    if (running_) return {};
    if (started_before_) {  // a restart: a fresh group (the old one may still settle)
      auto fresh = std::make_shared<ConsumerGroup>();
      fresh->spec = group_->spec;
      fresh->context = group_->context;
      fresh->route = group_->route;
      group_ = std::move(fresh);
    }
    // A route that cannot block runs on the connection's thread, as the message arrives: no
    // hand-off to a worker and back for its settle. One link only: concurrentConsumers > 1
    // asks for routes running side by side, which one I/O thread would serialize.
    group_->runInline = group_->spec.concurrentConsumers == 1 && !group_->route->mayBlock();
    // Wait briefly for the links, so a topic subscription exists when start() returns; a
    // broker that is down does not hold the start up for longer.
    connection_.addConsumer(group_, std::chrono::seconds(5));
    running_ = true;
    started_before_ = true;
    if (!group_->refusal.empty()) {
      std::string reason = group_->refusal;
      stop();
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("the broker refused to let '{}' consume from '{}': {}",
                                   group_->spec.uri, group_->spec.address, reason));
    }
    return {};
  }
  // Camel's graceful stop: no new message goes into the route, and the exchanges in it keep
  // their link until they end, so that each is acknowledged (a closed link's late settle
  // would go nowhere, and the broker would deliver the message again).
  void stop() noexcept override {
    if (!running_) return;
    running_ = false;
    connection_.stopIntake(group_);
  }
  // From the route's exit to the acknowledgement, on the connection's thread.
  size_t completing() const noexcept override {
    return running_ ? 0 : static_cast<size_t>(std::max(0, group_->unsettled.load()));
  }
  // Past the stop's timeout: the links close now; the broker delivers again what is unsettled.
  size_t abandonPending() noexcept override {
    const size_t left = completing();
    if (left > 0) connection_.removeConsumer(group_, /*wait=*/false);
    return left;
  }
  std::string healthProblem() const override {
    if (!connection_.isOpen()) {
      return fmt::format("not connected to the broker at {} (reconnecting)",
                         connection_.remoteUri());
    }
    const int links = group_->spec.concurrentConsumers;
    const int attached = group_->attached.load(std::memory_order_relaxed);
    if (attached < links) {
      return fmt::format("{} of {} receiver links to '{}' open (the broker ended the others; "
                         "opening them again)",
                         attached, links, group_->spec.address);
    }
    return {};
  }

 private:
  Connection& connection_;
  std::shared_ptr<ConsumerGroup> group_;
  bool running_ = false;
  bool started_before_ = false;
};

class AmqpComponent;

class AmqpEndpoint final : public Endpoint {
 public:
  AmqpEndpoint(AmqpComponent& component, const Uri& uri, EndpointOptions options,
               ProducerSpec producer, ConsumerSpec consumer, std::string remote_uri);
  Result<std::unique_ptr<Producer>> createProducer() override;
  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override;

 private:
  AmqpComponent& amqp_;
  const ProducerSpec producer_spec_;
  const ConsumerSpec consumer_spec_;
  const std::string remote_uri_;  // the broker of this endpoint's client
};

// ActiveMQ's brokerUrl as an AMQP URL: tcp://h:p, nio://h:p, amqp://h:p, ssl://h:p (amqps),
// failover:(tcp://a:1,tcp://b:2)?opts (the first).
Result<std::string> amqpUrlOfBrokerUrl(std::string_view url, const std::string& property) {
  std::string_view u = url;
  if (u.starts_with("failover:")) {
    u.remove_prefix(9);
    if (u.starts_with("(")) u.remove_prefix(1);
    u = u.substr(0, u.find_first_of(",)"));
  }
  u = u.substr(0, u.find('?'));
  for (auto [from, to] : {std::pair{"tcp://", "amqp://"}, std::pair{"nio://", "amqp://"},
                          std::pair{"amqp://", "amqp://"}, std::pair{"ssl://", "amqps://"},
                          std::pair{"amqps://", "amqps://"}}) {
    if (u.starts_with(from)) return std::string(to) + std::string(u.substr(std::strlen(from)));
  }
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("{}={} is not a broker this component can reach: write "
                               "tcp://HOST:PORT (spoken to in AMQP 1.0), failover:(tcp://...) "
                               "or amqp://HOST:PORT",
                               property, url));
}

class AmqpComponent final : public Component {
 public:
  AmqpComponent(std::string scheme, std::optional<AmqpConfig> config)
      : scheme_(std::move(scheme)), syntax_(scheme_ + ":destinationType:destinationName"),
        config_(std::move(config)) {}
  ~AmqpComponent() override { clients_.clear(); }

  std::string_view scheme() const override { return scheme_; }
  std::string_view syntax() const override { return syntax_; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    auto config = resolvedConfig(options.getString("remoteURI"));
    if (!config) {
      Error e = config.error();
      if (!options.getString("remoteURI").empty()) e.message += fmt::format(" (in '{}')", uri.text());
      return e;
    }
    std::string_view path = uri.path();
    if (path.starts_with("//")) path.remove_prefix(2);
    bool topic = false;
    if (path.starts_with("queue:")) {
      path.remove_prefix(6);
    } else if (path.starts_with("topic:")) {
      path.remove_prefix(6);
      topic = true;
    } else if (path.starts_with("temp-queue:") || path.starts_with("temp-topic:")) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("'{}': temporary destinations are made by the component for "
                                   "replies (replyToType=Temporary), not addressed in a URI",
                                   uri.text()));
    }
    if (path.empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("'{}' names no destination: use {}:queue:NAME, "
                                   "{}:topic:NAME or {}:NAME",
                                   uri.text(), scheme_, scheme_, scheme_));
    }
    auto bad = [&](std::string what) {
      return makeError(ErrorCode::InvalidOption, fmt::format("{} in '{}'", what, uri.text()));
    };
    ProducerSpec p;
    p.uri = uri.text();
    p.address = (topic ? config->topicPrefix : config->queuePrefix) + std::string(path);
    const std::string& pattern = options.getString("exchangePattern");
    if (!pattern.empty()) {
      p.forcedPattern = static_cast<int>(equalsIgnoreCase(pattern, "InOut") ? Pattern::InOut
                                                                           : Pattern::InOnly);
    }
    p.disableReplyTo = options.getBool("disableReplyTo");
    const std::string& reply_to = options.getString("replyTo");
    const std::string& reply_type = options.getString("replyToType");
    if (reply_type.empty()) {
      p.replyToType = reply_to.empty() ? ReplyToType::Temporary : ReplyToType::Shared;
    } else if (equalsIgnoreCase(reply_type, "Temporary")) {
      p.replyToType = ReplyToType::Temporary;
    } else {
      p.replyToType = equalsIgnoreCase(reply_type, "Exclusive") ? ReplyToType::Exclusive
                                                                : ReplyToType::Shared;
    }
    if (p.replyToType == ReplyToType::Temporary && !reply_to.empty()) {
      return bad("replyToType=Temporary cannot be combined with replyTo=" + reply_to);
    }
    if (p.replyToType != ReplyToType::Temporary && reply_to.empty()) {
      return bad("replyToType=" + reply_type + " needs a replyTo queue name");
    }
    if (!reply_to.empty()) {
      // A reply queue is a queue name, prefixed like any other (unless given as an address).
      p.replyAddress = reply_to.starts_with("/") || reply_to.find("://") != std::string::npos
                           ? reply_to
                           : config->queuePrefix + reply_to;
    }
    p.requestTimeout = options.getDuration("requestTimeout");
    if (p.requestTimeout.count() < 0) return bad("requestTimeout must not be negative");
    p.qos.durable = options.getBool("deliveryPersistent");
    p.qos.ttlMillis = options.getInt("timeToLive");
    int64_t priority = options.getInt("priority");
    if (priority < -1 || priority > 9) return bad("priority must be 0 to 9");
    p.qos.priority = static_cast<int>(priority);
    p.qos.preserveMessageQos = options.getBool("preserveMessageQos");
    p.transferException = options.getBool("transferException");
    DROMEDARY_TRY(filter, headerFilterStrategyOption(context(),
                                                     options.getString("headerFilterStrategy"),
                                                     uri.text(), amqpHeaderFilterStrategy()));
    p.headerFilter = filter;

    ConsumerSpec c;
    c.uri = uri.text();
    c.address = p.address;
    c.topic = topic;
    int64_t consumers = options.getInt("concurrentConsumers");
    if (consumers < 1 || consumers > 1000) return bad("concurrentConsumers must be 1 to 1000");
    c.concurrentConsumers = static_cast<int>(consumers);
    int64_t prefetch = options.getInt("prefetch");
    if (prefetch < 1 || prefetch > 1000000) return bad("prefetch must be 1 to 1000000");
    c.prefetch = static_cast<uint32_t>(prefetch);
    c.selector = options.getString("selector");
    c.durableSubscriptionName = options.getString("durableSubscriptionName");
    if (!c.durableSubscriptionName.empty() && !topic) {
      return bad("durableSubscriptionName applies to topics (amqp:topic:NAME) only");
    }
    c.disableReplyTo = p.disableReplyTo;
    c.transferException = p.transferException;
    c.replyQos.durable = options.getBool("replyToDeliveryPersistent");
    c.headerFilter = std::move(filter);
    return std::unique_ptr<Endpoint>(new AmqpEndpoint(*this, uri, std::move(options), std::move(p),
                                                      std::move(c), config->remoteUri));
  }

  // The client (its connections) of the broker at `remote_uri`: one per broker.
  Client& client(const std::string& remote_uri) {
    std::lock_guard lock(mutex_);
    auto& slot = clients_[remote_uri];
    if (!slot) {
      AmqpConfig config = *resolvedConfigLocked(remote_uri);  // checked when the endpoint was made
      slot = std::make_unique<Client>(context(), scheme_, std::move(config));
    }
    return *slot;
  }

  AmqpConnectionCounts counts() {
    std::lock_guard lock(mutex_);
    AmqpConnectionCounts total{};
    for (const auto& [uri, client] : clients_) {
      AmqpConnectionCounts c = client->counts();
      total.opened += c.opened;
      total.open += c.open;
    }
    return total;
  }

 private:
  Result<AmqpConfig> resolvedConfig(const std::string& remote_uri) {
    std::lock_guard lock(mutex_);
    return resolvedConfigLocked(remote_uri);
  }

  // The configuration given in C++, else the context's camel.component.<scheme>.* properties;
  // with `remote_uri` (an endpoint's remoteURI) as its broker when not empty.
  Result<AmqpConfig> resolvedConfigLocked(const std::string& remote_uri) {
    DROMEDARY_TRY(base, componentConfig());
    if (!remote_uri.empty()) base.remoteUri = remote_uri;
    std::string_view uri = base.remoteUri;
    if (!uri.starts_with("amqp://") && !uri.starts_with("amqps://")) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("the {} component's remoteURI '{}' must start with amqp:// "
                                   "or amqps://",
                                   scheme_, base.remoteUri));
    }
    return base;
  }

  Result<AmqpConfig> componentConfig() {
    if (resolved_) return *resolved_;
    AmqpConfig config = config_.value_or(AmqpConfig{});
    if (!config_) {
      Properties& props = context().properties();
      std::string base = "camel.component." + scheme_ + ".";
      // A JMS-named scheme (jms, activemq, sjms2 ...) takes what it is not given from the
      // amqp component's properties: one broker setting serves routes written either way.
      const std::string shared = "camel.component.amqp.";
      auto get = [&](const std::string& key) -> std::optional<std::string> {
        if (auto v = props.get(base + key)) return v;
        if (base != shared) return props.get(shared + key);
        return std::nullopt;
      };
      auto take = [&](const char* key, std::string& into) {
        if (auto v = get(key)) into = *v;
      };
      take("remoteURI", config.remoteUri);
      // ActiveMQ's brokerUrl (OpenWire's tcp://host:port): the same host and port over AMQP
      // 1.0, which ActiveMQ Artemis serves there too; ActiveMQ Classic serves AMQP on 5672,
      // so point brokerUrl (or remoteURI) there. failover:(a,b) takes the first.
      for (const char* key : {"brokerUrl", "brokerURL", "broker-url"}) {
        auto v = props.get(base + key);
        if (!v) continue;
        DROMEDARY_TRY(mapped, amqpUrlOfBrokerUrl(*v, base + key));
        config.remoteUri = std::move(mapped);
      }
      take("username", config.username);
      take("password", config.password);
      take("queuePrefix", config.queuePrefix);
      take("topicPrefix", config.topicPrefix);
      // Typed values read as endpoint options are (any case; Camel's durations).
      if (auto v = get("durableQueues")) {
        if (!equalsIgnoreCase(*v, "true") && !equalsIgnoreCase(*v, "false")) {
          return makeError(ErrorCode::InvalidOption,
                           fmt::format("{}durableQueues={} must be true or false", base, *v));
        }
        config.durableQueues = equalsIgnoreCase(*v, "true");
      }
      for (auto [key, into] : {std::pair{"reconnectDelay", &config.reconnectDelay},
                               std::pair{"maxReconnectDelay", &config.maxReconnectDelay}}) {
        if (auto v = get(key)) {
          auto d = parseDuration(*v);
          if (!d || d->count() < 1) {
            return makeError(ErrorCode::InvalidOption,
                             fmt::format("{}{}={} is not a duration of at least 1 ms (such as "
                                         "500, 500ms or 5s)",
                                         base, key, *v));
          }
          *into = *d;
        }
      }
    }
    resolved_ = config;
    return config;
  }

  std::string scheme_;
  std::string syntax_;
  std::optional<AmqpConfig> config_;
  std::optional<AmqpConfig> resolved_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Client>> clients_;
};

AmqpEndpoint::AmqpEndpoint(AmqpComponent& component, const Uri& uri, EndpointOptions options,
                           ProducerSpec producer, ConsumerSpec consumer, std::string remote_uri)
    : Endpoint(component, uri, std::move(options)), amqp_(component),
      producer_spec_(std::move(producer)), consumer_spec_(std::move(consumer)),
      remote_uri_(std::move(remote_uri)) {}

Result<std::unique_ptr<Producer>> AmqpEndpoint::createProducer() {
  return std::unique_ptr<Producer>(
      new AmqpProducer(amqp_.client(remote_uri_).producerConnection(), producer_spec_));
}

Result<std::unique_ptr<Consumer>> AmqpEndpoint::createConsumer(Processor& processor) {
  auto group = std::make_shared<ConsumerGroup>();
  group->spec = consumer_spec_;
  group->context = &context();
  group->route = &processor;
  return std::unique_ptr<Consumer>(
      new AmqpConsumer(amqp_.client(remote_uri_).consumerConnection(), std::move(group)));
}

}  // namespace

}  // namespace component::amqp

void registerAmqpComponent(Context& context, std::string scheme,
                           std::optional<AmqpConfig> config) {
  context.addComponent(
      std::make_unique<component::amqp::AmqpComponent>(std::move(scheme), std::move(config)));
}

void registerAmqpComponent(Context& context) {
  // Camel's JMS-named components, on the same AMQP 1.0 client: routes written for jms:,
  // activemq: or sjms2: run unchanged against a broker that speaks AMQP 1.0.
  for (const char* scheme : {"amqp", "jms", "activemq", "sjms", "sjms2"}) {
    registerAmqpComponent(context, scheme);
  }
}

AmqpConnectionCounts amqpConnectionCounts(Context& context, std::string_view scheme) {
  auto* c = dynamic_cast<component::amqp::AmqpComponent*>(context.component(scheme));
  return c ? c->counts() : AmqpConnectionCounts{};
}

}  // namespace dromedary
