// SPDX-License-Identifier: Apache-2.0
// Endpoint URIs and options are checked when the endpoint is created: no broker needed.
#include <gmock/gmock.h>

#include <dromedary/amqp/amqp_component.h>
#include <dromedary/dromedary.h>

namespace dromedary {
namespace {

using ::testing::HasSubstr;

// The error creating `uri` (empty if none), with the context property `key`=`value` set.
std::string endpointError(std::string_view uri, const std::string& key = {},
                          const std::string& value = {}) {
  Context context;
  registerBuiltinComponents(context);
  if (!key.empty()) context.properties().set(key, value);
  auto e = context.endpoint(uri);
  return e ? std::string() : e.error().toString();
}

TEST(AmqpOptionsTest, QueueTopicAndBareNamesAreAccepted) {
  EXPECT_EQ(endpointError("amqp:queue:orders"), "");
  EXPECT_EQ(endpointError("amqp:topic:prices?durableSubscriptionName=sub"), "");
  EXPECT_EQ(endpointError("amqp:orders?replyTo=replies&replyToType=Exclusive"), "");
}

TEST(AmqpOptionsTest, AnUnknownOptionNamesItAndTheEndpoint) {
  EXPECT_THAT(endpointError("amqp:queue:a?replyTimeout=5"), HasSubstr("replyTimeout"));
}

TEST(AmqpOptionsTest, InconsistentReplyOptionsFailAtCreation) {
  EXPECT_THAT(endpointError("amqp:queue:a?replyToType=Exclusive"),
              HasSubstr("needs a replyTo queue name"));
  EXPECT_THAT(endpointError("amqp:queue:a?replyTo=r&replyToType=Temporary"),
              HasSubstr("cannot be combined"));
  EXPECT_THAT(endpointError("amqp:queue:a?replyToType=Sometimes"), HasSubstr("replyToType"));
}

TEST(AmqpOptionsTest, OutOfRangeValuesFailAtCreation) {
  EXPECT_THAT(endpointError("amqp:queue:a?priority=12"), HasSubstr("priority must be 0 to 9"));
  EXPECT_THAT(endpointError("amqp:queue:a?concurrentConsumers=0"),
              HasSubstr("concurrentConsumers"));
  EXPECT_THAT(endpointError("amqp:queue:a?prefetch=0"), HasSubstr("prefetch"));
  EXPECT_THAT(endpointError("amqp:queue:a?durableSubscriptionName=s"),
              HasSubstr("topics"));
}

TEST(AmqpOptionsTest, AMissingDestinationIsAnError) {
  EXPECT_THAT(endpointError("amqp:queue:"), HasSubstr("names no destination"));
}

TEST(AmqpOptionsTest, ABadRemoteUriIsAnErrorNamingTheProperty) {
  EXPECT_THAT(endpointError("amqp:queue:a", "camel.component.amqp.remoteURI", "tcp://x:1"),
              HasSubstr("must start with amqp://"));
}

TEST(AmqpOptionsTest, AnEndpointsOwnBadRemoteUriIsAnErrorNamingTheEndpoint) {
  EXPECT_EQ(endpointError("amqp:queue:a?remoteURI=amqp://127.0.0.1:1"), "");
  EXPECT_THAT(endpointError("amqp:queue:a?remoteURI=tcp://x:1"),
              HasSubstr("remoteURI 'tcp://x:1' must start with amqp:// or amqps:// (in "
                        "'amqp:queue:a?remoteURI=tcp://x:1')"));
}

TEST(AmqpOptionsTest, ReconnectDelaysAreDurationsAndABadOneIsAnErrorNamingTheProperty) {
  EXPECT_EQ(endpointError("amqp:queue:a", "camel.component.amqp.maxReconnectDelay", "30s"), "");
  EXPECT_EQ(endpointError("amqp:queue:a", "camel.component.amqp.reconnectDelay", "250"), "");
  EXPECT_THAT(endpointError("amqp:queue:a", "camel.component.amqp.reconnectDelay", "soon"),
              HasSubstr("camel.component.amqp.reconnectDelay=soon is not a duration"));
  EXPECT_THAT(endpointError("amqp:queue:a", "camel.component.amqp.reconnectDelay", "0"),
              HasSubstr("at least 1 ms"));
}

TEST(AmqpOptionsTest, DurableQueuesTakesTrueOrFalseInAnyCase) {
  EXPECT_EQ(endpointError("amqp:queue:a", "camel.component.amqp.durableQueues", "FALSE"), "");
}

TEST(AmqpOptionsTest, ADurableQueuesValueOtherThanTrueOrFalseIsAnErrorNamingTheProperty) {
  EXPECT_THAT(endpointError("amqp:queue:a", "camel.component.amqp.durableQueues", "yes"),
              HasSubstr("camel.component.amqp.durableQueues=yes must be true or false"));
}

}  // namespace
}  // namespace dromedary
