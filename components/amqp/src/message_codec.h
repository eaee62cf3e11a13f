// SPDX-License-Identifier: Apache-2.0
#pragma once

// Exchange <-> AMQP 1.0 message, with Camel's JMS header names (docs/components/amqp.md):
// the body keeps its type (string, binary, map, list, numbers), headers travel as
// application properties with their types, and the message's properties (message id,
// correlation id, reply-to, priority, ...) appear as JMS* headers.

#include <memory>
#include <string>
#include <string_view>

#include <proton/message.hpp>

#include <dromedary/core/exchange.h>
#include <dromedary/spi/header_filter_strategy.h>

namespace dromedary::component::amqp {

/// What the sending side decides about a message besides its content.
struct OutgoingQos {
  bool durable = true;
  int64_t ttlMillis = -1;  ///< < 0: none
  int priority = -1;       ///< < 0: the broker's default
  bool preserveMessageQos = false;  ///< take JMSPriority/JMSDeliveryMode/JMSExpiration headers
};

/// Camel's JmsHeaderFilterStrategy as the amqp component's default: Camel's own headers
/// (Camel*, org.apache.camel.*, ignoring case) neither sent nor taken from a message. Shared.
std::shared_ptr<const HeaderFilterStrategy> amqpHeaderFilterStrategy();

/// Fills `out` (cleared first) from the exchange's message. JMS* headers and Content-Type are
/// not sent as application properties (JMSCorrelationID, JMSType and JMSXGroupID become the
/// message's own fields), nor any header `filter` keeps in; a header whose value AMQP cannot
/// carry as a property (a list, map or object) is left out. Returns false with `error` set
/// when the body cannot be sent (an object with no conversion to text).
bool encodeMessage(const Message& in, const OutgoingQos& qos, const HeaderFilterStrategy& filter,
                   proton::message& out, std::string& error);

/// Whether the broker delivered `in` before: it counted an earlier delivery or cleared
/// first-acquirer (RabbitMQ marks redeliveries only so). JMSRedelivered, and the exchange's
/// isExternalRedelivered.
inline bool isRedelivery(const proton::message& in) {
  return in.delivery_count() > 0 || !in.first_acquirer();
}

/// Replaces `out`'s headers and body with the AMQP message's content: its application
/// properties as headers, but those `filter` keeps out, then the message's own fields as JMS*
/// headers (which win over a property of the same name). When `remote_failure` is given, it
/// gets the kExceptionProperty's value (null when the message has none).
void decodeMessage(const proton::message& in, const HeaderFilterStrategy& filter, Message& out,
                   Value* remote_failure = nullptr);

/// The text form of a message id (what JMSMessageID/JMSCorrelationID show).
std::string messageIdText(const proton::message_id& id);

/// The application property marking a reply that carries a failure (transferException).
inline constexpr std::string_view kExceptionProperty = "CamelAmqpException";

}  // namespace dromedary::component::amqp
