// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The amqp component: AMQP 1.0 (ActiveMQ, Artemis, Qpid, RabbitMQ's plugin, Azure Service
/// Bus) on Qpid Proton C++. Endpoints are Camel's: `amqp:queue:NAME`, `amqp:topic:NAME`,
/// `amqp:NAME` (a queue), with the JMS/AMQP option names (docs/components/amqp.md).
///
/// The broker is configured per component, as Camel's `camel.component.amqp.*` properties:
///   camel.component.amqp.remoteURI=amqp://127.0.0.1:5672
///   camel.component.amqp.username=... / password=...
///   camel.component.amqp.queuePrefix=/queue/   (RabbitMQ's addresses)
///   camel.component.amqp.topicPrefix=/topic/
///   camel.component.amqp.durableQueues=true
/// read from the context's properties when the first endpoint is created; or in C++:
///   AmqpConfig config;
///   config.remoteUri = "amqp://broker:5672";
///   registerAmqpComponent(context, "amqp", config);   // before routes are added
/// A second broker is a second component under another scheme ("amqp2", ...).

#include <chrono>
#include <optional>
#include <string>

namespace dromedary {

class Context;

struct AmqpConfig {
  std::string remoteUri = "amqp://127.0.0.1:5672";
  std::string username;
  std::string password;
  std::string queuePrefix;  ///< put before a queue name to make the broker address
  std::string topicPrefix;  ///< put before a topic name
  /// Queues are attached as durable nodes (terminus durability "configuration"): a broker
  /// that creates queues on attach (RabbitMQ's plugin) makes them durable, so persistent
  /// messages waiting in them survive its restart. Every client declaring a queue must agree
  /// on this: false for queues that other clients declare non-durable.
  bool durableQueues = true;
  /// Reconnect back-off: the first delay, doubled per failed attempt up to the maximum.
  std::chrono::milliseconds reconnectDelay{100};
  std::chrono::milliseconds maxReconnectDelay{5000};
};

/// Registers an amqp component under `scheme`. Without `config`, the settings come from the
/// context properties `camel.component.<scheme>.*` (defaults above).
void registerAmqpComponent(Context& context, std::string scheme,
                           std::optional<AmqpConfig> config = std::nullopt);

/// The context's connections to brokers, for tests and the management view: how many
/// connections the component under `scheme` has opened since it started (reconnects
/// included), and how many are open now.
struct AmqpConnectionCounts {
  uint64_t opened = 0;
  uint64_t open = 0;
};
AmqpConnectionCounts amqpConnectionCounts(Context& context, std::string_view scheme = "amqp");

}  // namespace dromedary
